#!/bin/bash
# `make bench`: VRQ against mainline EEVDF/CFS in one interleaved run.
# Builds the kernels, boots them in turn under QEMU with the same settings
# (round 1: vrq cfs [cfs-feat], round 2: the same ...), runs
# bench/run-workloads.sh in each guest, then hackbench alone at each vCPU
# count of SCALING_CPUS, and writes results/<date>-<host>/:
#   meta.json      host CPU and cores, QEMU accelerator, vCPUs, variants, git
#   configs/       the .config of each kernel
#   runs/<id>/     one boot: run.json, serial.log, data/ (samples, meta.json)
#   samples.json summary.json summary.md plots/*.png   (aggregate.py, plot.py)
#
# usage: run-bench.sh [--out DIR] [--no-build]
# env:   QUICK=1        seconds-long workloads, 1 round, scaling at 1 and 2 vCPUs
#        ROUNDS (3)     CPUS (2)  PREEMPT (full)  MEM (3072 MB)
#        SCHEDS         kernels to compare (default "vrq cfs")
#        CFS_FEATS      sched_feat bits switched on for an extra "cfs-feat"
#                       variant of the CFS kernel (empty: no such variant)
#        SCALING_CPUS   vCPU counts for the scaling runs (default "1 2 4 8")
#        SCALING_GROUPS hackbench groups in the scaling runs (default 4)
#        SCALING_ROUNDS rounds that include the scaling runs (default ROUNDS)
#        SCALING_VARIANTS variants in the scaling runs (default: all but
#                       cfs-feat, i.e. the kernels of SCHEDS)
#        workload sizes (COMPILE_UNITS, HB_LOOPS, CT_SECS ... see SIZE_VARS
#        and each bench/wl-*.sh) are passed on to the guest and recorded
#        BOOT_TIMEOUT   seconds per boot
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out= build=1
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	*) die "run-bench.sh: unknown argument '$1'" ;;
	esac
done

ROUNDS=${ROUNDS:-$(quick 1 3)}
CPUS=${CPUS:-2}
export PREEMPT=${PREEMPT:-full} MEM=${MEM:-3072}
SCHEDS=${SCHEDS:-vrq cfs}
CFS_FEATS=${CFS_FEATS:-}
SCALING_CPUS=${SCALING_CPUS:-$(quick "1 2" "1 2 4 8")}
SCALING_GROUPS=${SCALING_GROUPS:-4}
SCALING_MODES=${SCALING_MODES:-process-pipe thread-socket}
SCALING_VARIANTS=${SCALING_VARIANTS:-$SCHEDS}
SCALING_ROUNDS=${SCALING_ROUNDS:-$ROUNDS}
# Workload sizes a user may override; set ones go to every guest.
SIZE_VARS="COMPILE_UNITS LOAD_UNITS BENCH_FUNCS COMPILE_PCTS COMPILE_POLICIES
COMPILE_REPS HB_GROUPS HB_LOOPS HB_REPS HB_MODES CS_LOOPS CS_REPS CT_LOADS
CT_SECS FP_LOADS FP_SECS MPV_LOADS MPV_WARMUP CLIP_SECS"
sizes=
for v in $SIZE_VARS; do
	[ -z "${!v:-}" ] || sizes+=" $v='${!v}'"
done
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$(quick 900 14400)}
for s in $SCHEDS; do check_sched "$s"; done
require qemu-system-x86_64 gnuplot python3

# variants: "name:sched:feats" (feats with commas for spaces)
variants=()
for s in $SCHEDS; do variants+=("$s:$s:"); done
if [ -n "$CFS_FEATS" ] && [[ " $SCHEDS " == *" cfs "* ]]; then
	variants+=("cfs-feat:cfs:$(echo $CFS_FEATS | tr ' ' ,)")
