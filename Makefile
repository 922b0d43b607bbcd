# SPDX-License-Identifier: GPL-2.0
#
# fragview: see README.md.  The two commands a new user needs:
#   make demo     boot the patched guest, record a workload, render the map
#   make check    build everything and run every test ("N passed, N failed")

export FRAGVIEW_CACHE ?= /var/cache/fragview
OUT ?= $(CURDIR)/out

.PHONY: all deps fragview check demo bench fuzz kernelshark experiment \
	check-debug install clean help

all: deps fragview kernel initramfs

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## deps         install missing Debian packages (of every target; each
##              target below installs only its own: tools/deps.sh GROUP)
deps:
	@tools/deps.sh all

## fragview     build tools/fragview/fragview
fragview:
	@tools/deps.sh fragview
	@$(MAKE) -s -C tools/fragview

# kernel, initramfs, boot-shell, scenario: the guest pipeline
-include qemu/Makefile.inc

## check        every test; ends with "N passed, N failed"
check:
	@tools/deps.sh check
	@$(MAKE) -s -C tools/fragview
	@tests/run

## demo         boot, record the default scenario, render out/demo/
demo:
	@tools/deps.sh guest
	@$(MAKE) -s -C tools/fragview
	@tools/demo.sh $(if $(SCENARIO),--scenario $(SCENARIO)) \
		$(if $(MEM),--mem $(MEM)) --out $(OUT)/demo

## bench        benchmarks as ratios against a peer in the same run
bench:
	@tools/deps.sh bench
	@$(MAKE) -s -C tools/fragview
	@bench/run.sh

## experiment   Gorman's 2005 high-order experiment, grouping on vs off
experiment:
	@tools/deps.sh bench
	@$(MAKE) -s -C tools/fragview
	@experiment/run.sh

## check-debug  the guest tests on a KASAN/debug_pagealloc kernel
check-debug:
	@tools/deps.sh check
	@$(MAKE) -s -C tools/fragview
	@tests/debug.sh

## fuzz         fragview's libFuzzer target for >= 1M executions
fuzz:
	@tools/deps.sh check
	@$(MAKE) -s -C tools/fragview fuzz

## kernelshark  open a capture (CAPTURE=...) in KernelShark with our plugin
kernelshark:
	@tools/deps.sh kernelshark
	@kernelshark/run.sh $(CAPTURE)

## install      fragview, its man pages and the KernelShark plugin, where
##              Debian puts trace-cmd's and kernelshark's (PREFIX, DESTDIR)
install:
	@$(MAKE) --no-print-directory -C tools/fragview install
	@$(MAKE) --no-print-directory -C kernelshark/plugin install

clean:
	@$(MAKE) -s -C tools/fragview clean
	rm -rf $(OUT)
