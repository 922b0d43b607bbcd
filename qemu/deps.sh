#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian 12 packages the qemu/ pipeline needs (tools/deps.sh
# holds every group's list).
exec "$(dirname "$0")/../tools/deps.sh" guest
