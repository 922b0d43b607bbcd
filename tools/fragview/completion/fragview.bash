# SPDX-License-Identifier: GPL-2.0
# bash completion for fragview: the commands, each command's options and
# their values come from the binary itself ('fragview --list-commands',
# 'fragview CMD --list-options'), so they are those of its option tables.
# Installed as share/bash-completion/completions/fragview.

# _fragview_words WORDS...: COMPREPLY from WORDS matching the current word
_fragview_words()
{
	local IFS=$'\n'
	# shellcheck disable=SC2207
	COMPREPLY=($(compgen -W "$*" -- "$cur"))
}

# _fragview_files: file names, as bash completes them
_fragview_files()
{
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	# shellcheck disable=SC2207
	COMPREPLY=($(compgen -f -- "$cur"))
}

_fragview()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local fv=${COMP_WORDS[0]} cmd='' i w line names values
	local -a opts=()

	# the command: the first word after fragview that is not an option
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-*) ;;
		*) cmd=$w; break;;
		esac
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			mapfile -t opts < <("$fv" --list-options 2>/dev/null)
			_fragview_words "$(printf '%s\n' "${opts[@]%%=*}" | tr ' ' '\n')"
		else
			_fragview_words "$("$fv" --list-commands 2>/dev/null)"
		fi
		return
	fi
	if [ "$cmd" = help ]; then
		_fragview_words "$("$fv" --list-commands 2>/dev/null)"
		return
	fi
	mapfile -t opts < <("$fv" "$cmd" --list-options 2>/dev/null)

	# "--opt=VALUE" and "--opt VALUE": the option's values
	# (bash splits "--opt=VALUE" at "=" into three words)
	local opt=$prev value_cur=$cur
	if [ "$prev" = = ]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [ "$cur" = = ]; then
		value_cur=
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		value_cur=${cur#*=}
	fi
	for line in "${opts[@]}"; do
		names=${line%%=*}
		[ "$names" = "$line" ] && continue	# takes no value
		case " $names " in
		*" $opt "*)
			values=${line#*=}
			cur=$value_cur
			if [ "$values" = FILE ]; then
				_fragview_files
			elif [ -n "$values" ]; then
				_fragview_words "$(tr ' ' '\n' <<<"$values")"
			fi
			return;;
		esac
	done
	if [[ $cur == -* ]]; then
		_fragview_words "$(printf '%s\n' "${opts[@]%%=*}" | tr ' ' '\n' | grep -- '^--')"
	else
		_fragview_files
	fi
}

complete -F _fragview fragview
