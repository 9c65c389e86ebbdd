# Shared helpers for the benchmark scripts. Source it; do not run it.
# The workload scripts run on whatever kernel is booted (QEMU guest or a
# real machine); everything here works in both.
# shellcheck shell=bash

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=${REPO:-$(cd "$BENCH_DIR/.." && pwd)}
# die, note, BUILD, kernel_build_dir
. "$REPO/scripts/lib.sh"
# Host-built artefacts (the probe binary, the video clip). The guest sees
# them read-only through the 9p root; bench/setup.sh makes them.
BENCH_BUILD=${BENCH_BUILD:-$BUILD/bench}
export QUICK=${QUICK:-0}
NCPU=$(nproc)
export PYTHONDONTWRITEBYTECODE=1

# Progress line; the orchestrator shows these from the guest's console.
blog() {
	printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

# quick QUICK_VALUE FULL_VALUE: the size for the current mode.
quick() {
	if [ "$QUICK" = 1 ]; then echo "$1"; else echo "$2"; fi
}

# pct_jobs PCT: make -j count for PCT % of the online CPUs (at least 1).
pct_jobs() {
	local j=$(((NCPU * $1 + 50) / 100))
	[ $j -ge 1 ] || j=1
	echo $j
}

# policy_cmd KIND: the command prefix that runs a program as KIND.
#   normal  SCHED_NORMAL nice 0      nice19  SCHED_NORMAL nice 19
#   batch   SCHED_BATCH nice 0       idle    SCHED_IDLE
policy_cmd() {
	case "$1" in
	normal) echo "chrt --other 0" ;;
	nice19) echo "nice -n 19 chrt --other 0" ;;
	batch) echo "chrt --batch 0" ;;
	idle) echo "chrt --idle 0" ;;
	*) die "unknown policy '$1' (normal nice19 batch idle)" ;;
	esac
}

# The suites of `make bench` (run-bench.sh SUITE=...).
BENCH_SUITES="throughput latency scaling"
# The seed threads' fair.c fixes (docs/cfs-fixes.md): CFS_FEATS=seed.
SEED_FEATS="WA_SCHED_IDLE_PREV SIB_PULL SIB_KEEP_LAST SIS_SKIP_OVERLOADED SIB_IDLE_CAPACITY"

# suite_boot_secs SUITE: seconds one boot of SUITE takes at the default
# sizes under TCG on the 2-core machine (measured, docs/benchmarks.md); the
# estimates and the ETA before the first boot use it.
suite_boot_secs() {
	case "$1" in
	throughput) echo 440 ;;
	latency) echo 640 ;;
	scaling) echo 150 ;;
	*) echo 300 ;;
	esac
}

# bench_init WORKLOAD OUTDIR: set up a workload script. Samples go to
# OUTDIR/WORKLOAD.jsonl (one JSON object a line); scratch space is
# $BENCH_TMP, removed on exit together with any background load.
bench_init() {
	BENCH_WORKLOAD=$1
	BENCH_OUT=${2:?usage: $(basename "$0") OUTDIR}
	mkdir -p "$BENCH_OUT"
	BENCH_OUT=$(cd "$BENCH_OUT" && pwd)
	BENCH_JSONL=$BENCH_OUT/$BENCH_WORKLOAD.jsonl
	: >"$BENCH_JSONL"
	BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/vrq-bench.XXXXXX")
	LOAD_PID=
	trap 'load_stop; rm -rf "$BENCH_TMP"' EXIT
	trap 'exit 130' INT TERM
}

