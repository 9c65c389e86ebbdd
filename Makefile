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
CPUS ?= 2
PREEMPT ?= full
TIMEOUT ?= 600
CMD ?= uname -a; nproc; cat /sys/kernel/debug/sched/preempt 2>/dev/null
# Schedulers `make test` covers.
TEST_SCHEDS ?= cfs vrq
# make bench: QUICK=1 for a short run; CFS_FEATS="FEAT ..." adds a CFS run
# with those sched_feat bits on (default: the seed fixes of patches/cfs-*,
# see docs/cfs-fixes.md; CFS_FEATS= for none).
QUICK ?= 0
# make distro-check: LINK=1 also builds vmlinux (long).
LINK ?= 0
BENCH_SCHEDS ?= vrq cfs
CFS_FEATS ?= WA_SCHED_IDLE_PREV SIB_PULL SIB_KEEP_LAST SIS_SKIP_OVERLOADED SIB_IDLE_CAPACITY

export REPO BUILD KSRC PATCHES

VALID_SCHEDS := cfs vrq
ifeq ($(filter $(SCHED),$(VALID_SCHEDS)),)
$(error unknown SCHED='$(SCHED)' (valid: $(VALID_SCHEDS)))
endif
ifeq ($(filter $(DEBUG),0 1),)
$(error DEBUG must be 0 or 1, not '$(DEBUG)')
endif

KDIR := $(BUILD)/$(SCHED)$(if $(filter 1,$(DEBUG)),-debug)
BZIMAGE := $(KDIR)/arch/x86/boot/bzImage

.PHONY: help deps source config kernel boot test test-host tests checkpatch bench bench-smoke patch distro-check torture clean

help:
	@echo 'VRQ for Linux 6.12 -- make targets'
	@echo '  deps        install missing Debian packages (apt-get as root)'
	@echo '  source      unpack linux-source-6.12 (or use KSRC=), apply patches/series, install kernel-sched/'
	@echo '  config      write build/<SCHED>[-debug]/.config from configs/ (SCHED=cfs|vrq DEBUG=0|1)'
	@echo '  kernel      build bzImage out of tree in build/<SCHED>[-debug]/ with ccache'
	@echo '  boot        boot it under QEMU: CPUS=N PREEMPT=none|voluntary|full CMD=... TIMEOUT=s'
	@echo '  tests       build the guest test programs into build/tests/'
	@echo '  test-host   host-side unit tests (log scanner, source/patch handling)'
	@echo '  checkpatch  checkpatch.pl --strict on kernel-sched/, Kconfig.vrq and the series'
	@echo '  test        host tests, checkpatch, bench smoke, then the guest suite on the debug kernels (TEST_SCHEDS="$(TEST_SCHEDS)")'
	@echo '  bench       VRQ vs EEVDF (+ EEVDF with CFS_FEATS on), interleaved rounds -> results/<date>-<host>/'
	@echo '              QUICK=1 short; ROUNDS=N; workload sizes as in docs/benchmarks.md'
	@echo '  bench-smoke one QUICK boot per TEST_SCHEDS debug kernel running every benchmark workload'
	@echo '  patch       write build/vrq-6.12.patch (all-in-one) and dry-run it on pristine 6.12'
	@echo '  distro-check Debian'\''s 6.12 config + VRQ: olddefconfig drops only the CFS-only options,'
	@echo '              kernel/sched/ compiles without warnings (LINK=1: vmlinux too)'
	@echo '  torture     long stress/rt-tests/hotplug/suspend/soak run on the VRQ debug kernel'
	@echo '              -> results/torture-<date>/summary.md (QUICK=1: minutes)'
	@echo '  clean       remove build/ (keeps nothing)'

deps:
	@$(S)/deps.sh

source:
	@$(S)/source.sh

config: source
	@$(S)/config-kernel.sh $(SCHED) $(DEBUG)

kernel: config
	@$(S)/build-kernel.sh $(SCHED) $(DEBUG)

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

bench:
	@QUICK=$(QUICK) SCHEDS="$(BENCH_SCHEDS)" CFS_FEATS="$(CFS_FEATS)" CPUS=$(CPUS) PREEMPT=$(PREEMPT) bench/run-bench.sh

bench-smoke:
	@for s in $(TEST_SCHEDS); do $(MAKE) -s kernel SCHED=$$s DEBUG=1 && bench/smoke.sh --sched $$s --debug || exit 1; done

patch:
	@$(S)/make-patch.sh

distro-check: source
	@LINK=$(LINK) $(S)/distro-check.sh

torture: tests
	@$(MAKE) -s kernel SCHED=vrq DEBUG=1
	@QUICK=$(QUICK) $(S)/torture.sh

clean:
	rm -rf $(BUILD)
