#!/bin/bash
# `make bench SUITE=...`: one benchmark suite, VRQ against mainline EEVDF in
# one interleaved run. Builds the kernels, boots them in turn under QEMU with
# the same settings, runs bench/run-workloads.sh in each guest, and writes
# results/<date>-<host>-<suite>[-aa]/:
#   plan.txt       what this run measures (a resumed run must match it)
#   meta.json      host CPU and cores, QEMU accelerator, vCPUs, variants, git
#   configs/       the .config of each kernel
#   runs/<id>/     one boot: run.json, serial.log, data/ (samples, meta.json)
#   samples.json summary.json summary.md plots/*.png   (aggregate.py, plot.py)
#
# Suites (docs/benchmarks.md gives their sizes and times):
#   throughput  compile, hackbench and ctxswitch at CPUS vCPUs
#   latency     cyclictest, frameprobe, sleeper, spinyield and mpv at CPUS vCPUs
#   scaling     hackbench alone at each vCPU count of SCALING_CPUS
# A round boots every variant once (every vCPU count for scaling); the
# variants' order alternates from round to round, so that neither kernel
# always runs first.
#
# usage: run-bench.sh [--out DIR | --resume DIR] [--no-build] [--estimate]
#   --estimate    print the seconds the suite should take and exit
#   --resume DIR  go on with an interrupted run: boots that finished are kept,
#                 the others are run; the plan must be the same
# env:   SUITE (throughput)  QUICK=1 (seconds-long sizes, 1 round)
#        ROUNDS (4)  CPUS (2)  PREEMPT (full)  MEM (3072 MB)
#        SCHEDS         kernels to compare (default "vrq cfs"); with
#                       cfs-autogroup too (EEVDF with autogroup, as Debian
#                       ships it), summary-vrq-vs-cfs-autogroup.md compares
#                       VRQ with it
#        CFS_FEATS      sched_feat bits switched on for an extra "cfs-feat"
#                       variant of the CFS kernel; "seed" is the seed fixes
#                       of docs/cfs-fixes.md (empty: no such variant)
#        WORKLOADS      only these workloads of the suite (a partial run)
#        VRQ_ALT        sysctls (kernel.NAME=VALUE ...) for an extra "vrq-alt"
#                       variant of the VRQ kernel: a design choice that has
#                       a sysctl is measured against the default in one run
#                       (aggregate.py --base vrq-alt --new vrq)
#        AA=1           the CFS kernel once more, as the variant "cfs-aa":
#                       cfs-aa against cfs is the instrument's noise floor
#                       (an A/A run: SCHEDS=cfs AA=1)
#        SCALING_CPUS (1 2 4)  SCALING_GROUPS (4)
#        SCALING_MODES (process-pipe thread-socket)
#        workload sizes (COMPILE_UNITS, HB_LOOPS, CT_SECS ... see SIZE_VARS
#        and each bench/wl-*.sh) are passed on to the guest and recorded
#        BOOT_TIMEOUT   seconds per boot
#        ICOUNT=SHIFT   the icount instrument (scripts/boot-guest.sh): guest
#                       time counts guest instructions, not host speed
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out= build=1 resume=0 estimate=0
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--resume) out=$2; resume=1; shift 2 ;;
	--no-build) build=0; shift ;;
	--estimate) estimate=1; shift ;;
	*) die "run-bench.sh: unknown argument '$1'" ;;
	esac
done

SUITE=${SUITE:-throughput}
case "$SUITE" in
throughput) workloads="compile hackbench ctxswitch" kind=main ;;
latency) workloads="cyclictest frameprobe sleeper spinyield mpv" kind=main ;;
scaling) workloads="hackbench" kind=scaling ;;
*) die "unknown SUITE='$SUITE' (valid: $BENCH_SUITES)" ;;
esac
# WORKLOADS: a part of the suite only, for a quick look at one design
# change; the plan records it, and it is not a full run of the suite.
if [ -n "${WORKLOADS:-}" ]; then
	for w in $WORKLOADS; do
		[[ " $workloads " == *" $w "* ]] || die "WORKLOADS: '$w' is not in suite $SUITE ($workloads)"
	done
	workloads=$WORKLOADS
