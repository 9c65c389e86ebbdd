# VRQ for Linux 6.12: the harness.
#
# The story: deps -> source -> config -> kernel -> boot -> test -> bench.
# Each target does one step and depends on the one before. `make help`
# lists them with their variables.

SHELL := /bin/bash
REPO := $(CURDIR)
BUILD ?= $(REPO)/build
S := $(REPO)/scripts

SCHED ?= cfs
DEBUG ?= 0
# LOCKSTAT=1: the kernel with lock statistics, build/<SCHED>-lockstat/
LOCKSTAT ?= 0
CPUS ?= 2
PREEMPT ?= full
TIMEOUT ?= 600
CMD ?= uname -a; nproc; cat /sys/kernel/debug/sched/preempt 2>/dev/null
# Schedulers `make test` covers.
TEST_SCHEDS ?= cfs vrq
# make bench: SUITE=throughput|latency|scaling|all; QUICK=1 for a short
# run; AA=1 adds the EEVDF kernel again as "cfs-aa" (BENCH_SCHEDS=cfs AA=1:
# an A/A run, EEVDF against itself); RESUME=results/DIR goes
# on with an interrupted run of one suite; CFS_FEATS="FEAT ..." adds a CFS
# variant with those sched_feat bits on (CFS_FEATS=seed: the seed fixes of
# patches/cfs-*, see docs/cfs-fixes.md); VRQ_ALT="kernel.NAME=N ..." adds
# a VRQ variant "vrq-alt" with those sysctls; WORKLOADS="..." runs only
# those workloads of the suite (a partial run); ICOUNT=SHIFT runs the
# guests in QEMU's icount mode (docs/benchmarks.md, "The icount instrument").
ICOUNT ?=
QUICK ?= 0
SUITE ?= all
BENCH_SUITES := throughput latency scaling
AA ?= 0
RESUME ?=
# make distro-check: LINK=1 also builds vmlinux (long).
LINK ?= 0
BENCH_SCHEDS ?= vrq cfs
CFS_FEATS ?=

export REPO BUILD KSRC PATCHES