is_number() {
	[[ $1 =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]
}

# emit METRIC VALUE UNIT BETTER [KEY=VALUE ...]: append one sample.
# BETTER is lower or higher; the KEY=VALUE pairs name the configuration.
emit() {
	local metric=$1 value=$2 unit=$3 better=$4 kv k v params=
	shift 4
	is_number "$value" || die "$BENCH_WORKLOAD: $metric: not a number: '$value'"
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		is_number "$v" || v="\"$v\""
		params+="${params:+, }\"$k\": $v"
	done
	printf '{"workload": "%s", "metric": "%s", "value": %s, "unit": "%s", "better": "%s", "params": {%s}}\n' \
		"$BENCH_WORKLOAD" "$metric" "$value" "$unit" "$better" "$params" >>"$BENCH_JSONL"
}

# now_ns: monotonic-enough wall clock in nanoseconds.
now_ns() {
	date +%s%N
}

# elapsed_s START_NS: seconds since START_NS, 3 decimals.
elapsed_s() {
	awk -v a="$1" -v b="$(now_ns)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

# ---- figures that explain a result, recorded beside every measured run

# fig_snapshot: one line of counters, for fig_emit:
#   NOW_NS RES CAL CTXT IDLE TOTAL [MOVED WAKE_PREEMPT IDLE_KICK TIMEOUT_EXPIRY SYNC_KEPT IDLE_TAKE]
# RES and CAL are the reschedule and function-call IPIs of /proc/interrupts
# summed over the CPUs; CTXT is /proc/stat's context switches; IDLE and TOTAL
# are the idle + iowait and all jiffies of /proc/stat's cpu line (guest time
# is already inside user). The last six, summed over the CPUs, come from
# /proc/vrq_stats and are there only on a VRQ kernel (IDLE_TAKE is 0 on a
# kernel older than that column).
fig_snapshot() {
	local files=(/proc/interrupts /proc/stat)
	[ -r /proc/vrq_stats ] && files+=(/proc/vrq_stats)
	echo "$(now_ns) $(awk '
		FILENAME == "/proc/interrupts" && ($1 == "RES:" || $1 == "CAL:") {
			s = 0
			for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
			ipi[$1] = s
		}
		FILENAME == "/proc/stat" && $1 == "ctxt" { ctxt = $2 }
		FILENAME == "/proc/stat" && $1 == "cpu" {
			for (i = 2; i <= 9; i++) tot += $i
			idle = $5 + $6
		}
		FILENAME == "/proc/vrq_stats" && $1 ~ /^cpu[0-9]/ {
			for (i = 4; i <= 9; i++) q[i] += $i
			vrq = 1
		}
		END {
			printf "%d %d %d %d %d", ipi["RES:"], ipi["CAL:"], ctxt, idle, tot
			if (vrq)
				printf " %d %d %d %d %d %d", q[4], q[5], q[6], q[7], q[8], q[9]
			printf "\n"
		}' "${files[@]}")"
}

# fig_emit "SNAPSHOT_BEFORE" "SNAPSHOT_AFTER" OPS [KEY=VALUE ...]: emit the
# figures of the interval, with the measured sample's KEY=VALUE pairs:
#   fig_res_ipi_per_op fig_cal_ipi_per_op fig_res_ipi_per_s fig_cal_ipi_per_s
#   fig_ctxsw_per_op fig_idle_pct, and on VRQ fig_vrq_{moved,wake_preempt,
#   idle_kick,timeout_expiry,sync_kept,idle_take}_per_op.
# OPS is the number of operations of the run (messages, builds, frames...).
fig_emit() {
	local name value line
	while read -r name value; do
		emit "$name" "$value" "$(fig_unit "$name")" lower "${@:4}"
	done <<<"$(echo "$1 $2 $3" | awk '{
		n = NF / 2 - 0.5; ops = $NF; secs = ($(n + 1) - $1) / 1e9
		if (ops <= 0 || secs <= 0) exit 1
		split("res_ipi cal_ipi ctxsw", nm, " ")
		for (i = 1; i <= 3; i++) {
			d = $(n + 1 + i) - $(1 + i)
			printf "fig_%s_per_op %.6g\n", nm[i], d / ops
			if (i < 3) printf "fig_%s_per_s %.6g\n", nm[i], d / secs
		}
		dt = $(n + 6) - $6
		printf "fig_idle_pct %.2f\n", (dt > 0 ? 100 * ($(n + 5) - $5) / dt : 0)
		if (n == 12) {
			split("moved wake_preempt idle_kick timeout_expiry sync_kept idle_take", vn, " ")
			for (i = 1; i <= 6; i++)
				printf "fig_vrq_%s_per_op %.6g\n", vn[i], ($(n + 6 + i) - $(6 + i)) / ops
		}
	}')"
}

# fig_last METRIC: the value of the workload's last METRIC sample.
fig_last() {
	awk -F'"value": ' -v m="\"metric\": \"$1\"" 'index($0, m) { split($2, v, ","); x = v[1] } END { print x }' "$BENCH_JSONL"
}

# fig_unit METRIC: the unit a figure is shown in.
fig_unit() {
	case "$1" in
	*_per_s) echo "/s" ;;
	fig_idle_pct) echo "%" ;;
	*) echo "/${FIG_OP:-op}" ;;
	esac
}

# Sizes of the generated C project (bench/gen-project.py): translation
# units of the measured build and of the background load, functions a unit.
COMPILE_UNITS=${COMPILE_UNITS:-$(quick 8 64)}
LOAD_UNITS=${LOAD_UNITS:-$(quick 16 120)}
BENCH_FUNCS=${BENCH_FUNCS:-$(quick 3 4)}

# project_src UNITS: where bench/setup.sh keeps a pre-generated project.
project_src() {
	echo "$BENCH_BUILD/project-$1x$BENCH_FUNCS"
}