fi
ROUNDS=${ROUNDS:-$(quick 1 4)}
CPUS=${CPUS:-2}
AA=${AA:-0}
export PREEMPT=${PREEMPT:-full} MEM=${MEM:-3072}
SCHEDS=${SCHEDS:-vrq cfs}
CFS_FEATS=${CFS_FEATS:-}
VRQ_ALT=${VRQ_ALT:-}
for f in $VRQ_ALT; do
	[[ $f =~ ^[a-z_]+(\.[a-z0-9_]+)+=-?[0-9]+$ ]] || die "VRQ_ALT wants sysctls as kernel.NAME=NUMBER, not '$f'"
done
[ "$CFS_FEATS" != seed ] || CFS_FEATS=$SEED_FEATS
SCALING_CPUS=${SCALING_CPUS:-$(quick "1 2" "1 2 4")}
SCALING_GROUPS=${SCALING_GROUPS:-4}
SCALING_MODES=${SCALING_MODES:-process-pipe thread-socket}
case "$ROUNDS" in '' | *[!0-9]* | 0) die "ROUNDS must be a positive number, not '$ROUNDS'" ;; esac
case "$AA" in 0 | 1) ;; *) die "AA must be 0 or 1, not '$AA'" ;; esac
export ICOUNT=${ICOUNT:-}
check_icount "$ICOUNT"
for c in $CPUS $SCALING_CPUS; do
	case "$c" in '' | *[!0-9]* | 0) die "vCPU counts must be positive numbers, not '$c'" ;; esac
done
# Workload sizes a user may override; set ones go to every guest.
SIZE_VARS="COMPILE_UNITS LOAD_UNITS BENCH_FUNCS COMPILE_PCTS COMPILE_POLICIES
COMPILE_REPS HB_GROUPS HB_LOOPS HB_REPS HB_MODES CS_LOOPS CS_REPS CT_LOADS
CT_SECS FP_LOADS FP_SECS SL_HOGS SL_SECS SY_WORK_MS SY_REPS MPV_LOADS MPV_WARMUP CLIP_SECS"
sizes=
for v in $SIZE_VARS; do
	[ -z "${!v:-}" ] || sizes+=" $v='${!v}'"
done
sizes=${sizes# }
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$(quick 900 7200)}
for s in $SCHEDS; do check_sched "$s"; done
require qemu-system-x86_64 gnuplot python3

# variants: "name:sched:feats" (feats with commas for spaces); base and new
# are what aggregate.py compares (new / base)
variants=()
for s in $SCHEDS; do variants+=("$s:$s:"); done
base=cfs new=vrq
if [[ " $SCHEDS " != *" cfs "* ]]; then
	[ "$AA" = 0 ] && [ -z "$CFS_FEATS" ] || die "AA=1 and CFS_FEATS need the cfs kernel in SCHEDS"
	base=${SCHEDS%% *}
fi
[ -z "$CFS_FEATS" ] || variants+=("cfs-feat:cfs:$(echo $CFS_FEATS | tr ' ' ,)")
if [ -n "$VRQ_ALT" ]; then
	[[ " $SCHEDS " == *" vrq "* ]] || die "VRQ_ALT needs the vrq kernel in SCHEDS"
	variants+=("vrq-alt:vrq:$(echo $VRQ_ALT | tr ' ' ,)")
	# without cfs, VRQ is compared with its own variant
	[ "$base" != "$new" ] || base=vrq-alt
fi
if [ "$AA" = 1 ]; then
	variants+=("cfs-aa:cfs:")
	[[ " $SCHEDS " == *" vrq "* ]] || new=cfs-aa
