#!/usr/bin/env python3
"""Plot a summarised benchmark run with gnuplot (PNG, pngcairo).

usage: plot.py RESULTDIR     (after aggregate.py; writes RESULTDIR/plots/)

compile.png     compile wall time by background policy and load, per kernel
hackbench.png   hackbench time by groups, one panel per mode
latency.png     latency distributions (CDF): cyclictest wakeups, frameprobe
frames.png      mpv frame drops and frameprobe missed frames by load
scaling.png     hackbench time by vCPUs (scaling runs)
Bars and points are medians; error bars span min to max. The .dat and .gp
files stay next to the PNGs. Python 3 standard library only.
"""
import glob
import json
import os
import subprocess
import sys

import aggregate

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


def params(r):
    return dict(kv.split("=", 1) for kv in r["params"].split())


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


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    with open(os.path.join(root, "summary.json")) as f:
        summary = json.load(f)
    rows, variants = summary["rows"], summary["variants"]
    meta = summary.get("meta") or {}
    plots = os.path.join(root, "plots")
    os.makedirs(plots, exist_ok=True)

    def sel(kind, wl, metric):
        return [r for r in rows if r["kind"] == kind and r["workload"] == wl and r["metric"] == metric]

    s = bars(plots, "compile", sel("main", "compile", "wall_s"),
             lambda r: "%s %s%%" % (params(r)["policy"], params(r)["load_pct"]), variants,
             "wall time, s", "compile: make -jN at N = % of CPUs, by scheduling policy")
    if s:
        gnuplot(plots, "compile", s)

    hb = sel("main", "hackbench", "time_s")
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
        b = bars(plots, "frames-" + wl, sel("main", wl, metric), lambda r: params(r)["load"], variants,
                 "frames", title)
        panels += b or ""
    if panels:
        gnuplot(plots, "frames", "set multiplot layout 1,2\n%sunset multiplot\n" % panels, w=1200)

    sc = [r for r in rows if r["kind"] == "scaling" and r["workload"] == "hackbench"]
    smodes = sorted({params(r)["mode"] for r in sc})
    if smodes:
        cores = meta.get("host_cores", "?")
        panels = "".join(lines_by(plots, "scaling-" + m, [r for r in sc if params(r)["mode"] == m],
                                  "cpus", variants, "s", "vCPUs (host has %s cores)" % cores,
                                  "hackbench %s, %s groups, by vCPUs" % (m, params([r for r in sc if params(r)["mode"] == m][0])["groups"]),
                                  logx=True)
                         for m in smodes)
        gnuplot(plots, "scaling", "set multiplot layout 1,%d\n%sunset multiplot\n" % (len(smodes), panels),
                w=600 * len(smodes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
