#!/usr/bin/env python3
"""The table of an smp-profile.sh run.

usage: smp-profile-table.py DIR

DIR holds <sched>-<n>cpu-<mode>/ (data/hackbench.jsonl from
bench/run-workloads.sh and lock_stat from guest-lockstat.sh) and
<sched>-<n>cpu-trace/ (trace.txt and messages). Prints two markdown
tables: per message, the benchmark's figures and the run-queue lock's
acquisitions, contentions and wait; and from the traces, remote wakeups,
preemptions and migrations. Python 3 standard library only.
"""
import glob
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


lockstat = load("lockstat", "lock-stat-table.py")
tracesum = load("tracesum", "trace-summary.py")
LOCKS = ("vrq_lock", "&rq->__lock")
FIGS = ("fig_res_ipi_per_op", "fig_cal_ipi_per_op", "fig_ctxsw_per_op", "fig_idle_pct",
        "fig_vrq_wake_preempt_per_op", "fig_vrq_moved_per_op", "fig_vrq_sync_kept_per_op")


def key(path):
    m = re.match(r"(.+)-(\d+)cpu-(.+)$", os.path.basename(path))
    return (m.group(3), int(m.group(2)), m.group(1)) if m else None


def fmt(v, spec="%.4g"):
    return "-" if v is None else spec % v


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: smp-profile-table.py DIR")
    root = sys.argv[1]
    rows, trows = [], []
    for d in sorted(glob.glob(os.path.join(root, "*-*cpu-*")), key=lambda p: key(p) or ("", 0, "")):
        k = key(d)
        if not k or not os.path.isdir(d):
            continue
        mode, cpus, sched = k
        if mode == "trace":
            tr = os.path.join(d, "trace.txt")
            if not os.path.exists(tr):
                continue
            msgs = float(open(os.path.join(d, "messages")).read())
            s = tracesum.summarise(tr)
            trows.append([sched, cpus, "%.3f" % (s["wakeups"] / msgs), "%.1f" % s["remote_pct"],
                          "%.3f" % (s["switches"] / msgs), "%.1f" % s["preempted_pct"],
                          "%.4f" % (s["migrations"] / msgs), "%.1f" % s["idle_pct"]])
            continue
        samples, msgs = {}, None
        jl = os.path.join(d, "data", "hackbench.jsonl")
        if not os.path.exists(jl):
            continue
        for line in open(jl):
            x = json.loads(line)
            samples[x["metric"]] = x["value"]
            p = x.get("params", {})
            if "groups" in p and "loops" in p:
                msgs = int(p["groups"]) * 400 * int(p["loops"])
        lk = {}
        ls = os.path.join(d, "lock_stat")
        if os.path.exists(ls):
            st = lockstat.parse(ls)
            for name in LOCKS:
                if name in st:
                    lk = st[name]
                    lk["name"] = name
        per = (lambda v: v / msgs) if msgs else (lambda v: None)
        rows.append([mode, cpus, sched, fmt(samples.get("time_s"), "%.2f")] +
                    [fmt(samples.get(f)) for f in FIGS] +
                    [lk.get("name", "-"), fmt(per(lk["acquisitions"]) if lk else None, "%.2f"),
                     fmt(100.0 * lk["contentions"] / lk["acquisitions"] if lk and lk["acquisitions"] else None, "%.2f"),
                     fmt(per(lk["wait_total"]) if lk else None, "%.3f"), fmt(lk.get("wait_max"), "%.1f")])
    head = ["mode", "vCPUs", "kernel", "time (s, lockstat)", "RES IPIs/msg", "CAL IPIs/msg", "switches/msg",
            "idle %", "wake preempt/msg", "moved/msg", "sync kept/msg", "lock", "acquisitions/msg",
            "contended %", "wait us/msg", "wait max us"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    if trows:
        print()
        head = ["kernel", "vCPUs", "wakeups/msg", "remote wakeups %", "switches/msg", "preempted switches %",
                "migrations/msg", "idle %"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in trows:
            print("| " + " | ".join(str(c) for c in r) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
