# SPDX-License-Identifier: GPL-2.0
#
# fragview: see README.md.  The two commands a new user needs:
#   make demo     boot the patched guest, record a workload, render the map
#   make check    build everything and run every test ("N passed, N failed")
# KERNEL=VER picks the kernel base, a directory of kernel-patches/ (default
# 6.1), for demo, bench, experiment, check-debug and the guest targets of
# qemu/Makefile.inc; make check tests every base.

export FRAGVIEW_CACHE ?= /var/cache/fragview
OUT ?= $(CURDIR)/out
ifdef KERNEL
export FRAGVIEW_KERNEL := $(KERNEL)
endif
# the base a target boots, and the deps group of its kernel source
BASE = $(or $(FRAGVIEW_KERNEL),6.1)
# output directories of a base other than 6.1 get its name: out/demo-6.12
KSUFFIX = $(if $(filter-out 6.1,$(FRAGVIEW_KERNEL)),-$(FRAGVIEW_KERNEL))

.PHONY: all deps fragview check demo bench bench-ticker fuzz kernelshark experiment \
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

## check        every test; ends with "N passed, N failed", also on failure
# On a failure make would print its own "*** [check] Error 1" after the
# tally; make dies quietly of SIGPIPE instead (exit 141), so that the
# tally stays the last line a reader of the log sees.  A fragview that
# does not build fails the suites that need it, in the tally.
check:
	@tools/deps.sh check
	@$(MAKE) -s -C tools/fragview || true
	@tests/run || kill -PIPE $$PPID

## demo         boot, record the default scenario, render out/demo/
##              (KERNEL=6.12: on that base, into out/demo-6.12/)
demo:
	@tools/deps.sh guest kernel-$(BASE)
	@$(MAKE) -s -C tools/fragview
	@tools/demo.sh $(if $(SCENARIO),--scenario $(SCENARIO)) \
		$(if $(MEM),--mem $(MEM)) --out $(OUT)/demo$(KSUFFIX)

## bench        benchmarks as ratios against a peer in the same run
##              (KERNEL=6.12: bench/results-6.12.md, bench/data-6.12/)
bench:
	@tools/deps.sh bench kernel-$(BASE)
	@$(MAKE) -s -C tools/fragview
	@bench/run.sh

## bench-ticker what a census + snapshot every second costs (the guest's
##              clock in instructions): bench/results-ticker.md
bench-ticker:
	@tools/deps.sh bench kernel-6.1
	@bench/ticker.sh

## experiment   Gorman's 2005 high-order test, stress-highalloc style:
##              6.1 and 6.12, grouping on/off, per-cpu lists pinned or
##              auto, in one resumable run: experiment/results.md
experiment:
	@tools/deps.sh bench kernel-6.1 kernel-6.12
	@$(MAKE) -s -C tools/fragview
	@experiment/run.sh

## check-debug  the guest tests on a KASAN/debug_pagealloc kernel
##              (KERNEL=6.12: of that base)
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

## install      fragview, its man pages, bash completion and the KernelShark plugin, where
##              Debian puts trace-cmd's and kernelshark's (PREFIX, DESTDIR)
install:
	@$(MAKE) --no-print-directory -C tools/fragview install
	@$(MAKE) --no-print-directory -C kernelshark/plugin install

clean:
	@$(MAKE) -s -C tools/fragview clean
	rm -rf $(OUT)
