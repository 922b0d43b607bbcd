#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [--test] - install the Debian packages the KernelShark plugin needs
# (--test: also what kernelshark/test.sh needs); tools/deps.sh holds the
# lists.
top=$(dirname "$0")/..
if [ "${1:-}" = "--test" ]; then
	exec "$top/tools/deps.sh" check
fi
exec "$top/tools/deps.sh" kernelshark
