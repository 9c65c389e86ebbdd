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

# cpu_snapshot: "IDLE TOTAL" jiffies from /proc/stat (idle + iowait over
# user..steal; guest time is already inside user).
cpu_snapshot() {
	awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print $5 + $6, t; exit }' /proc/stat
}

# idle_pct "SNAPSHOT_BEFORE" "SNAPSHOT_AFTER": idle share of the interval, %.
idle_pct() {
	echo "$1 $2" | awk '{ d = $4 - $2; printf "%.2f", (d > 0 ? 100 * ($3 - $1) / d : 0) }'
}

# Sizes of the generated C project (bench/gen-project.py): translation
# units of the measured build and of the background load, functions a unit.
COMPILE_UNITS=${COMPILE_UNITS:-$(quick 8 300)}
LOAD_UNITS=${LOAD_UNITS:-$(quick 16 120)}
BENCH_FUNCS=${BENCH_FUNCS:-$(quick 3 8)}

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

# load_start KIND PCT: a background compile looping forever at PCT % of the
# CPUs, run as KIND (see policy_cmd; "none" starts nothing). It runs in its
# own session so load_stop can end the whole tree.
load_start() {
	local kind=$1 jobs dir
	load_stop
	[ "$kind" = none ] && return 0
	jobs=$(pct_jobs "$2")
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
	quick "${CLIP_SECS_QUICK:-4}" "${CLIP_SECS:-60}"
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
