#!/usr/bin/env python3
"""Plot a summarised benchmark run with gnuplot (PNG, pngcairo).

usage: plot.py RESULTDIR     (after aggregate.py; writes RESULTDIR/plots/)

compile.png     compile wall time by background policy and load, per kernel
hackbench.png   hackbench time by groups, one panel per mode
latency.png     latency distributions (CDF): cyclictest wakeups, frameprobe
frames.png      mpv frame drops and frameprobe missed frames by load
scaling.png     hackbench time by vCPUs (scaling runs)
ratios.png      forest plot, a panel per suite: each measured cell's new/base
                ratio of medians with its 95 % interval (bench/stats.py), log scale
Bars and points are medians; error bars span min to max. A plot whose
workloads are not in the run is left out. The .dat and .gp files stay next
to the PNGs. Python 3 standard library only.
"""
import glob
import json
import math
import os
import subprocess
import sys

import aggregate
from aggregate import params

TERM = "set terminal pngcairo size %d,%d font 'sans,10' noenhanced\n"


def gnuplot(plots, name, script, w=1000, h=600):
    gp = os.path.join(plots, name + ".gp")
    with open(gp, "w") as f:
        f.write(TERM % (w, h))
        f.write("set output '%s.png'\n" % name)
        f.write(script)
    subprocess.run(["gnuplot", name + ".gp"], cwd=plots, check=True)
    print("plot: %s/%s.png" % (plots, name))


def write_dat(plots, name, lines):
    with open(os.path.join(plots, name), "w") as f:
        f.write("\n".join(lines) + "\n")
    return name


def mmm(r, v):
    s = r["stats"].get(v)
    return "%g %g %g" % (s["median"], s["min"], s["max"]) if s else "NaN NaN NaN"


def bars(plots, name, rows, label, variants, ylabel, title):
    """Clustered bars with min-max error bars, one cluster a row."""
    if not rows:
        return None
    dat = write_dat(plots, name + ".dat", ['"%s" %s' % (label(r), " ".join(mmm(r, v) for v in variants))
                                           for r in rows])
    series = ", ".join("'%s' using %d:%d:%d%s title '%s'" % (
        dat if i == 0 else "", 2 + 3 * i, 3 + 3 * i, 4 + 3 * i, ":xtic(1)" if i == 0 else "", v)
        for i, v in enumerate(variants))
    return ("set title '%s'\nset ylabel '%s'\nset yrange [0:*]\nset grid ytics\n"
            "set offsets 0, 0, graph 0.1, 0\n"
            "set style data histogram\nset style histogram errorbars gap 1 lw 1\n"
            "set style fill solid 0.6 border -1\nset xtics rotate by -30\n"
            "set key top left\nplot %s\n" % (title, ylabel, series))


def lines_by(plots, prefix, rows, xkey, variants, ylabel, xlabel, title, logx=False):
    """Median with min-max error bars against a numeric parameter."""
    series = []
    for v in variants:
        pts = sorted((float(params(r)[xkey] if xkey != "cpus" else r["cpus"]), mmm(r, v))
                     for r in rows if v in r["stats"])
        if pts:
            dat = write_dat(plots, "%s-%s.dat" % (prefix, v), ["%g %s" % p for p in pts])
            series.append("'%s' using 1:2:3:4 with yerrorlines title '%s'" % (dat, v))
    if not series:
        return ""
    return ("set title '%s'\nset xlabel '%s'\nset ylabel '%s'\nset grid\nset yrange [0:*]\n"
            "set offsets graph 0.05, graph 0.05, graph 0.05, 0\n%s"
            "set key top left\nplot %s\n" % (title, xlabel, ylabel,
                                            "set logscale x 2\n" if logx else "unset logscale x\nset xtics 1\n",
                                            ", ".join(series)))


