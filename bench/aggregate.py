#!/usr/bin/env python3
"""Collect the samples of a benchmark run and summarise them.

usage: aggregate.py [--base X --new Y] [--tag TAG] RESULTDIR
           write samples.json, summary.json, summary.md; with --tag, only
           summary-TAG.json and summary-TAG.md (a second comparison of the
           same run, e.g. --base cfs-autogroup --tag vrq-vs-cfs-autogroup)
       aggregate.py --aa-check RESULTDIR [--compile-hw 0.03] [--hackbench-hw 0.05]
           A/A check of the throughput goals' intervals (cfs-aa against
           the base when the run has cfs-aa, else new against base): exit
           0 passed, 1 failed, 2 cells or rounds missing
       aggregate.py --check DATADIR
           smoke check of one run-workloads.sh output: every workload ok
           and with numbers

RESULTDIR is what run-bench.sh writes (runs/<id>/run.json + runs/<id>/data/),
or any tree of run-workloads.sh output directories (a real machine booted
into each kernel in turn): a directory holding meta.json and status.txt is
one run; its variant is run.json's "variant" (one level up) or meta.json's
"label", its round and suite run.json's "round" and "suite". A RESULTDIR
without run directories but with a samples.json (a committed result) is
summarised from that file.

The comparison is new against base: RESULTDIR/meta.json's "base" and "new"
(an A/A run: cfs and cfs-aa), else cfs and vrq; --base/--new override.
Medians, min and max are over every sample of a cell from every round; the
ratio is median(new) / median(base), with a 95 % paired t interval over
the rounds (bench/stats.py); "fig_*" metrics are explanatory figures beside
the measured cells. Python 3 standard library only.
"""
import argparse
import glob
import json
import os
import re
import statistics
import sys

import stats

DEFAULT_BASE, DEFAULT_NEW = "cfs", "vrq"
AA_VARIANT = "cfs-aa"  # the base kernel booted again (run-bench.sh AA=1)
FIGURE = "fig_"
DIFF_METRICS = ("fig_idle_pct",)  # figures compared as new - base, in points
SUITE_ORDER = ("throughput", "latency", "all", "scaling")
SUITE_TITLE = {"all": "Workloads", "throughput": "Throughput suite", "latency": "Latency suite",
               "scaling": "Scaling (hackbench by vCPUs)"}

# The project's targets (issues 16 and 21): (title, workload, metric, how,
# test, threshold[, the params the cells must have]).
# how: "geomean" of the main cells' new/base ratios with its interval over
# the rounds; "max" the largest value over the new variant's runs against the
# largest over the base's (threshold None); "diff300" median(new) -
# median(base) per compile policy at load_pct=300, with its interval.
GOALS = [
    ("compile time", "compile", "wall_s", "geomean", "<=", 1.00),
    ("hackbench", "hackbench", "time_s", "geomean", "<=", 1.00),
    ("hackbench, project goal", "hackbench", "time_s", "geomean", "<=", 0.90),
    ("context switch", "ctxswitch", "ns_per_switch", "geomean", "<=", 1.00),
    ("wakeup latency p99", "cyclictest", "lat_p99_us", "geomean", "<=", 0.80),
    ("cyclictest p99 beside nice 0 load", "cyclictest", "lat_p99_us", "geomean", "<=", 0.80,
     {"load": "normal"}),
    ("sleeper wakeup p99 beside nice 0 hogs", "sleeper", "lat_p99_us", "geomean", "<=", 1.00),
    ("frameprobe p99 lateness beside a nice 0 build at 300 %", "frameprobe", "late_p99_us", "geomean",
     "<=", 1.00, {"load": "normal", "load_pct": 300}),
    ("spin-yield worker stretch", "spinyield", "stretch", "geomean", "<=", 1.00),
    ("mpv frame drops", "mpv", "frame_drops", "max", "<=", None),
    ("idle share at 300 %", "compile", "fig_idle_pct", "diff300", "<=", 0.5),
]
# How a goal's value and interval are shown: (format, the value "resolved" is against).
GOAL_FMT = {"geomean": ("%.3f", 1.0), "max": ("%g", 0.0), "diff300": ("%+.2f", 0.0)}
# --aa-check: the throughput goals' cells and the default half-width limits.
AA_GOALS = (("compile", "wall_s", "compile_hw", 0.03), ("hackbench", "time_s", "hackbench_hw", 0.05))


