#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [CAPTURE] - open a capture in KernelShark with the mobility plugin.
# Without CAPTURE: the demo's trace.dat, else the newest tests/fixtures/*.dat.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
plugin=$here/plugin/plugin-mobility.so

capture=${1:-}
if [ -z "$capture" ]; then
	for c in "${OUT:-$top/out}/demo/trace.dat" \
		 $(ls -t "$top"/tests/fixtures/*.dat 2>/dev/null); do
		[ -f "$c" ] && { capture=$c; break; }
	done
fi
if [ -z "$capture" ] || [ ! -r "$capture" ]; then
	echo "kernelshark/run.sh: no capture${capture:+ $capture};" \
	     "pass CAPTURE=path/to/trace.dat" >&2
	exit 1
fi

"$here/deps.sh" || exit 1
make -s -C "$here/plugin" || exit 1

if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
	echo "kernelshark/run.sh: no DISPLAY; KernelShark needs a desktop" >&2
	exit 1
fi
echo "kernelshark/run.sh: $capture" >&2
exec kernelshark -p "$plugin" "$capture"
