#!/usr/bin/env python3
"""Collect the samples of a benchmark run and summarise them.

usage: aggregate.py RESULTDIR          write samples.json, summary.json, summary.md
       aggregate.py --check DATADIR    smoke check of one run-workloads.sh output:
                                       every workload ok and with numbers

RESULTDIR is what run-bench.sh writes (runs/<id>/run.json + runs/<id>/data/),
or any tree of run-workloads.sh output directories (a real machine booted
into each kernel in turn): a directory holding meta.json and status.txt is
one run; its variant is run.json's "variant" (one level up) or meta.json's
"label". Medians, min and max are over every sample of a configuration from
every round; the VRQ/EEVDF ratio is median(vrq) / median(cfs).
Python 3 standard library only.
"""
import glob
import json
import math
import os
import statistics
import sys

BASE, NEW = "cfs", "vrq"

# The goals of issue 5: (title, workload, metric, kind, test, threshold).
GOALS = [
    ("compile time", "compile", "wall_s", "ratio", "<=", 0.98),
    ("hackbench", "hackbench", "time_s", "ratio", "<=", 0.90),
    ("context switch", "ctxswitch", "ns_per_switch", "ratio", "<=", 1.00),
    ("mpv frame drops", "mpv", "frame_drops", "max", "==", 0),
    ("wakeup latency p99", "cyclictest", "lat_p99_us", "ratio", "<=", 0.50),
]


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


def run_dirs(root):
    for meta in sorted(glob.glob(os.path.join(root, "**", "meta.json"), recursive=True)):
        d = os.path.dirname(meta)
        if os.path.exists(os.path.join(d, "status.txt")):
            yield d


def load_run(d):
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    run = {}
    rj = os.path.join(os.path.dirname(d), "run.json")
    if os.path.exists(rj):
        with open(rj) as f:
            run = json.load(f)
    tags = {
        "variant": run.get("variant", meta.get("label")),
        "round": run.get("round", 1),
        "kind": run.get("kind", "main"),
        "cpus": run.get("cpus", meta.get("cpus")),
        "run": os.path.relpath(d),
    }
    samples = []
    for p in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
        for s in read_jsonl(p):
            s.update(tags)
            samples.append(s)
    return meta, samples


def params_str(p):
    return " ".join("%s=%s" % (k, p[k]) for k in sorted(p))


def natural(params):
    """Sort key for a params string: numbers compare as numbers."""
    return [(0, float(v), "") if v.replace(".", "", 1).isdigit() else (1, 0, v)
            for v in (kv.split("=", 1)[-1] for kv in params.split())]


def key_of(s):
    p = dict(s["params"])
    p.pop("cpus", None)  # in the key separately
    return (s["kind"], s["workload"], s["metric"], params_str(p), s["cpus"])


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def summarise(samples):
    groups = {}
    for s in samples:
        g = groups.setdefault(key_of(s), {"unit": s["unit"], "better": s["better"], "by": {}})
        g["by"].setdefault(s["variant"], []).append(s["value"])
    rows = []
    order = {"main": 0, "scaling": 1}
    for (kind, wl, metric, params, cpus), g in sorted(
            groups.items(), key=lambda kv: (order.get(kv[0][0], 2), kv[0][1], kv[0][2],
                                            natural(kv[0][3]), kv[0][4])):
        stats = {v: {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "n": len(xs)}
                 for v, xs in g["by"].items()}
        # every variant against EEVDF (cfs): "ratio" is VRQ's, the goals' one
        ratios = {}
        if BASE in stats and stats[BASE]["median"]:
            ratios = {v: st["median"] / stats[BASE]["median"] for v, st in stats.items() if v != BASE}
        rows.append({"kind": kind, "workload": wl, "metric": metric, "params": params,
                     "cpus": cpus, "unit": g["unit"], "better": g["better"],
                     "stats": stats, "ratio": ratios.get(NEW), "ratios": ratios})
    return rows


def goals(rows):
    out = []
    for title, wl, metric, how, test, thr in GOALS:
        sel = [r for r in rows if r["kind"] == "main" and r["workload"] == wl and r["metric"] == metric]
        if how == "ratio":
            val = geomean([r["ratio"] for r in sel])
            shown = None if val is None else "%.3f" % val
        else:
            vals = [r["stats"][NEW]["max"] for r in sel if NEW in r["stats"]]
            val = max(vals) if vals else None
            shown = None if val is None else "%g" % val
        ok = None if val is None else (val <= thr if test == "<=" else val == thr)
        out.append({"goal": title, "measure": "%s %s (%s)" % (wl, metric,
                    "geomean of VRQ/EEVDF median ratios" if how == "ratio" else "max over VRQ runs"),
                    "target": "%s %g" % (test, thr), "value": shown, "met": ok})
    return out


