#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian 12 packages the qemu/ pipeline needs (tools/deps.sh
# holds every group's list): the pipeline and the kernel source of the
# base it builds (FRAGVIEW_KERNEL, default 6.1).
exec "$(dirname "$0")/../tools/deps.sh" guest "kernel-${FRAGVIEW_KERNEL:-6.1}"