def read_jsonl(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except ValueError as e:
                    raise SystemExit("%s:%d: bad JSON: %s" % (path, n, e))
    return out


def read_json(path, default=None):
    if default is not None and not os.path.exists(path):
        return default
    with open(path) as f:
        return json.load(f)


def run_dirs(root):
    for meta in sorted(glob.glob(os.path.join(root, "**", "meta.json"), recursive=True)):
        d = os.path.dirname(meta)
        if os.path.exists(os.path.join(d, "status.txt")):
            yield d


def default_suite(kind):
    return "all" if kind == "main" else kind


def load_run(d):
    meta = read_json(os.path.join(d, "meta.json"))
    run = read_json(os.path.join(os.path.dirname(d), "run.json"), {})
    kind = run.get("kind", "main")
    tags = {
        "variant": run.get("variant", meta.get("label")),
        "round": run.get("round", 1),
        "kind": kind,
        "suite": run.get("suite") or default_suite(kind),
        "cpus": run.get("cpus", meta.get("cpus")),
        "run": os.path.relpath(d),
    }
    samples = []
    for p in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
        for s in read_jsonl(p):
            s.update(tags)
            samples.append(s)
    return meta, samples


def load(root):
    """(samples, {run: meta}) of every run under root, or of root/samples.json."""
    samples, metas = [], {}
    for d in run_dirs(root):
        m, s = load_run(d)
        metas[os.path.relpath(d)] = m
        samples += s
    if not samples and os.path.exists(os.path.join(root, "samples.json")):
        old = read_json(os.path.join(root, "samples.json"))
        samples, metas = old["samples"], old.get("runs", {})
        for s in samples:
            s.setdefault("suite", default_suite(s["kind"]))
    if not samples:
        sys.exit("aggregate.py: no samples under %s" % root)
    return samples, metas


def params_str(p):
    return " ".join("%s=%s" % (k, p[k]) for k in sorted(p))


def params(r):
    return dict(kv.split("=", 1) for kv in r["params"].split())


def natural(params):
    """Sort key for a params string: numbers compare as numbers."""
    return [(0, float(v), "") if v.replace(".", "", 1).isdigit() else (1, 0, v)
            for v in (kv.split("=", 1)[-1] for kv in params.split())]


def key_of(s):
    p = dict(s["params"])
    p.pop("cpus", None)  # in the key separately
    return (s["suite"], s["kind"], s["workload"], s["metric"], params_str(p), s["cpus"])


def suite_key(suite):
    return (SUITE_ORDER.index(suite) if suite in SUITE_ORDER else len(SUITE_ORDER), suite)


def compare(by_round, base, fn, at):
    """{variant: interval} of every other variant against base; fn is stats.ratio_ci or diff_ci."""
    out = {}
    for v, data in by_round.items():
        if v != base and base in by_round:
            ci = fn(by_round[base], data)
            if ci["point"] is not None:
                ci["resolved"] = stats.resolved(ci, at)
                out[v] = ci
    return out


def summarise(samples, base, new):
    """Rows, one per cell; a row's "_rounds" ({variant: {round: [values]}}) stays out of the JSON."""
    groups = {}
    for s in samples:
        g = groups.setdefault(key_of(s), {"unit": s["unit"], "better": s["better"], "by": {}})
        g["by"].setdefault(s["variant"], {}).setdefault(s["round"], []).append(s["value"])
    rows = []
    for (suite, kind, wl, metric, par, cpus), g in sorted(
            groups.items(), key=lambda kv: (suite_key(kv[0][0]), kv[0][1] != "main", kv[0][1],
                                            kv[0][2], kv[0][3], natural(kv[0][4]), kv[0][5])):
        st = {}
        for v, by in g["by"].items():
            xs = stats.pool(by)
            st[v] = {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "n": len(xs),
                     "rounds": len(by)}
        figure = metric.startswith(FIGURE)
        cis = compare(g["by"], base, stats.ratio_ci, 1.0)
        mine = cis.get(new, {})
        row = {"suite": suite, "kind": kind, "workload": wl, "metric": metric, "params": par,
               "cpus": cpus, "unit": g["unit"], "better": g["better"], "figure": figure, "stats": st,
               "ratio": mine.get("point"), "lo": mine.get("lo"), "hi": mine.get("hi"),
               "resolved": mine.get("resolved", False), "n_rounds": mine.get("n_rounds", 0),
               "ratios": {v: c["point"] for v, c in cis.items()}, "ci": cis, "_rounds": g["by"]}
        if metric in DIFF_METRICS:
            dcis = compare(g["by"], base, stats.diff_ci, 0.0)
            mine = dcis.get(new, {})
            row.update({"diff": mine.get("point"), "diff_lo": mine.get("lo"), "diff_hi": mine.get("hi"),
                        "diff_resolved": mine.get("resolved", False), "diff_ci": dcis})
        rows.append(row)
    return rows


def public(rows):
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]