fi
nvar=${#variants[@]}
nscal=0
for v in "${variants[@]}"; do
	[[ " $SCALING_VARIANTS " != *" ${v%%:*} "* ]] || nscal=$((nscal + $(echo $SCALING_CPUS | wc -w)))
done
host=$(hostname -s 2>/dev/null || hostname)
out=${out:-$REPO/results/$(date +%Y%m%d-%H%M)-$host}
mkdir -p "$out/runs" "$out/configs"
out=$(cd "$out" && pwd)

srounds=$((SCALING_ROUNDS < ROUNDS ? SCALING_ROUNDS : ROUNDS))
total=$((build * $(echo $SCHEDS | wc -w) + 1 + ROUNDS * nvar + srounds * nscal + 1))
step=0 t_start=$(date +%s)
progress() {
	step=$((step + 1))
	note "[$step/$total] +$(fmt_secs $(($(date +%s) - t_start))) $*"
}

for s in $SCHEDS; do
	[ $build = 1 ] || break
	progress "building the $s kernel (make kernel SCHED=$s)"
	make -s -C "$REPO" kernel SCHED="$s"
done
progress "host setup: probes and clip (bench/setup.sh)"
"$BENCH_DIR/setup.sh"
for s in $SCHEDS; do
	kdir=$(kernel_build_dir "$s" 0)
	[ -f "$kdir/arch/x86/boot/bzImage" ] || die "no $s kernel at $kdir: run 'make kernel SCHED=$s'"
	cp "$kdir/.config" "$out/configs/$s.config"
done

failed=()
# one_boot ROUND VARIANT CPUS KIND
one_boot() {
	local r=$1 v=$2 cpus=$3 kind=$4 name sched feats id cmd rc=0 t0
	IFS=: read -r name sched feats <<<"$v"
	feats=${feats//,/ }
	id=r$r-$name-${cpus}cpu-$kind
	cmd="QUICK=$QUICK$sizes"
	if [ "$kind" = scaling ]; then
		cmd+=" HB_GROUPS='$SCALING_GROUPS' HB_MODES='$SCALING_MODES'"
		progress "round $r/$ROUNDS $name: hackbench scaling at $cpus vCPU ($cpus vCPUs on $(nproc) host cores)"
	else
		progress "round $r/$ROUNDS $name: all workloads at $cpus vCPU${feats:+ (sched_feat: $feats)}"
	fi
	cmd+=" $BENCH_DIR/run-workloads.sh --out \$RESULTS/data --label $name"
	[ -z "$feats" ] || cmd+=" --feats '$feats'"
	[ "$kind" = main ] || cmd+=" --only hackbench"
	t0=$(date +%s)
	boot_workloads "$out/runs/$id" "$(kernel_build_dir "$sched" 0)/arch/x86/boot/bzImage" \
		"$cpus" "$BOOT_TIMEOUT" "$cmd" || rc=$?
	cat >"$out/runs/$id/run.json" <<-JSON
		{"round": $r, "variant": "$name", "sched": "$sched", "feats": "$feats", "cpus": $cpus,
		 "host_cores": $(nproc), "kind": "$kind", "exit": $rc, "seconds": $(($(date +%s) - t0)),
		 "accel": "$(cat "$out/runs/$id/accel" 2>/dev/null || echo unknown)"}
	JSON
	if [ $rc != 0 ]; then
		failed+=("$id")
		note "boot $id FAILED (exit $rc): $out/runs/$id/serial.log"
	fi
}

for r in $(seq "$ROUNDS"); do
	for v in "${variants[@]}"; do
		one_boot "$r" "$v" "$CPUS" main
	done
	[ "$r" -le "$SCALING_ROUNDS" ] || continue
	for c in $SCALING_CPUS; do
		for v in "${variants[@]}"; do
			[[ " $SCALING_VARIANTS " == *" ${v%%:*} "* ]] || continue
			one_boot "$r" "$v" "$c" scaling
		done
	done
done

accels=$(cat "$out"/runs/*/accel 2>/dev/null | sort -u | tr '\n' ' ')
cat >"$out/meta.json" <<JSON
{
  "date": $(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)"),
  "host": $(json_str "$host"),
  "host_cpu": $(json_str "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"),
  "host_cores": $(nproc),
  "host_mem_kb": $(awk '/^MemTotal/ { print $2 }' /proc/meminfo),
  "accel": $(json_str "${accels% }"),
  "qemu": $(json_str "$(qemu-system-x86_64 --version | head -1)"),
  "vcpus": $CPUS,
  "preempt": "$PREEMPT",
  "guest_mem_mb": $MEM,
  "rounds": $ROUNDS,
  "quick": $([ "$QUICK" = 1 ] && echo true || echo false),
  "variants": $(json_str "$(printf '%s ' "${variants[@]}")"),
  "scaling_cpus": $(json_str "$SCALING_CPUS"),
  "scaling_groups": $SCALING_GROUPS,
  "scaling_rounds": $srounds,
  "scaling_variants": $(json_str "$SCALING_VARIANTS"),
  "sizes": $(json_str "${sizes# }"),
  "git": $(json_str "$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)"),
  "elapsed_s": $(($(date +%s) - t_start)),
  "failed_boots": $(json_str "${failed[*]:-}")
}
JSON

progress "aggregating and plotting"
python3 "$BENCH_DIR/aggregate.py" "$out"
python3 "$BENCH_DIR/plot.py" "$out"
note "results in $out (summary.md, plots/), $(fmt_secs $(($(date +%s) - t_start))) in all"
[ ${#failed[@]} = 0 ] || die "${#failed[@]} boot(s) failed: ${failed[*]}"
