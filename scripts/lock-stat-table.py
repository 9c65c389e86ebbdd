#!/usr/bin/env python3
"""The run-queue locks' figures from /proc/lock_stat files.

usage: lock-stat-table.py [--class NAME]... [--per N] LABEL=FILE...

Each FILE is a /proc/lock_stat copy (scripts/guest-lockstat.sh); LABEL
names its row (e.g. vrq-2cpu). The classes are vrq_lock and &rq->__lock
unless --class names others. --per N divides the counts by N (e.g. the
messages hackbench sent) and adds per-operation columns. Prints a
markdown table: acquisitions, contentions, contended share, wait total and
max (us), hold total (us). Python 3 standard library only.
"""
import argparse
import re
import sys

ROW = re.compile(r"^\s*(?P<name>\S.*?):\s+(?P<nums>(?:-?[\d.]+\s+){11}-?[\d.]+)\s*$")
FIELDS = ("con_bounces", "contentions", "wait_min", "wait_max", "wait_total", "wait_avg",
          "acq_bounces", "acquisitions", "hold_min", "hold_max", "hold_total", "hold_avg")


def parse(path):
    """{class name: {field: value}} of one /proc/lock_stat copy."""
    out = {}
    with open(path, errors="replace") as f:
        first = f.readline()
        if not first.startswith("lock_stat version"):
            raise ValueError("%s is not a /proc/lock_stat copy (first line %r)" % (path, first.strip()))
        for line in f:
            m = ROW.match(line)
            if m:
                vals = [float(x) for x in m.group("nums").split()]
                if len(vals) == len(FIELDS):
                    out[m.group("name")] = dict(zip(FIELDS, vals))
    return out


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1][len("usage: "):])
    ap.add_argument("runs", nargs="+", metavar="LABEL=FILE")
    ap.add_argument("--class", dest="classes", action="append")
    ap.add_argument("--per", type=float)
    a = ap.parse_args()
    classes = a.classes or ["vrq_lock", "&rq->__lock"]
    if a.per is not None and a.per <= 0:
        ap.error("--per must be a positive number")
    rows = []
    for run in a.runs:
        label, sep, path = run.partition("=")
        if not sep or not label or not path:
            ap.error("want LABEL=FILE, not %r" % run)
        try:
            stats = parse(path)
        except (OSError, ValueError) as e:
            ap.error(str(e))
        # a class, and its subclasses (NAME/1: nested locking) and versions
        found = [n for c in classes for n in sorted(stats) if re.fullmatch(re.escape(c) + r"([/#]\d+)?(-[WR])?", n)]
        if not found:
            ap.error("%s has none of the classes %s" % (path, ", ".join(classes)))
        for c in found:
            rows.append((label, c, stats[c]))
    head = ["run", "lock class", "acquisitions", "contentions", "contended %", "wait total (us)",
            "wait max (us)", "hold total (us)"]
    if a.per:
        head += ["acquisitions / op", "wait us / op"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for label, c, s in rows:
        cells = [label, "`%s`" % c, "%.0f" % s["acquisitions"], "%.0f" % s["contentions"],
                 "%.2f" % (100.0 * s["contentions"] / s["acquisitions"] if s["acquisitions"] else 0.0),
                 "%.0f" % s["wait_total"], "%.1f" % s["wait_max"], "%.0f" % s["hold_total"]]
        if a.per:
            cells += ["%.2f" % (s["acquisitions"] / a.per), "%.3f" % (s["wait_total"] / a.per)]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