def select(rows, wl, metric, base, new, **par):
    """The main rows of a workload and metric (and params) that both variants have."""
    return [r for r in rows if r["kind"] == "main" and r["workload"] == wl and r["metric"] == metric
            and base in r["stats"] and new in r["stats"]
            and all(params(r).get(k) == str(v) for k, v in par.items())]


def goal(title, how, measure, test, thr, ci, status, cells, target=None):
    return {"goal": title, "how": how, "measure": measure, "target": target or "%s %.2f" % (test, thr),
            "test": test, "threshold": thr, "value": ci["point"], "lo": ci["lo"], "hi": ci["hi"],
            "n_rounds": ci["n_rounds"], "cells": cells, "status": status if cells else "not in this run",
            "met": {"met": True, "missed": False}.get(status) if cells else None}


def goals(rows, base, new):
    out = []
    none = {"point": None, "lo": None, "hi": None, "n_rounds": 0}
    for title, wl, metric, how, test, thr, *par in GOALS:
        par = par[0] if par else {}
        if how == "geomean":
            sel = select(rows, wl, metric, base, new, **par)
            ci = stats.geomean_ci([(r["_rounds"][base], r["_rounds"][new]) for r in sel])
            measure = "%s %s%s: geomean of %d %s/%s ratios" % (
                wl, metric, "".join(" %s=%s" % kv for kv in sorted(par.items())), len(sel), new, base)
            out.append(goal(title, how, measure, test, thr, ci, stats.goal_status(ci, test, thr), len(sel)))
        elif how == "max":
            sel = select(rows, wl, metric, base, new)
            top = {v: max((r["stats"][v]["max"] for r in sel), default=None) for v in (base, new)}
            status = ("met" if top[new] <= top[base] else "missed") if sel else None
            measure = "%s %s: max over %s runs against max over %s runs" % (wl, metric, new, base)
            out.append(goal(title, how, measure, test, top[base], dict(none, point=top[new], n_rounds=None),
                            status, len(sel), "%s %s's max (%s)" % (test, base, fmt(top[base]))))
        else:
            sel = select(rows, wl, metric, base, new, load_pct=300)
            for r in sel:
                ci = {k: r["diff_ci"][new][k] for k in none}
                measure = "%s %s at %s: median %s - median %s, points" % (wl, metric, r["params"], new, base)
                out.append(goal("%s, policy %s" % (title, params(r).get("policy")), how, measure, test, thr,
                                ci, stats.goal_status(ci, test, thr), 1))
            if not sel:
                out.append(goal(title, how, "%s %s at load_pct=300, per policy: median %s - median %s"
                                % (wl, metric, new, base), test, thr, none, None, 0))
    return out


