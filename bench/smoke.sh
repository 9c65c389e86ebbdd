#!/bin/bash
# The benchmark's smoke test for `make test`: one boot of a given kernel
# running every workload once at QUICK sizes. Fails if the boot fails, a
# workload fails, or a workload produced no numbers (aggregate.py --check).
#
# usage: smoke.sh --kernel BZIMAGE [--cpus 2] [--out DIR] [--timeout SECS]
#        smoke.sh --sched cfs|vrq [--debug]   (the kernel of build/<sched>[-debug])
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel= sched= debug=0 cpus=2 out= timeout=${SMOKE_TIMEOUT:-1500}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--sched) sched=$2; shift 2 ;;
	--debug) debug=1; shift ;;
	--cpus) cpus=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	*) die "smoke.sh: unknown argument '$1'" ;;
	esac
done
if [ -z "$kernel" ]; then
	[ -n "$sched" ] || die "smoke.sh: --kernel or --sched is required"
	check_sched "$sched"
	kernel=$(kernel_build_dir "$sched" "$debug")/arch/x86/boot/bzImage
fi
[ -f "$kernel" ] || die "no kernel at $kernel"
name=${sched:-$(kernel_name_of "$kernel")}
out=${out:-$BUILD/bench-smoke/$name-${cpus}cpu}
rm -rf "$out"

export QUICK=1
t0=$(date +%s)
"$BENCH_DIR/setup.sh"
note "bench smoke: $kernel, $cpus vCPUs, every workload at QUICK sizes"
rc=0
boot_workloads "$out" "$kernel" "$cpus" "$timeout" \
	"QUICK=1 $BENCH_DIR/run-workloads.sh --out \$RESULTS/data --label $name" || rc=$?
check=0
python3 "$BENCH_DIR/aggregate.py" --check "$out/data" || check=$?
secs=$(($(date +%s) - t0))
if [ $rc != 0 ] || [ $check != 0 ]; then
	echo "bench smoke $name: FAILED in $(fmt_secs $secs) (boot exit $rc; log $out/serial.log, output $out/output.txt)"
	exit 1
fi
echo "bench smoke $name: ok in $(fmt_secs $secs) ($(cat "$out/accel"))"