def fmt(x):
    if x is None:
        return "-"
    if abs(x) >= 100 or x == int(x):
        return "%.0f" % x
    return "%.3g" % x


def markdown(rows, gl, meta, variants):
    L = []
    L.append("# Benchmark results\n")
    if meta:
        L.append("Host: %s, %s cores; QEMU accel %s; %s vCPUs, preempt=%s; %s round(s)%s; %s.\n" % (
            meta.get("host_cpu"), meta.get("host_cores"), meta.get("accel"), meta.get("vcpus"),
            meta.get("preempt"), meta.get("rounds"), ", QUICK sizes" if meta.get("quick") else "",
            meta.get("date")))
    if meta.get("sizes"):
        L.append("Workload sizes (overrides of the bench/wl-*.sh defaults): `%s`.\n" % meta["sizes"])
    L.append("Each cell: median (min-max) over all samples of all rounds. "
             "Ratio: the variant's median / EEVDF (cfs) median; below 1 is better for the variant "
             "when lower is better. cfs-feat is the same CFS kernel with the seed fixes' "
             "sched_feat bits on (docs/cfs-fixes.md).\n")
    L.append("## Goals\n")
    L.append("| goal | measure | target | value | met |")
    L.append("|---|---|---|---|---|")
    for g in gl:
        met = "n/a" if g["met"] is None else ("yes" if g["met"] else "**no**")
        L.append("| %s | %s | %s | %s | %s |" % (g["goal"], g["measure"], g["target"], g["value"] or "-", met))
    for kind, title in (("main", "Workloads"), ("scaling", "Scaling (hackbench by vCPUs)")):
        sel = [r for r in rows if r["kind"] == kind]
        if not sel:
            continue
        L.append("\n## %s\n" % title)
        head = "| workload | configuration | metric | vCPUs |"
        if kind == "scaling" and meta:
            head += " vCPUs/host cores |"
        others = [v for v in variants if v != BASE]
        head += "".join(" %s |" % v for v in variants)
        head += "".join(" %s/EEVDF |" % ("VRQ" if v == NEW else v) for v in others)
        L.append(head)
        L.append("|" + "---|" * (head.count("|") - 1))
        for r in sel:
            cells = []
            for v in variants:
                s = r["stats"].get(v)
                cells.append("-" if not s else "%s (%s-%s)" % (fmt(s["median"]), fmt(s["min"]), fmt(s["max"])))
            line = "| %s | %s | %s %s, %s better | %s |" % (
                r["workload"], r["params"], r["metric"], r["unit"], r["better"], r["cpus"])
            if kind == "scaling" and meta:
                line += " %.1f |" % (r["cpus"] / meta.get("host_cores", 1))
            line += "".join(" %s |" % c for c in cells)
            for v in others:
                x = r["ratios"].get(v)
                line += " %s |" % ("-" if x is None else "%.3f" % x)
            L.append(line)
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


def main():
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "--check":
        return check(a[1])
    if len(a) != 1:
        sys.exit(__doc__)
    root = a[0]
    samples, metas = [], {}
    for d in run_dirs(root):
        m, s = load_run(d)
        metas[os.path.relpath(d)] = m
        samples += s
    if not samples:
        sys.exit("aggregate.py: no samples under %s" % root)
    meta = {}
    mp = os.path.join(root, "meta.json")
    if os.path.exists(mp):
        with open(mp) as f:
            meta = json.load(f)
    seen = []
    for s in samples:
        if s["variant"] not in seen:
            seen.append(s["variant"])
    variants = [v for v in (NEW, BASE) if v in seen] + [v for v in seen if v not in (NEW, BASE)]
    rows = summarise(samples)
    gl = goals(rows)
    with open(os.path.join(root, "samples.json"), "w") as f:
        json.dump({"meta": meta, "runs": metas, "samples": samples}, f, indent=1)
    with open(os.path.join(root, "summary.json"), "w") as f:
        json.dump({"meta": meta, "variants": variants, "goals": gl, "rows": rows}, f, indent=1)
    with open(os.path.join(root, "summary.md"), "w") as f:
        f.write(markdown(rows, gl, meta, variants))
    print("aggregate: %d samples from %d runs, %d configurations -> %s/summary.md"
          % (len(samples), len(metas), len(rows), root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