fi
[ ${#variants[@]} -ge 2 ] || die "one variant (${variants[*]}) has nothing to compare with: SCHEDS=\"vrq cfs\" or AA=1"
cpus_list=$CPUS
[ "$SUITE" != scaling ] || cpus_list=$SCALING_CPUS

# The boots of the run, in order: "ROUND VARIANT CPUS".
boots=()
for r in $(seq "$ROUNDS"); do
	order=("${variants[@]}")
	if [ $((r % 2)) = 0 ]; then
		order=()
		for ((i = ${#variants[@]} - 1; i >= 0; i--)); do order+=("${variants[i]}"); done
	fi
	for c in $cpus_list; do
		for v in "${order[@]}"; do boots+=("$r $v $c"); done
	done
done
nboots=${#boots[@]}
if [ $estimate = 1 ]; then
	echo $((nboots * $(suite_boot_secs "$SUITE")))
	exit 0
fi

host=$(hostname -s 2>/dev/null || hostname)
out=${out:-$REPO/results/$(date +%Y%m%d-%H%M)-$host-$SUITE$([ "$AA" = 1 ] && echo -aa)}
plan="suite=$SUITE workloads=$workloads rounds=$ROUNDS cpus=$cpus_list preempt=$PREEMPT mem=$MEM quick=$QUICK
variants=${variants[*]}
sizes=$sizes
scaling=$SCALING_GROUPS:$SCALING_MODES"
[ -z "$ICOUNT" ] || plan+=" icount=$ICOUNT"
if [ $resume = 1 ]; then
	[ -f "$out/plan.txt" ] || die "--resume $out: no plan.txt there (not a run-bench.sh output)"
	[ "$(cat "$out/plan.txt")" = "$plan" ] || {
		diff <(cat "$out/plan.txt") <(echo "$plan") >&2 || true
		die "--resume $out: that run had another plan (above: < the run's, > this call's); use the same variables"
	}
else
	[ ! -e "$out/plan.txt" ] || die "$out already holds a run: use --resume $out (make bench RESUME=$out)"
fi
mkdir -p "$out/runs" "$out/configs"
out=$(cd "$out" && pwd)
echo "$plan" >"$out/plan.txt"

nsched=$(echo $SCHEDS | wc -w)
total=$((build * nsched + 1 + nboots + 1))
note "bench suite $SUITE: $nboots boots (${#variants[@]} variants x $ROUNDS rounds x vCPUs $cpus_list)," \
	"about $(fmt_secs $((nboots * $(suite_boot_secs "$SUITE")))) at the default sizes on 2 host cores"
step=0 t_start=$(date +%s) boots_done=0 boots_kept=0 boot_secs=0
# progress WHAT: "[step/total] +elapsed ETA what"; the ETA counts the boots
# still to run at the mean time of the boots done so far (before the
# first, the suite's estimate).
progress() {
	local per left
	step=$((step + 1))
	per=$(suite_boot_secs "$SUITE")
	[ $boots_done = 0 ] || per=$((boot_secs / boots_done))
	left=$((nboots - boots_done - boots_kept))
	note "[$step/$total] +$(fmt_secs $(($(date +%s) - t_start))) ETA $(fmt_secs $((left * per))) $*"
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

# write_meta COMPLETE: meta.json, rewritten at the start and the end.
write_meta() {
	local accels
	accels=$(cat "$out"/runs/*/accel 2>/dev/null | sort -u | tr '\n' ' ' || true)
	cat >"$out/meta.json" <<-JSON
		{
		  "date": $(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)"),
		  "suite": "$SUITE",
		  "workloads": $(json_str "$workloads"),
		  "complete": $1,
		  "host": $(json_str "$host"),
		  "host_cpu": $(json_str "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"),
		  "host_cores": $(nproc),
		  "host_mem_kb": $(awk '/^MemTotal/ { print $2 }' /proc/meminfo),
		  "accel": $(json_str "${accels% }"),
		  "qemu": $(json_str "$(qemu-system-x86_64 --version | head -1)"),
		  "vcpus": $(json_str "$cpus_list"),
		  "preempt": "$PREEMPT",
		  "guest_mem_mb": $MEM,
		  "rounds": $ROUNDS,
		  "quick": $([ "$QUICK" = 1 ] && echo true || echo false),
		  "variants": $(json_str "${variants[*]}"),
		  "base": "$base",
		  "new": "$new",
		  "aa": $([ "$AA" = 1 ] && echo true || echo false),
		  "scaling_cpus": $(json_str "$SCALING_CPUS"),
		  "scaling_groups": $SCALING_GROUPS,
		  "sizes": $(json_str "$sizes"),
		  "git": $(json_str "$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)"),
		  "elapsed_s": $(($(date +%s) - t_start)),
		  "failed_boots": $(json_str "${failed[*]:-}")
		}
	JSON
}
failed=()
write_meta false

# one_boot ROUND VARIANT CPUS
one_boot() {
	local r=$1 v=$2 cpus=$3 name sched feats id cmd rc=0 t0
	IFS=: read -r name sched feats <<<"$v"
	feats=${feats//,/ }
	id=r$r-$name-${cpus}cpu-$SUITE
	if [ -f "$out/runs/$id/run.json" ] && grep -q '"exit": 0,' "$out/runs/$id/run.json"; then
		boots_kept=$((boots_kept + 1))
		progress "round $r/$ROUNDS $name at $cpus vCPUs: done in an earlier call, kept"
		return 0
	fi
	progress "round $r/$ROUNDS $name: $SUITE ($workloads) at $cpus vCPUs on $(nproc) host cores${feats:+ (sched_feat: $feats)}"
	cmd="QUICK=$QUICK $sizes"
	[ "$SUITE" != scaling ] || cmd+=" HB_GROUPS='$SCALING_GROUPS' HB_MODES='$SCALING_MODES'"
	cmd+=" $BENCH_DIR/run-workloads.sh --out \$RESULTS/data --label $name --only '$workloads'"
	[ -z "$feats" ] || cmd+=" --feats '$feats'"
	t0=$(date +%s)
	rm -rf "$out/runs/$id"
	boot_workloads "$out/runs/$id" "$(kernel_build_dir "$sched" 0)/arch/x86/boot/bzImage" \
		"$cpus" "$BOOT_TIMEOUT" "$cmd" || rc=$?
	cat >"$out/runs/$id/run.json" <<-JSON
		{"round": $r, "variant": "$name", "sched": "$sched", "feats": "$feats", "cpus": $cpus,
		 "host_cores": $(nproc), "kind": "$kind", "suite": "$SUITE", "exit": $rc,
		 "seconds": $(($(date +%s) - t0)),
		 "accel": "$(cat "$out/runs/$id/accel" 2>/dev/null || echo unknown)"}
	JSON
	boots_done=$((boots_done + 1))
	boot_secs=$((boot_secs + $(date +%s) - t0))
	if [ $rc != 0 ]; then
		failed+=("$id")
		note "boot $id FAILED (exit $rc): $out/runs/$id/serial.log"
	fi
}

for b in "${boots[@]}"; do
	# shellcheck disable=SC2086
	one_boot $b
done
write_meta true

progress "aggregating and plotting"
python3 "$BENCH_DIR/aggregate.py" "$out"
# EEVDF as Debian ships it, beside plain EEVDF: VRQ against it as well
if [[ " $SCHEDS " == *" cfs-autogroup "* && $base != cfs-autogroup && $new != cfs-autogroup ]]; then
	python3 "$BENCH_DIR/aggregate.py" --base cfs-autogroup --new "$new" --tag "$new-vs-cfs-autogroup" "$out"
fi
python3 "$BENCH_DIR/plot.py" "$out"
note "suite $SUITE: results in $out (summary.md, plots/), $(fmt_secs $(($(date +%s) - t_start))) in all"
[ ${#failed[@]} = 0 ] || die "${#failed[@]} boot(s) failed: ${failed[*]}"
