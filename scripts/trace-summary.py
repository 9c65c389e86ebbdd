#!/usr/bin/env python3
"""Machine-wide figures of a scheduler trace.

usage: trace-summary.py TRACE [--ops N]

TRACE is the kernel's text trace with sched_waking, sched_wakeup,
sched_switch and sched_migrate_task events (scripts/guest-trace.sh).
Prints "name value" lines:

  seconds            from the first event to the last
  wakeups            sched_wakeup events
  remote_wakeups     wakeups whose target CPU is not the CPU that woke the
                     task (sched_waking's CPU)
  remote_pct         their share, percent
  switches           sched_switch events
  preempted_pct      switches whose previous task was still runnable
                     (prev_state R: preempted, e.g. by a wakeup or a slice end)
  migrations         sched_migrate_task events
  idle_pct           share of CPU time the CPUs ran the idle task
and, with --ops N (e.g. messages sent), each count per operation.
Python 3 standard library only.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_trace  # noqa: E402  (scripts/sched_trace.py)


def summarise(path):
    waking_cpu = {}
    n = {"wakeups": 0, "remote_wakeups": 0, "switches": 0, "preempted": 0, "migrations": 0}
    first = last = None
    since = {}          # cpu -> (ts of its last switch, idle?)
    idle = busy = 0.0
    for ev, cpu, ts, d, _, _ in sched_trace.events(path):
        first = ts if first is None else first
        last = ts
        if ev == "sched_waking":
            if "pid" in d:
                waking_cpu[d["pid"]] = cpu
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            pid, tgt = d.get("pid"), d.get("target_cpu")
            n["wakeups"] += 1
            if pid is not None and tgt is not None and pid in waking_cpu and \
                    waking_cpu.pop(pid) != int(tgt):
                n["remote_wakeups"] += 1
        elif ev == "sched_switch":
            n["switches"] += 1
            if d.get("prev_state", "").startswith("R"):
                n["preempted"] += 1
            if cpu in since:
                t0, was_idle = since[cpu]
                if was_idle:
                    idle += ts - t0
                else:
                    busy += ts - t0
            since[cpu] = (ts, d.get("next_pid") == "0")
        elif ev == "sched_migrate_task":
            n["migrations"] += 1
    if first is None:
        raise ValueError("%s has no sched events" % path)
    return {
        "seconds": last - first,
        "wakeups": n["wakeups"],
        "remote_wakeups": n["remote_wakeups"],
        "remote_pct": 100.0 * n["remote_wakeups"] / n["wakeups"] if n["wakeups"] else 0.0,
        "switches": n["switches"],
        "preempted_pct": 100.0 * n["preempted"] / n["switches"] if n["switches"] else 0.0,
        "migrations": n["migrations"],
        "idle_pct": 100.0 * idle / (idle + busy) if idle + busy else 0.0,
    }


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1][len("usage: "):])
    ap.add_argument("trace")
    ap.add_argument("--ops", type=float)
    a = ap.parse_args()
    if a.ops is not None and a.ops <= 0:
        ap.error("--ops must be a positive number")
    try:
        s = summarise(a.trace)
    except (OSError, ValueError) as e:
        ap.error(str(e))
    for k, v in s.items():
        print("%s %s" % (k, ("%.3f" % v) if isinstance(v, float) else v))
    if a.ops:
        for k in ("wakeups", "remote_wakeups", "switches", "migrations"):
            print("%s_per_op %.4f" % (k, s[k] / a.ops))
    return 0


if __name__ == "__main__":
    sys.exit(main())