def fmt(x):
    if x is None:
        return "-"
    if abs(x) >= 100 or x == int(x):
        return "%.0f" % x
    return "%.3g" % x


def fmt_stats(st):
    """"median (min-max)"; "-" without samples."""
    return "-" if not st else "%s (%s-%s)" % (fmt(st["median"]), fmt(st["min"]), fmt(st["max"]))


def fmt_interval(ci, spec="%.3f", at=1.0):
    """"[lo, hi]", with " *" when the interval excludes `at`; "" without an interval."""
    if not ci or ci.get("lo") is None:
        return ""
    return ("[" + spec + ", " + spec + "]") % (ci["lo"], ci["hi"]) + (" *" if stats.resolved(ci, at) else "")


def fmt_ci(ci, spec="%.3f", at=1.0, unit=""):
    """"point[unit] [lo, hi] *"; "-" without a point."""
    if not ci or ci.get("point") is None:
        return "-"
    return " ".join(x for x in (spec % ci["point"] + unit, fmt_interval(ci, spec, at)) if x)


def table(head, lines):
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + \
           ["| " + " | ".join(map(str, cells)) + " |" for cells in lines]


def cell_cols(r, cores=None):
    p = r["params"]
    return [r["workload"], p, "%s %s, %s better" % (r["metric"], r["unit"], r["better"]), r["cpus"]] + \
        (["%.1f" % (r["cpus"] / cores)] if cores else [])


def markdown(rows, gl, meta, variants, base, new, rounds):
    """summary.md; rounds: {variant: number of rounds}."""
    L = ["# Benchmark results\n"]
    if meta:
        L.append("Host: %s, %s cores; QEMU accel %s; %s vCPUs, preempt=%s; %s round(s)%s; %s.\n" % (
            meta.get("host_cpu"), meta.get("host_cores"), meta.get("accel"), meta.get("vcpus"),
            meta.get("preempt"), meta.get("rounds"), ", QUICK sizes" if meta.get("quick") else "",
            meta.get("date")))
    if meta.get("sizes"):
        L.append("Workload sizes (overrides of the bench/wl-*.sh defaults): `%s`.\n" % meta["sizes"])
    L.append("## Method\n")
    L.append("A cell's ratio is the median of all its %s samples over the median of all its %s samples "
             "(below 1 is better for %s when lower is better). Its 95 %% interval is the ratio "
             "times exp(+-t(n-1) sd/sqrt(n)), sd being the spread of the log of the ratio computed round "
             "by round (n rounds, both variants of a round paired; a goal's round value is the geomean of "
             "its cells' ratios in that round), and a cell is resolved, marked *, when the interval "
             "excludes 1.0.\n" % (new, base, new))
    L.append("Rounds per variant: %s. Each cell: median (min-max) over all samples of all rounds.%s\n" % (
        ", ".join("%s %d" % vn for vn in rounds.items()),
        " cfs-feat is the same CFS kernel with the seed fixes' sched_feat bits on (docs/cfs-fixes.md)."
        if "cfs-feat" in variants else ""))
    L.append("## Goals\n")
    L += table(["goal", "measure", "target", "value [95 % CI]", "rounds", "status"],
               [[g["goal"], g["measure"], g["target"],
                 fmt_ci({"point": g["value"], "lo": g["lo"], "hi": g["hi"]}, *GOAL_FMT[g["how"]]),
                 "-" if g["n_rounds"] is None else g["n_rounds"],
                 "**missed**" if g["status"] == "missed" else g["status"]] for g in gl])
    others = [v for v in variants if v != base]
    for suite in sorted({r["suite"] for r in rows}, key=suite_key):
        sel = [r for r in rows if r["suite"] == suite and not r["figure"]]
        cores = meta.get("host_cores") if any(r["kind"] == "scaling" for r in sel) else None
        L.append("\n## %s\n" % SUITE_TITLE.get(suite, "Suite " + suite))
        head = ["workload", "configuration", "metric", "vCPUs"] + (["vCPUs/host cores"] if cores else []) + \
            variants + ["%s/%s [95 %% CI]" % (v, base) for v in others]
        L += table(head, [cell_cols(r, cores) + [fmt_stats(r["stats"].get(v)) for v in variants] +
                          [fmt_ci(r["ci"].get(v)) for v in others] for r in sel])
        figs = sorted((r for r in rows if r["suite"] == suite and r["figure"]),
                      key=lambda r: (r["workload"], natural(r["params"]), r["cpus"], r["metric"]))
        if figs:
            L.append("\n### Figures (%s)\n" % suite)
            L.append("Explanatory figures recorded beside the measured cells; ratio to %s, and for %s the "
                     "difference in points with its interval.\n" % (base, ", ".join(DIFF_METRICS)))
            L += table(["workload", "configuration", "figure", "vCPUs"] + variants +
                       ["%s vs %s" % (v, base) for v in others],
                       [[r["workload"], r["params"], r["metric"], r["cpus"]] +
                        [fmt(r["stats"][v]["median"]) if v in r["stats"] else "-" for v in variants] +
                        [fmt_ci(r["diff_ci"].get(v), "%+.2f", 0.0, " pt") if "diff_ci" in r and v in r["diff_ci"]
                         else fmt_ci({"point": r["ratios"].get(v)}) for v in others] for r in figs])
    return "\n".join(L) + "\n"


