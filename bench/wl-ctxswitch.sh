#!/bin/bash
# Context-switch cost: `perf bench sched pipe` (two tasks ping-ponging over
# pipes, 2 switches a round trip) if perf runs, else stress-ng --switch.
# Measured free to migrate and pinned to one CPU. Sample: ns per switch,
# and its figures (lib.sh fig_emit) per switch.
#
# usage: wl-ctxswitch.sh OUTDIR
# env:   QUICK=1  CS_LOOPS  CS_REPS  CS_TOOL=perf|stress-ng
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init ctxswitch "${1:-}"

LOOPS=${CS_LOOPS:-$(quick 1000 20000)}
REPS=${CS_REPS:-$(quick 1 2)}
tool=${CS_TOOL:-}
FIG_OP=switch
if [ -z "$tool" ]; then
	if perf bench sched pipe -l 100 >/dev/null 2>&1; then tool=perf; else tool=stress-ng; fi
fi

# per_switch_ns PIN: one measurement; PIN is "" or a taskset prefix.
per_switch_ns() {
	local out
	if [ $tool = perf ]; then
		out=$($1 perf bench sched pipe -l "$LOOPS" 2>&1) || die "perf bench failed: $out"
		echo "$out" | awk '/usecs\/op/ { printf "%.1f", $1 * 1000 / 2 }'
	else
		require stress-ng
		out=$($1 stress-ng --switch 1 --switch-ops "$LOOPS" --metrics 2>&1) ||
			die "stress-ng --switch failed: $out"
		echo "$out" | awk '/nanosecs per context switch/ { for (i = 1; i < NF; i++) if ($(i + 1) == "nanosecs") printf "%.1f", $i }'
	fi
}

for rep in $(seq "$REPS"); do
	for pin in free cpu0; do
		prefix=
		[ $pin = cpu0 ] && prefix="taskset -c 0"
		f0=$(fig_snapshot)
		ns=$(per_switch_ns "$prefix")
		f1=$(fig_snapshot)
		p=(tool="$tool" pin="$pin" loops="$LOOPS")
		emit ns_per_switch "$ns" ns lower "${p[@]}"
		fig_emit "$f0" "$f1" $((2 * LOOPS)) "${p[@]}"
		blog "ctxswitch: $tool $pin: $ns ns/switch (rep $rep/$REPS)"
	done
done
