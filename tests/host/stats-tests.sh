# Sourced by run.sh: bench/stats.py and bench/aggregate.py on synthetic
# results dirs (issue 16): a 20 % difference is resolved, equal kernels are
# not, the intervals hold their 95 % over many simulated A/A runs, the A/A
# check passes and fails as it should, the intervals are deterministic, --check still works, and the committed old results still
# aggregate.
AGG="$REPO/bench/aggregate.py"
ST=$(mktemp -d)

# mkrun DIR BASE NEW SHIFT NOISE ROUNDS WORKLOADS SEED: a run-bench.sh-like
# results dir; NEW is SHIFT (0.2: 20 %) slower than BASE on every measured
# metric and SHIFT*10 points higher on fig_idle_pct; every value has
# Gaussian noise of relative sd NOISE. WORKLOADS: comma-separated or "all".
mkrun() {
	python3 - "$@" <<-'EOF'
	import json, os, random, sys
	d, base, new, shift, noise, rounds, wls, seed = sys.argv[1:]
	shift, noise, rounds, rng = float(shift), float(noise), int(rounds), random.Random(int(seed))
	cells = {  # workload: (suite, [(metric, unit, base value, params)])
	    "compile": ("throughput", [(m, u, x, {"policy": p, "load_pct": l, "jobs": l // 50})
	                               for m, u, x in (("wall_s", "s", 100.0), ("fig_idle_pct", "%", 10.0),
	                                               ("fig_ctxsw_per_op", "n", 50.0), ("fig_vrq_moved_per_op", "n", 3.0))
	                               for p in ("normal", "batch", "idle") for l in (100, 200, 300)]),
	    "hackbench": ("throughput", [("time_s", "s", 1.0, {"mode": m, "groups": g, "loops": 40})
	                                 for m in ("process-pipe", "thread-socket") for g in (1, 2)]),
	    "ctxswitch": ("throughput", [("ns_per_switch", "ns", 5000.0, {"pin": p}) for p in ("free", "cpu0")]),
	    "cyclictest": ("latency", [("lat_p99_us", "us", 1000.0, {"load": l, "load_pct": 300})
	                               for l in ("normal", "nice19")]),
	    "mpv": ("latency", [("frame_drops", "frames", 5.0, {"load": "nice19", "load_pct": 300})]),
	}
	wls = list(cells) if wls == "all" else wls.split(",")
	os.makedirs(d)
	json.dump({"rounds": rounds, **({"base": base, "new": new} if (base, new) != ("cfs", "vrq") else {})},
	          open(os.path.join(d, "meta.json"), "w"))
	for r in range(1, rounds + 1):
	    for v in (new, base):
	        for suite in ("throughput", "latency"):
	            run = os.path.join(d, "runs", "r%d-%s-2cpu-%s" % (r, v, suite))
	            os.makedirs(os.path.join(run, "data"))
	            json.dump({"round": r, "variant": v, "kind": "main", "suite": suite, "cpus": 2},
	                      open(os.path.join(run, "run.json"), "w"))
	            json.dump({"label": v, "cpus": 2}, open(os.path.join(run, "data", "meta.json"), "w"))
	            with open(os.path.join(run, "data", "status.txt"), "w") as st:
	                for w in wls:
	                    if cells[w][0] != suite:
	                        continue
	                    st.write("%s ok 10\n" % w)
	                    with open(os.path.join(run, "data", w + ".jsonl"), "w") as f:
	                        for metric, unit, x, par in cells[w][1]:
	                            if metric.startswith("fig_vrq_") and v != "vrq":
	                                continue
	                            x *= 1 + rng.gauss(0, noise)
	                            if v == new:
	                                x = x + 10 * shift if metric == "fig_idle_pct" else x * (1 + shift)
	                            if unit == "frames":
	                                x = round(x)
	                            f.write(json.dumps({"workload": w, "metric": metric, "value": x, "unit": unit,
	                                                "better": "lower", "params": par}) + "\n")
	EOF
}

# summary_is DIR PYEXPR: PYEXPR holds of DIR/summary.json (s); goal(TITLE)
# and cell(WORKLOAD, METRIC, PARAMS) pick a goal and a row.
summary_is() {
	python3 - "$@" <<-'EOF'
	import json, sys
	s = json.load(open(sys.argv[1] + "/summary.json"))
	goal = lambda t: next(g for g in s["goals"] if g["goal"] == t)
	cell = lambda w, m, p: next(r for r in s["rows"] if (r["workload"], r["metric"], r["params"]) == (w, m, p))
	ok = eval("(%s)" % sys.argv[2])
	print("%s: %s" % (sys.argv[2], ok))
	sys.exit(0 if ok else 1)
	EOF
}

# exits WANT CMD...: CMD exits with exactly WANT (check tells only 0 from non-0).
exits() {
	local want=$1 got=0
	shift
	"$@" || got=$?
	echo "exit $got, wanted $want"
	[ "$got" = "$want" ]
}

normal100="jobs=2 load_pct=100 policy=normal"
mkrun "$ST/slow" cfs vrq 0.20 0.02 4 all 1
check "aggregate: 20 % slower over 4 rounds" 0 python3 "$AGG" "$ST/slow"
check "aggregate: its compile cell's interval excludes 1.0" 0 summary_is "$ST/slow" \
	'cell("compile", "wall_s", "'"$normal100"'")["resolved"] and 1.1 < cell("compile", "wall_s", "'"$normal100"'")["lo"]'
check "aggregate: every measured cell is resolved" 0 summary_is "$ST/slow" \
	'all(r["resolved"] for r in s["rows"] if not r["figure"] and r["workload"] != "mpv")'
check "aggregate: the compile goal is missed" 0 summary_is "$ST/slow" 'goal("compile time")["status"] == "missed"'
check "aggregate: the hackbench goal is missed" 0 summary_is "$ST/slow" 'goal("hackbench")["status"] == "missed"'
check "aggregate: the idle-share goal is missed per policy (+2 points)" 0 summary_is "$ST/slow" \
	'[goal("idle share at 300 %, policy " + p)["status"] for p in ("batch", "idle", "normal")] == ["missed"] * 3'
check "aggregate: rows carry suite, lo, hi, resolved, n_rounds" 0 summary_is "$ST/slow" \
	'{(r["suite"], r["n_rounds"]) for r in s["rows"] if not r["figure"]} == {("throughput", 4), ("latency", 4)}'
check "aggregate: vrq-only figures have a median and no ratio" 0 summary_is "$ST/slow" \
	'all(r["figure"] and list(r["stats"]) == ["vrq"] and r["ratio"] is None for r in s["rows"] if "vrq_" in r["metric"])'
check "summary.md: a ratio with its interval and mark" 0 \
	grep -qE '^\| compile \| '"$normal100"' \| wall_s .*\| 1\.[0-9]{3} \[1\.[0-9]{3}, 1\.[0-9]{3}\] \* \|$' "$ST/slow/summary.md"
check "summary.md: tables by suite, figures apart" 0 bash -c 'grep "^##" "$1" | tr "\n" "/" |
	grep -qx "## Method/## Goals/## Throughput suite/### Figures (throughput)/## Latency suite/"' _ "$ST/slow/summary.md"
check "summary.md: the method and the rounds per variant" 0 \
	grep -q "95 % interval is the ratio times exp(+-t(n-1) sd/sqrt(n)).*Rounds per variant: vrq 4, cfs 4\." \
	<(tr '\n' ' ' <"$ST/slow/summary.md")
check "aggregate --base/--new: vrq as the base, the compile goal is met" 0 bash -c \
	'python3 "$1" --base vrq --new cfs "$2" &&
	 grep -q "^| compile time | compile wall_s: geomean of 9 cfs/vrq ratios .* | met |$" "$2/summary.md"' \
	_ "$AGG" "$ST/slow"

check "aggregate --tag: a second comparison beside summary.md, which stays" 0 bash -c \
	'cp "$2/summary.md" "$2/keep.md" &&
	 python3 "$1" --base vrq --new cfs --tag cfs-vs-vrq "$2" && cmp "$2/summary.md" "$2/keep.md" &&
	 grep -q "^| compile time | compile wall_s: geomean of 9 cfs/vrq ratios .* | met |$" "$2/summary-cfs-vs-vrq.md" &&
	 test -s "$2/summary-cfs-vs-vrq.json"' \
	_ "$AGG" "$ST/slow"
check "aggregate rejects a --tag with a slash" 1 python3 "$AGG" --tag ../x "$ST/slow"
check "aggregate rejects a base with no samples" 1 python3 "$AGG" --base cfs-autogroup "$ST/slow"
check "the error names the variants there" 0 grep -q "no samples of cfs-autogroup in .* (variants there: " "$OUT"

mkrun "$ST/same" cfs vrq 0 0.02 4 all 2
check "aggregate: both variants from one distribution" 0 python3 "$AGG" "$ST/same"
check "aggregate: its compile cell's interval holds 1.0: not resolved" 0 summary_is "$ST/same" \
	'cell("compile", "wall_s", "'"$normal100"'")["lo"] < 1 < cell("compile", "wall_s", "'"$normal100"'")["hi"]
	 and not cell("compile", "wall_s", "'"$normal100"'")["resolved"]'
check "aggregate: the compile goal's interval holds 1.0: unresolved" 0 summary_is "$ST/same" \
	'goal("compile time")["lo"] < 1 < goal("compile time")["hi"] and goal("compile time")["status"] == "unresolved"'
check "aggregate: a 0.8 target for ratios near 1 is missed" 0 summary_is "$ST/same" \
	'goal("wakeup latency p99")["status"] == "missed"'
check "aggregate: a near-0 idle difference holds 0 and does not miss a 0.5-point target" 0 summary_is "$ST/same" \
	'goal("idle share at 300 %, policy normal")["lo"] < 0 < goal("idle share at 300 %, policy normal")["hi"]
	 and goal("idle share at 300 %, policy normal")["status"] != "missed"'

mkrun "$ST/fast" cfs vrq -0.10 0.02 4 compile,mpv 3
check "aggregate: 10 % faster, the compile goal is met" 0 bash -c \
	'python3 "$1" "$2" && grep -q "^| compile time | .* | 0\.9[0-9]* \[0\.[0-9]*, 0\.[0-9]*\] \* | 4 | met |$" "$2/summary.md"' \
	_ "$AGG" "$ST/fast"
check "aggregate: goals without cells are not in this run" 0 summary_is "$ST/fast" \
	'goal("hackbench")["status"] == goal("context switch")["status"] == "not in this run"'
check "aggregate: mpv frame drops compare max with max" 0 summary_is "$ST/fast" \
	'goal("mpv frame drops")["status"] == "met" and goal("mpv frame drops")["value"] <= goal("mpv frame drops")["threshold"]'

cp -r "$ST/slow" "$ST/slow2"
check "the intervals are deterministic: the same summary twice" 0 bash -c \
	'python3 "$1" "$2" && python3 "$1" "$3" && cmp "$2/summary.json" "$3/summary.json" && cmp "$2/summary.md" "$3/summary.md"' \
	_ "$AGG" "$ST/slow" "$ST/slow2"
check "stats.py: ratio_ci is deterministic and paired" 0 python3 -c '
import sys; sys.path.insert(0, sys.argv[1]); import stats
b = {1: [10.0], 2: [12.0], 3: [9.0], 4: [11.0]}
n = {r: [x[0] * 1.03] for r, x in b.items()}  # 3 % slower in every round
a, c = stats.ratio_ci(b, n), stats.ratio_ci(b, n)
print(a)
assert a == c and abs(a["lo"] - 1.03) < 1e-9 and abs(a["hi"] - 1.03) < 1e-9 and a["n_rounds"] == 4
assert stats.resolved(a) and stats.goal_status(a, "<=", 1.0) == "missed" and stats.goal_status(a, ">=", 1.0) == "met"
one = stats.ratio_ci({1: [1.0]}, {1: [2.0], 2: [2.0]})
assert one["point"] == 2.0 and one["lo"] is None and stats.goal_status(one, "<=", 1.0) == "unresolved"
' "$REPO/bench"

# Coverage: over 400 simulated runs of 4 rounds with 3 % noise, an A/A
# cell's interval must exclude 1.0 at most 8 % of the time (95 % nominal;
# the percentile bootstrap tried first did so 10-12 % of the time), and a
# 9-cell geomean's too; a 20 % shift must be resolved nearly always.
check "stats.py: intervals keep their 95 % in simulated A/A runs" 0 python3 -c '
import random, sys; sys.path.insert(0, sys.argv[1]); import stats
rng = random.Random(1)
def run(shift, cells):
	return [({r: [rng.gauss(1, 0.03)] for r in range(4)},
		 {r: [rng.gauss(1 + shift, 0.03)] for r in range(4)}) for _ in range(cells)]
cell = sum(stats.resolved(stats.ratio_ci(*run(0, 1)[0])) for _ in range(400)) / 400
goal = sum(stats.resolved(stats.geomean_ci(run(0, 9))) for _ in range(400)) / 400
hit = sum(stats.resolved(stats.ratio_ci(*run(0.2, 1)[0])) for _ in range(400)) / 400
print("A/A excluded 1.0: cell %.3f, 9-cell goal %.3f; 20 %% shift resolved %.3f" % (cell, goal, hit))
assert cell <= 0.08 and goal <= 0.08 and hit >= 0.95
' "$REPO/bench"
mkrun "$ST/aa" cfs cfs-aa 0 0.01 4 all 5
check "aa-check: passes on a tight A/A run" 0 python3 "$AGG" --aa-check "$ST/aa"
check "aa-check: prints each cell's interval and half-width" 0 grep -qE "^compile +wall_s +$normal100 +[01]\.[0-9]{3} \[" "$OUT"
check "aggregate: base and new from meta.json" 0 bash -c 'python3 "$1" "$2" && grep -q "geomean of 9 cfs-aa/cfs ratios" "$2/summary.md"' \
	_ "$AGG" "$ST/aa"
check "aa-check: fails (exit 1) with a compile half-width limit of 0.001" 0 exits 1 python3 "$AGG" --aa-check "$ST/aa" --compile-hw 0.001
check "aa-check: the message names the half-width" 0 grep -q "aa-check: FAILED.*compile wall_s: half-width above 0.001" "$OUT"
mkrun "$ST/aa-shift" cfs cfs-aa 0.10 0.01 4 all 6
check "aa-check: fails (exit 1) on a 10 % shift" 0 exits 1 python3 "$AGG" --aa-check "$ST/aa-shift"
check "aa-check: the message says the interval excludes 1.0" 0 grep -q "aa-check: FAILED.*compile wall_s: the interval excludes 1.0" "$OUT"
mkrun "$ST/aa-missing" cfs cfs-aa 0 0.01 4 ctxswitch,cyclictest 7
check "aa-check: exits 2 without compile and hackbench cells" 0 exits 2 python3 "$AGG" --aa-check "$ST/aa-missing"
mkrun "$ST/aa-1round" cfs cfs-aa 0 0.01 1 all 8
check "aa-check: exits 2 with 1 round" 0 exits 2 python3 "$AGG" --aa-check "$ST/aa-1round"

data="$ST/slow/runs/r1-vrq-2cpu-throughput/data"
check "--check passes on a good data dir" 0 python3 "$AGG" --check "$data"
sed -i 's/^hackbench ok/hackbench fail/' "$data/status.txt"
check "--check fails on a failed workload" 1 python3 "$AGG" --check "$data"
sed -i 's/^hackbench fail/hackbench ok/; s/"value": [0-9.e-]*/"value": "x"/' "$data/status.txt" "$data/ctxswitch.jsonl"
check "--check fails on a non-numeric sample" 1 python3 "$AGG" --check "$data"

# The committed 2026-12-04 run (3 rounds, no suite tag, samples.json only), on a copy.
cp -r "$REPO/docs/bench/2026-12-04" "$ST/old"
check "aggregate: the committed 2026-12-04 results still summarise" 0 python3 "$AGG" "$ST/old"
check "aggregate: old samples fall in suite all, 3 rounds" 0 summary_is "$ST/old" \
	's["rounds"] == {"vrq": 3, "cfs": 3, "cfs-feat": 3} and {r["suite"] for r in s["rows"]} == {"all", "scaling"}'
if command -v gnuplot >/dev/null; then
	check "plot.py: the old results plot, ratios.png included" 0 bash -c \
		'python3 "$1/bench/plot.py" "$2" && test -s "$2/plots/ratios.png"' _ "$REPO" "$ST/old"
	check "plot.py: a run without most workloads plots" 0 bash -c \
		'python3 "$1/bench/plot.py" "$2" && test -s "$2/plots/ratios.png" && ! test -e "$2/plots/hackbench.png"' \
		_ "$REPO" "$ST/fast"
fi
rm -rf "$ST"
