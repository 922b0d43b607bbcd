#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# gui-shot.sh PLUGIN CAPTURE PNG REPORT LOG [KERNELSHARK-OPTION...] - run
# inside an X server (the
# test wraps it in xvfb-run): open CAPTURE in KernelShark with PLUGIN, wait
# until the plugin has painted (or declined the capture), save a
# screenshot of the screen to PNG, and close KernelShark again.
# KernelShark's stdout/stderr go to LOG, the plugin's account to REPORT.
set -u
plugin=$1 capture=$2 png=$3 report=$4 log=$5
shift 5

# A fresh settings dir: noRootWarn (KsMainWindow::_rootWarning) keeps the
# "running as root" dialog from blocking the window when tests run as root.
cache=$(mktemp -d)
printf '[General]\nnoRootWarn=true\n' >"$cache/setting.ini"
trap 'rm -rf "$cache"' EXIT

rm -f "$report"
KS_USER_CACHE_DIR=$cache MOBILITY_PLUGIN_REPORT=$report \
	stdbuf -oL -eL kernelshark -geometry 1280x900+0+0 -p "$plugin" \
	"$@" "$capture" >"$log" 2>&1 &
ks=$!

# Loaded and painted once: the plugin rewrites its report on every paint
# ("status drawn"), or declined the capture.  Give up after 90 s.
for _ in $(seq 180); do
	kill -0 "$ks" 2>/dev/null || break
	grep -Eq '^status (drawn|declined)' "$report" 2>/dev/null && break
	sleep 0.5
done
drawn=no
grep -Eq 'drawn [1-9]' "$report" 2>/dev/null && drawn=yes
sleep 3		# let the table and the second paint settle
alive=no
kill -0 "$ks" 2>/dev/null && alive=yes
xwd -root -silent | convert xwd:- "$png"
kill "$ks" 2>/dev/null
wait "$ks" 2>/dev/null
echo "alive=$alive drawn=$drawn"
[ "$alive" = yes ]
