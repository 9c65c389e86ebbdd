#!/bin/bash
# Run the benchmark workloads on the kernel that is booted now (the QEMU
# guest, or a real machine) and write their samples to OUTDIR:
#   OUTDIR/meta.json        kernel, CPUs, CPU model, preemption, sched features
#   OUTDIR/<workload>.jsonl one JSON sample a line (bench/lib.sh emit)
#   OUTDIR/status.txt       "<workload> ok|FAIL <seconds>" a line
# Exits non-zero if a workload failed or wrote no samples.
#
# usage: run-workloads.sh --out OUTDIR [--label NAME] [--feats "F1 F2"]
#                         [--only "ctxswitch hackbench ..."]
#   --label  the name results are grouped by (default: uname -r)
#   --feats  sched_feat bits to switch on first, via
#            /sys/kernel/debug/sched/features (mainline kernels), and
#            sysctls to set first, written NAME=VALUE (kernel.yield_type=2)
# env: QUICK=1 for the seconds-long smoke sizes; each wl-*.sh lists its own.
#      WL_LIMIT: seconds one workload may take (QUICK 600, else 10800)
# Before the first run on a machine: bench/setup.sh (needs write access).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ALL_WORKLOADS="ctxswitch hackbench cyclictest frameprobe sleeper spinyield mpv compile"
# seconds before a stuck workload is ended (and counted as failed)
WL_LIMIT=${WL_LIMIT:-$(quick 600 10800)}
out= label=$(uname -r) feats= only=$ALL_WORKLOADS
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--label) label=$2; shift 2 ;;
	--feats) feats=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	*) die "run-workloads.sh: unknown argument '$1'" ;;
	esac
done
[ -n "$out" ] || die "run-workloads.sh: --out is required"
for w in $only; do
	[ -x "$BENCH_DIR/wl-$w.sh" ] || die "unknown workload '$w' (known: $ALL_WORKLOADS)"
done
mkdir -p "$out"

features=/sys/kernel/debug/sched/features
for f in $feats; do
	if [[ $f == *=* ]]; then
		knob=/proc/sys/$(echo "${f%%=*}" | tr . /)
		[ -w "$knob" ] || die "cannot set sysctl ${f%%=*}: $knob is not writable"
		echo "${f#*=}" >"$knob" || die "sysctl $f rejected by the kernel"
		[ "$(cat "$knob")" = "${f#*=}" ] || die "sysctl ${f%%=*} reads $(cat "$knob") after writing ${f#*=}"
		continue
	fi
	[ -w "$features" ] || die "cannot set sched feature $f: $features is not writable"
	echo "$f" >"$features" || die "sched feature $f rejected by the kernel"
	grep -qw -- "$f" "$features" || die "sched feature $f is not on after writing it"
done

read_or_empty() { cat "$1" 2>/dev/null || true; }
{
	echo "{"
	echo "  \"label\": $(json_str "$label"),"
	echo "  \"kernel_release\": $(json_str "$(uname -r)"),"
	echo "  \"kernel_version\": $(json_str "$(uname -v)"),"
	echo "  \"cpus\": $NCPU,"
	echo "  \"cpu_model\": $(json_str "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"),"
	echo "  \"mem_kb\": $(awk '/^MemTotal/ { print $2 }' /proc/meminfo),"
	echo "  \"preempt\": $(json_str "$(read_or_empty /sys/kernel/debug/sched/preempt)"),"
	echo "  \"sched_features\": $(json_str "$(read_or_empty $features)"),"
	echo "  \"feats_set\": $(json_str "$feats"),"
	echo "  \"cmdline\": $(json_str "$(cat /proc/cmdline)"),"
	echo "  \"in_guest\": $([ "${VRQ_IN_GUEST:-0}" = 1 ] && echo true || echo false),"
	echo "  \"quick\": $([ "$QUICK" = 1 ] && echo true || echo false),"
	echo "  \"date\": $(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
	echo "}"
} >"$out/meta.json"

blog "workloads on $(uname -r) ($label), $NCPU CPUs, QUICK=$QUICK: $only"
: >"$out/status.txt"
failed=
for w in $only; do
	t0=$(date +%s)
	rc=0
	timeout -k 10 "$WL_LIMIT" "$BENCH_DIR/wl-$w.sh" "$out" || rc=$?
	secs=$(($(date +%s) - t0))
	if [ $rc != 0 ]; then
		status=FAIL
		blog "$w FAILED (exit $rc)"
	elif [ ! -s "$out/$w.jsonl" ]; then
		status=FAIL
		blog "$w FAILED: no samples"
	else
		status=ok
	fi
	[ $status = ok ] || failed="$failed $w"
	echo "$w $status $secs" >>"$out/status.txt"
	blog "$w $status in ${secs}s ($(wc -l <"$out/$w.jsonl" 2>/dev/null || echo 0) samples)"
done
[ -z "$failed" ] || die "workloads failed:$failed"
blog "all workloads done"