def check(d):
    """Smoke check: status all ok, every workload with numeric samples."""
    bad = []
    try:
        with open(os.path.join(d, "status.txt")) as f:
            status = [line.split() for line in f if line.strip()]
    except OSError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    if not status:
        bad.append("no workload ran")
    try:
        with open(os.path.join(d, "meta.json")) as f:
            json.load(f)
    except (OSError, ValueError) as e:
        bad.append("meta.json: %s" % e)
    for w, st, secs in status:
        path = os.path.join(d, w + ".jsonl")
        n = 0
        if os.path.exists(path):
            for s in read_jsonl(path):
                if not isinstance(s.get("value"), (int, float)):
                    bad.append("%s: non-numeric sample %r" % (w, s))
                n += 1
        if st != "ok" or n == 0:
            bad.append("%s: status %s, %d samples" % (w, st, n))
        print("  %-11s %-4s %4ss %3d samples" % (w, st, secs, n))
    for b in bad:
        print("error: " + b, file=sys.stderr)
    return 1 if bad else 0


AA_WORD = {0: "ok", 1: "FAIL", 2: "MISSING"}


def aa_result(sel, ci, limit):
    """(exit status, reason) of one throughput goal of an A/A run."""
    if not sel:
        return 2, "no cells with both variants"
    if ci["lo"] is None:
        return 2, "%d common round(s), 2 needed" % ci["n_rounds"]
    if stats.resolved(ci):
        return 1, "the interval excludes 1.0"
    if stats.half_width(ci) > limit:
        return 1, "half-width above %g" % limit
    return 0, ""


