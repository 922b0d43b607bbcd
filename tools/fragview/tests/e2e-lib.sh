# SPDX-License-Identifier: GPL-2.0
# e2e-lib.sh - what the end-to-end scripts share (sourced by e2e.sh and
# e2e-blame.sh, in their scratch directory).

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; shift; for l in "$@"; do echo "  $l" >&2; done; }

# expect NAME STATUS STDERR-LINE -- CMD...: exact status, exact stderr
# (the command's output is left in out.txt, its stderr in err.txt)
expect() {
	local name=$1 want_rc=$2 want_err=$3
	shift 4
	"$@" >out.txt 2>err.txt
	local rc=$?
	local err
	err=$(cat err.txt)
	if [ "$rc" = "$want_rc" ] && [ "$err" = "$want_err" ]; then
		ok "$name"
	else
		nok "$name" "status $rc (want $want_rc)" "stderr: $err" \
			"want:   $want_err"
	fi
}

# expect_line NAME STATUS REGEX -- CMD...: exact status, no stderr, and a
# line of the output matching the extended REGEX (left in out.txt)
expect_line() {
	local name=$1 want_rc=$2 re=$3 rc
	shift 4
	"$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" = "$want_rc" ] && [ ! -s err.txt ] && grep -Eq "$re" out.txt; then
		ok "$name"
	else
		nok "$name" "status $rc (want $want_rc)" "$(cat out.txt err.txt)" "want a line /$re/"
	fi
}

# jq-less JSON lookups in fragview's output
jget() { python3 -c "import json,sys; d=json.load(open('$1')); print($2)"; }