VALID_SCHEDS := cfs cfs-autogroup vrq
ifeq ($(filter $(SCHED),$(VALID_SCHEDS)),)
$(error unknown SCHED='$(SCHED)' (valid: $(VALID_SCHEDS)))
endif
ifeq ($(filter $(DEBUG),0 1),)
$(error DEBUG must be 0 or 1, not '$(DEBUG)')
endif
ifeq ($(filter $(LOCKSTAT),0 1),)
$(error LOCKSTAT must be 0 or 1, not '$(LOCKSTAT)')
endif
ifeq ($(DEBUG)$(LOCKSTAT),11)
$(error DEBUG=1 and LOCKSTAT=1 are two kernels: build one at a time)
endif
# The kernel's flavour: 0, 1 (debug) or lockstat.
FLAVOUR := $(if $(filter 1,$(LOCKSTAT)),lockstat,$(DEBUG))
ifeq ($(filter $(SUITE),all $(BENCH_SUITES)),)
$(error unknown SUITE='$(SUITE)' (valid: all $(BENCH_SUITES)))
endif
ifeq ($(filter $(AA),0 1),)
$(error AA must be 0 or 1, not '$(AA)')
endif
ifneq ($(RESUME),)
ifeq ($(SUITE),all)
$(error RESUME=$(RESUME) goes on with one suite's run: name it with SUITE=)
endif
endif
SUITES := $(if $(filter all,$(SUITE)),$(BENCH_SUITES),$(SUITE))

KDIR := $(BUILD)/$(SCHED)$(if $(filter 1,$(DEBUG)),-debug)$(if $(filter 1,$(LOCKSTAT)),-lockstat)
BZIMAGE := $(KDIR)/arch/x86/boot/bzImage

.PHONY: help deps source config kernel boot test test-host tests checkpatch bench bench-smoke patch distro-check desktop-check torture clean

help:
	@echo 'VRQ for Linux 6.12 -- make targets'
	@echo '  deps        install missing Debian packages (apt-get as root)'
	@echo '  source      unpack linux-source-6.12 (or use KSRC=), apply patches/series, install kernel-sched/'
	@echo '  config      write build/<SCHED>[-debug]/.config from configs/ (SCHED=cfs|cfs-autogroup|vrq DEBUG=0|1, LOCKSTAT=1)'
	@echo '  kernel      build bzImage out of tree in build/<SCHED>[-debug]/ with ccache'
	@echo '  boot        boot it under QEMU: CPUS=N PREEMPT=none|voluntary|full CMD=... TIMEOUT=s'
	@echo '  tests       build the guest test programs into build/tests/'
	@echo '  test-host   host-side unit tests (log scanner, source/patch handling)'
	@echo '  checkpatch  checkpatch.pl --strict on kernel-sched/, Kconfig.vrq and the series'
	@echo '  test        host tests, checkpatch, bench smoke, then the guest suite on the debug kernels (TEST_SCHEDS="$(TEST_SCHEDS)")'
	@echo '  bench       VRQ vs EEVDF, interleaved rounds -> results/<date>-<host>-<suite>/'
	@echo '              SUITE=throughput|latency|scaling|all (default all, each about 90 min or less)'
	@echo '              AA=1 adds EEVDF again as cfs-aa (noise floor; BENCH_SCHEDS=cfs AA=1 is an A/A run);'
	@echo '              RESUME=results/DIR; QUICK=1 short; ROUNDS=N (4); CFS_FEATS=seed adds EEVDF with the seed fixes'
	@echo '  bench-smoke one QUICK boot per TEST_SCHEDS debug kernel running every benchmark workload'
	@echo '  patch       write build/vrq-6.12.patch (all-in-one) and dry-run it on pristine 6.12'
	@echo '  distro-check Debian'\''s 6.12 config + VRQ: olddefconfig drops only the CFS-only options,'
	@echo '              kernel/sched/ compiles without warnings (LINK=1: vmlinux too)'
	@echo '  desktop-check VRQ and EEVDF kernels from Debian'\''s config booted on a Debian 12 systemd image'
	@echo '              at 2 and 4 vCPUs (boot state, PSI, cgroups, unit policies, schedtool, load)'
	@echo '              -> build/desktop/summary.md; DESKTOP_CPUS="2 4" DESKTOP_SCHEDS="vrq cfs"'
	@echo '  torture     long stress/rt-tests/hotplug/suspend/soak run on the VRQ debug kernel'
	@echo '              -> results/torture-<date>/summary.md (QUICK=1: minutes)'
	@echo '  clean       remove build/ (keeps nothing)'

deps:
	@$(S)/deps.sh

source:
	@$(S)/source.sh

config: source
	@$(S)/config-kernel.sh $(SCHED) $(FLAVOUR)

kernel: config
	@$(S)/build-kernel.sh $(SCHED) $(FLAVOUR)

boot: kernel
	@$(S)/boot-guest.sh --kernel $(BZIMAGE) --cpus $(CPUS) --preempt $(PREEMPT) \
		--timeout $(TIMEOUT) --out $(BUILD)/boot/$(notdir $(KDIR))-$(CPUS)cpu-$(PREEMPT) -- '$(CMD)'

tests:
	@$(MAKE) -s -C tests/guest O=$(BUILD)/tests
	@$(MAKE) -s -C tests/vrq O=$(BUILD)/tests-vrq
	@$(MAKE) -s -C tests/cfs O=$(BUILD)/tests-cfs
	@$(MAKE) -s -C tests/reliability O=$(BUILD)/tests-reliability

test-host:
	@tests/host/run.sh

checkpatch: source
	@$(S)/checkpatch.sh

# The bench smoke runs first so that the guest suite's "N passed, N failed"
# is the last line.
test: test-host tests checkpatch bench-smoke
	@TEST_SCHEDS="$(TEST_SCHEDS)" $(S)/run-guest-tests.sh

BENCH_ENV = QUICK=$(QUICK) SCHEDS="$(BENCH_SCHEDS)" CFS_FEATS="$(CFS_FEATS)" VRQ_ALT="$(VRQ_ALT)" WORKLOADS="$(WORKLOADS)" CPUS=$(CPUS) \
	PREEMPT=$(PREEMPT) AA=$(AA) ICOUNT=$(ICOUNT)

bench:
	@t=0; for s in $(SUITES); do \
		e=$$($(BENCH_ENV) SUITE=$$s bench/run-bench.sh --estimate) || exit 1; t=$$((t + e)); \
	done; \
	echo "==> make bench: suites $(SUITES), about $$((t / 60)) min at these sizes on 2 host cores"; \
	t0=$$(date +%s); \
	for s in $(SUITES); do \
		$(BENCH_ENV) SUITE=$$s bench/run-bench.sh $(if $(RESUME),--resume $(RESUME)) || exit 1; \
	done; \
	echo "==> make bench: suites $(SUITES) done in $$((($$(date +%s) - t0) / 60)) min"

bench-smoke:
	@for s in $(TEST_SCHEDS); do $(MAKE) -s kernel SCHED=$$s DEBUG=1 && bench/smoke.sh --sched $$s --debug || exit 1; done

patch:
	@$(S)/make-patch.sh

distro-check: source
	@LINK=$(LINK) $(S)/distro-check.sh

desktop-check: source
	@$(S)/desktop-check.sh

torture: tests
	@$(MAKE) -s kernel SCHED=vrq DEBUG=1
	@QUICK=$(QUICK) $(S)/torture.sh

clean:
	rm -rf $(BUILD)