def aa_check(rows, base, new, limits):
    """An A/A run: every throughput goal's geomean interval holds 1.0 and is narrow enough."""
    print("A/A check: %s against %s, 95 %% %s" % (new, base, stats.METHOD))
    line = "%-10s %-14s %-44s %7s %-17s %s"
    print("\nper-cell intervals (informational: a cell's interval is wider than the geomean's)")
    print(line % ("workload", "metric", "configuration", "ratio", "95 % CI", "half-width"))
    for wl, metric, _, _ in AA_GOALS:
        for r in select(rows, wl, metric, base, new):
            ci = r["ci"].get(new)
            print(line % (wl, metric, r["params"], fmt_ci({"point": r["ratio"]}), fmt_interval(ci) or "-",
                          fmt(ci and stats.half_width(ci))))
    print("\ngoals (geomean over the cells, paired over rounds)")
    print(line % ("workload", "metric", "cells", "geomean", "95 % CI", "half-width / limit: result"))
    worst, notes = 0, []
    for wl, metric, opt, _ in AA_GOALS:
        sel = select(rows, wl, metric, base, new)
        ci = stats.geomean_ci([(r["_rounds"][base], r["_rounds"][new]) for r in sel])
        rc, why = aa_result(sel, ci, limits[opt])
        result = AA_WORD[rc] + (": " + why if why else "")
        print(line % (wl, metric, len(sel), fmt_ci({"point": ci["point"]}), fmt_interval(ci) or "-",
                      "%s / %g: %s" % (fmt(stats.half_width(ci)), limits[opt], result)))
        worst = max(worst, rc)
        if rc:
            notes.append("%s %s: %s" % (wl, metric, why))
    if worst == 2:
        print("aa-check: cannot check the A/A run: %s" % "; ".join(notes), file=sys.stderr)
    elif worst == 1:
        print("aa-check: FAILED, the A/A run shows a difference or too wide an interval: %s"
              % "; ".join(notes), file=sys.stderr)
    else:
        print("aa-check: passed, every throughput goal's interval holds 1.0 within its half-width limit")
    return worst


def main():
    doc = __doc__.split("\n\n")
    ap = argparse.ArgumentParser(usage=doc[1][len("usage: "):], description="\n\n".join(doc[2:]),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("resultdir", nargs="?")
    ap.add_argument("--check", metavar="DATADIR")
    ap.add_argument("--aa-check", metavar="RESULTDIR")
    ap.add_argument("--base")
    ap.add_argument("--new")
    ap.add_argument("--tag")
    for _, _, opt, hw in AA_GOALS:
        ap.add_argument("--" + opt.replace("_", "-"), type=float, default=hw, metavar="HW")
    a = ap.parse_args()
    if a.check:
        return check(a.check)
    root = a.aa_check or a.resultdir
    if not root or (a.aa_check and a.resultdir):
        ap.error("give one RESULTDIR")
    if a.tag is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", a.tag):
        ap.error("--tag wants letters, digits, '.', '_' and '-', not %r" % a.tag)
    meta = read_json(os.path.join(root, "meta.json"), {})
    base = a.base or meta.get("base") or DEFAULT_BASE
    new = a.new or meta.get("new") or DEFAULT_NEW
    samples, metas = load(root)
    seen = []
    for s in samples:
        if s["variant"] not in seen:
            seen.append(s["variant"])
    missing = [v for v in (base, new) if v not in seen]
    if missing:
        ap.error("no samples of %s in %s (variants there: %s)" % (" or ".join(missing), root, " ".join(seen)))
    variants = [v for v in (new, base) if v in seen] + [v for v in seen if v not in (new, base)]
    rows = summarise(samples, base, new)
    if a.aa_check:
        # a run with vrq, cfs and cfs-aa: the A/A pair is cfs-aa against cfs
        return aa_check(rows, base, a.new or (AA_VARIANT if AA_VARIANT in seen else new), vars(a))
    gl = goals(rows, base, new)
    rounds = {v: len({s["round"] for s in samples if s["variant"] == v}) for v in variants}
    name = "summary" + ("-" + a.tag if a.tag else "")
    if not a.tag:
        with open(os.path.join(root, "samples.json"), "w") as f:
            json.dump({"meta": meta, "runs": metas, "samples": samples}, f, indent=1)
    with open(os.path.join(root, name + ".json"), "w") as f:
        json.dump({"meta": meta, "base": base, "new": new, "variants": variants,
                   "method": {"statistic": "median(new) / median(base)", "interval": stats.METHOD,
                              "level": stats.LEVEL},
                   "rounds": rounds,
                   "goals": gl, "rows": public(rows)}, f, indent=1)
    with open(os.path.join(root, name + ".md"), "w") as f:
        f.write(markdown(rows, gl, meta, variants, base, new, rounds))
    print("aggregate: %d samples from %d runs, %d cells, %s against %s -> %s/%s.md"
          % (len(samples), len(metas), len(rows), new, base, root, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