def cdf_points(values, maxpts=2000):
    """[(value, percent <= value)] from (value, count) pairs, thinned."""
    values = sorted(values)
    total = sum(c for _, c in values)
    out, acc = [], 0
    step = max(1, total // maxpts)
    nxt = 0
    for v, c in values:
        acc += c
        if acc >= nxt or acc == total:
            out.append((max(v, 1), 100.0 * acc / total))
            nxt = acc + step
    return out


def latency_files(root):
    """{(tool, load): {variant: [(value, count)]}} from the raw files of main runs."""
    out = {}
    for d in aggregate.run_dirs(root):
        meta, samples = aggregate.load_run(d)
        if not samples or samples[0]["kind"] != "main":
            continue
        v = samples[0]["variant"]
        for p in glob.glob(os.path.join(d, "cyclictest-*.hist")):
            load = os.path.basename(p)[len("cyclictest-"):-len(".hist")]
            with open(p) as f:
                pairs = [(float(a), int(b)) for a, b in (line.split() for line in f if line.strip())]
            out.setdefault(("cyclictest", load), {}).setdefault(v, []).extend(pairs)
        for p in glob.glob(os.path.join(d, "frameprobe-*.lat")):
            load = os.path.basename(p)[len("frameprobe-"):-len(".lat")]
            with open(p) as f:
                pairs = [(float(line), 1) for line in f if line.strip()]
            out.setdefault(("frameprobe", load), {}).setdefault(v, []).extend(pairs)
    return out


def latency(plots, root, variants):
    lat = latency_files(root)
    panels = []
    for tool, what in (("cyclictest", "cyclictest wakeup latency (SCHED_OTHER)"),
                       ("frameprobe", "frameprobe wakeup lateness (60 Hz)")):
        series = []
        for (t, load), byv in sorted(lat.items()):
            if t != tool:
                continue
            for v in variants:
                if v in byv:
                    dat = write_dat(plots, "lat-%s-%s-%s.dat" % (tool, load, v),
                                    ["%g %g" % p for p in cdf_points(byv[v])])
                    series.append("'%s' using 1:2 with steps title '%s, %s load'" % (dat, v, load))
        if series:
            panels.append("set title '%s'\nset logscale x\nset xlabel 'us (log)'\n"
                          "set ylabel '%% of wakeups <= x'\nset yrange [0:100]\nset grid\n"
                          "set key bottom right\nplot %s\n" % (what, ", ".join(series)))
    if panels:
        gnuplot(plots, "latency", "set multiplot layout 1,%d\n%sunset multiplot\n"
                % (len(panels), "".join(panels)), w=700 * len(panels))


# x tics of the forest plot (log scale), the first preferred: those in a
# panel's range that are not too close to one already taken
RATIO_TICS = (1, 2, 0.5, 4, 0.25, 8, 0.125, 16, 1 / 16, 32, 1.25, 0.8, 1.5, 0.67, 1.1, 0.9, 1.05, 0.95)


def ratio_tics(x0, x1, most=12):
    tics, gap = [], math.log(x1 / x0) / most
    for t in RATIO_TICS:
        if x0 <= t <= x1 and all(abs(math.log(t / u)) >= gap for u in tics):
            tics.append(t)
    return ", ".join("'%g' %g" % (t, t) for t in sorted(tics))


def forest(plots, rows, base, new):
    """ratios.png: new/base ratio and interval of every measured cell, a panel per suite."""
    ok = [r for r in rows if not r["figure"] and (r["ratio"] or 0) > 0 and (r["lo"] is None or r["lo"] > 0)]
    if not ok:
        return

    def label(r):
        return " ".join([r["workload"], r["metric"], r["params"]] + ["cpus=%s" % r["cpus"]] * (r["kind"] != "main"))

    def ends(r):  # the interval, or the point alone
        return (r["lo"], r["hi"]) if r["lo"] is not None else (r["ratio"], r["ratio"])

    w, row_h, pad = 1200, 14, 110  # pixels: width, per cell, per panel
    suites = sorted({r["suite"] for r in ok}, key=aggregate.suite_key)
    h = sum(row_h * sum(r["suite"] == su for r in ok) + pad for su in suites)
    # the same left margin in every panel, wide enough for the labels
    script = ("set multiplot\nset lmargin at screen %g\nset logscale x\nset xlabel 'ratio (log scale)'\n"
              "set grid xtics\nset ytics font ',8'\nset arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2\n"
              % min(0.6, (20 + 6.5 * max(len(label(r)) for r in ok)) / w))
    top = 1.0
    for su in suites:
        sel = [r for r in ok if r["suite"] == su][::-1]  # the first row at the top
        dat = write_dat(plots, "ratios-%s.dat" % su, ['%d %g %g %g %d "%s"' % (
            (i, r["ratio"]) + ends(r) + (1 if r["resolved"] else 2, label(r))) for i, r in enumerate(sel)])
        x0 = min([1.0] + [ends(r)[0] for r in sel]) / 1.03
        x1 = max([1.0] + [ends(r)[1] for r in sel]) * 1.03
        size = (row_h * len(sel) + pad) / h
        top -= size
        script += ("set origin 0,%g\nset size 1,%g\nset title '%s: %s/%s ratio of medians, 95 %% interval "
                   "(red: excludes 1)'\nset xrange [%g:%g]\nset xtics (%s)\nset yrange [-1:%d]\n"
                   "plot '%s' using 2:1:3:4:5:ytic(6) with xerrorbars pt 7 ps 0.6 lc variable notitle\n"
                   % (top, size, aggregate.SUITE_TITLE.get(su, su), new, base, x0, x1, ratio_tics(x0, x1),
                      len(sel), dat))
    gnuplot(plots, "ratios", "set linetype 1 lc rgb '#cc2222'\nset linetype 2 lc rgb '#777777'\n"
            + script + "unset multiplot\n", w=w, h=h)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    with open(os.path.join(root, "summary.json")) as f:
        summary = json.load(f)
    # a summary.json from before the intervals (issue 16) lacks these keys
    rows = [dict({"suite": aggregate.default_suite(r["kind"]), "figure": False, "lo": None, "hi": None,
                  "resolved": False}, **r) for r in summary["rows"]]
    variants = summary["variants"]
    meta = summary.get("meta") or {}
    plots = os.path.join(root, "plots")
    os.makedirs(plots, exist_ok=True)

    def sel(kind, wl, metric, *keys):
        """The rows of a kind, workload and metric that have the params keys a plot needs."""
        return [r for r in rows if r["kind"] == kind and r["workload"] == wl and r["metric"] == metric
                and all(k in params(r) for k in keys)]

    s = bars(plots, "compile", sel("main", "compile", "wall_s", "policy", "load_pct"),
             lambda r: "%s %s%%" % (params(r)["policy"], params(r)["load_pct"]), variants,
             "wall time, s", "compile: make -jN at N = % of CPUs, by scheduling policy")
    if s:
        gnuplot(plots, "compile", s)

    hb = sel("main", "hackbench", "time_s", "mode", "groups")
    modes = sorted({params(r)["mode"] for r in hb})
    if modes:
        panels = "".join(lines_by(plots, "hackbench-" + m, [r for r in hb if params(r)["mode"] == m],
                                  "groups", variants, "s", "groups", "hackbench " + m) for m in modes)
        gnuplot(plots, "hackbench", "set multiplot layout 2,%d\n%sunset multiplot\n"
                % ((len(modes) + 1) // 2, panels), w=1200, h=800)

    latency(plots, root, variants)

    panels = ""
    for wl, metric, title in (("mpv", "frame_drops", "mpv frame drops (720p30 clip) by background load"),
                              ("frameprobe", "missed", "frameprobe missed frames (60 Hz) by background load")):
        b = bars(plots, "frames-" + wl, sel("main", wl, metric, "load"), lambda r: params(r)["load"], variants,
                 "frames", title)
        panels += b or ""
    if panels:
        gnuplot(plots, "frames", "set multiplot layout 1,2\n%sunset multiplot\n" % panels, w=1200)

    sc = sel("scaling", "hackbench", "time_s", "mode")
    smodes = sorted({params(r)["mode"] for r in sc})
    if smodes:
        cores = meta.get("host_cores", "?")
        panels = ""
        for m in smodes:
            sm = [r for r in sc if params(r)["mode"] == m]
            panels += lines_by(plots, "scaling-" + m, sm, "cpus", variants, "s", "vCPUs (host has %s cores)" % cores,
                               "hackbench %s, %s groups, by vCPUs" % (m, params(sm[0]).get("groups", "?")), logx=True)
        gnuplot(plots, "scaling", "set multiplot layout 1,%d\n%sunset multiplot\n" % (len(smodes), panels),
                w=600 * len(smodes))

    forest(plots, rows, summary.get("base", aggregate.DEFAULT_BASE), summary.get("new", aggregate.DEFAULT_NEW))
    return 0


if __name__ == "__main__":
    sys.exit(main())