# gen_project DIR UNITS: a writable copy of the generated project in DIR:
# copied from bench/setup.sh's one (python is slow to start in a TCG guest
# over 9p), else generated here. Reused when DIR already holds one.
gen_project() {
	[ -f "$1/Makefile" ] && return 0
	local src
	src=$(project_src "$2")
	if [ -f "$src/Makefile" ]; then
		mkdir -p "$1" && cp "$src"/* "$1"/
	else
		python3 "$BENCH_DIR/gen-project.py" "$1" "$2" "$BENCH_FUNCS"
	fi
}

# load_spec SPEC DEFAULT_PCT: "KIND PCT" of a load named KIND or KIND@PCT
# (normal@200: a nice 0 compile at 200 % of the CPUs).
load_spec() {
	local kind=${1%@*} pct=$2
	[ "$kind" = "$1" ] || pct=${1##*@}
	case "$kind" in none | hogs) ;; *) policy_cmd "$kind" >/dev/null ;; esac
	[[ $pct =~ ^[1-9][0-9]*$ ]] || die "load '$1': the load must be a percentage, not '$pct'"
	echo "$kind $pct"
}

# load_start KIND PCT: background load at PCT % of the CPUs until
# load_stop: a compile looping forever, run as KIND (see policy_cmd), or
# for KIND "hogs" that many nice 0 CPU-burning loops; "none" starts
# nothing. It runs in its own session (as a build started from a terminal
# would) so load_stop can end the whole tree.
load_start() {
	local kind=$1 jobs dir
	load_stop
	[ "$kind" = none ] && return 0
	jobs=$(pct_jobs "$2")
	if [ "$kind" = hogs ]; then
		setsid bash -c "for i in \$(seq $jobs); do (while :; do :; done) & done; wait" \
			>/dev/null 2>&1 &
		LOAD_PID=$!
		blog "load: $jobs nice 0 CPU hogs ($2 %) started"
		return 0
	fi
	dir=$BENCH_TMP/load-project
	gen_project "$dir" "$LOAD_UNITS"
	# shellcheck disable=SC2046
	setsid $(policy_cmd "$kind") bash -c \
		"while :; do make -s -C '$dir' clean; make -s -C '$dir' -j$jobs >/dev/null 2>&1; done" \
		>/dev/null 2>&1 &
	LOAD_PID=$!
	blog "load: $kind compile at $2 % (make -j$jobs) started"
}

load_stop() {
	[ -n "${LOAD_PID:-}" ] || return 0
	kill -TERM -- "-$LOAD_PID" 2>/dev/null || kill -TERM "$LOAD_PID" 2>/dev/null || true
	wait "$LOAD_PID" 2>/dev/null || true
	LOAD_PID=
}

# hist_stats FILE: "P50 P99 MAX COUNT" from a histogram of "VALUE COUNT..."
# lines (counts of all columns summed; '#' lines ignored).
hist_stats() {
	awk '!/^#/ && NF >= 2 { c = 0; for (i = 2; i <= NF; i++) c += $i; if (c > 0) { v[n] = $1; k[n] = c; tot += c; n++ } }
	END {
		if (tot == 0) { print "nan nan nan 0"; exit }
		for (i = 0; i < n; i++) { s += k[i]
			if (p50 == "" && s >= 0.50 * tot) p50 = v[i]
			if (p99 == "" && s >= 0.99 * tot) p99 = v[i] }
		print p50, p99, v[n - 1], tot }' "$1"
}

# require CMD...: fail with the package hint when a program is missing.
require() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || die "$c not found: run 'make deps' (bench needs it)"
	done
}

# clip_secs / clip_path: the h264 720p30 clip of the current mode (made by
# bench/setup.sh on the host, played by wl-mpv.sh).
clip_secs() {
	quick "${CLIP_SECS_QUICK:-4}" "${CLIP_SECS:-30}"
}
clip_path() {
	echo "$BENCH_BUILD/clip-720p30-$(clip_secs)s.mp4"
}

# json_str TEXT: TEXT as a JSON string literal (one line).
json_str() {
	{ printf '%s' "$1" | tr '\n\t' '  '; echo; } | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/'
}

# ---- host side: booting a kernel to run the workloads (run-bench.sh, smoke.sh)

# boot_workloads OUTDIR KERNEL CPUS TIMEOUT GUEST_CMD: boot KERNEL under QEMU
# (scripts/boot-guest.sh; MEM and PREEMPT from the environment) running
# GUEST_CMD, and echo the guest's "[bench ...]" progress lines while it runs.
# The guest sees OUTDIR as $RESULTS, and the host's BUILD and BENCH_BUILD
# (which may lie outside the repository). Returns boot-guest.sh's status.
boot_workloads() {
	local out=$1 kernel=$2 cpus=$3 timeout=$4 cmd=$5 pid rc=0
	mkdir -p "$out"
	"$REPO/scripts/boot-guest.sh" --kernel "$kernel" --cpus "$cpus" --mem "${MEM:-3072}" \
		--preempt "${PREEMPT:-full}" --timeout "$timeout" --out "$out" -- \
		"BUILD='$BUILD' BENCH_BUILD='$BENCH_BUILD' $cmd" &
	pid=$!
	sleep 1
	tail -n +1 -F --pid="$pid" "$out/serial.log" 2>/dev/null |
		sed -un 's/\r$//; s/^\[bench [0-9:]*\] /      guest: /p' >&2 || true
	wait "$pid" || rc=$?
	return $rc
}
