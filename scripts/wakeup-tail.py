#!/usr/bin/env python3
"""Where the slow wakeups of one task go, from a scheduler trace.

usage: wakeup-tail.py TRACE [--comm NAME | --pid PID] [--over US]

TRACE is the kernel's text trace with sched_wakeup and sched_switch events
(scripts/guest-trace.sh). The task is PID, or the task named NAME that was
woken most often. For each of its wakeups the wait is the time from
sched_wakeup to the sched_switch that puts it on its CPU; a wakeup is slow
when the wait is over US microseconds (default 1000). For the slow ones it
says what the CPU did meanwhile:

  curr kept    how long the task running at the wakeup went on running
  ran first    how many other tasks were switched in before the woken one
  curr left    how the running task left: preempted (still runnable, e.g.
               its slice ended at a tick) or asleep

Prints a markdown summary. Python 3 standard library only.
"""
import argparse
import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_trace  # noqa: E402  (scripts/sched_trace.py)

EVENTS = ("sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_waking")


def events(path):
    for e in sched_trace.events(path):
        if e.ev in EVENTS:
            yield e.ev, e.cpu, e.ts, e.fields


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1][len("usage: "):])
    ap.add_argument("trace")
    ap.add_argument("--comm")
    ap.add_argument("--pid", type=int)
    ap.add_argument("--over", type=float, default=1000.0, metavar="US")
    a = ap.parse_args()
    if (a.comm is None) == (a.pid is None):
        ap.error("give one of --comm and --pid")
    if a.over <= 0:
        ap.error("--over must be a positive number of microseconds")
    try:
        evs = list(events(a.trace))
    except OSError as e:
        ap.error("cannot read %s: %s" % (a.trace, e))
    if not any(e[0] == "sched_switch" for e in evs):
        ap.error("%s has no sched_switch events" % a.trace)
    pid = a.pid
    if pid is None:
        woken = collections.Counter(int(d["pid"]) for ev, _, _, d in evs
                                    if ev == "sched_wakeup" and d["comm"] == a.comm)
        if not woken:
            ap.error("no sched_wakeup of a task named %r in %s" % (a.comm, a.trace))
        pid = woken.most_common(1)[0][0]

    curr = {}           # cpu -> (pid, comm, since)
    pending = None      # the wakeup being followed: dict
    done = []
    for ev, cpu, ts, d in evs:
        if ev == "sched_wakeup" and int(d["pid"]) == pid:
            tcpu = int(d["target_cpu"])
            c = curr.get(tcpu)
            pending = {"ts": ts, "cpu": tcpu, "curr": c[0] if c else None, "curr_comm": c[1] if c else "?",
                       "curr_left": None, "kept": None, "others": []}
        elif ev == "sched_switch":
            nxt, prv = int(d["next_pid"]), int(d["prev_pid"])
            if pending and cpu == pending["cpu"]:
                if pending["kept"] is None:
                    pending["kept"] = ts - pending["ts"]
                    pending["curr_left"] = "preempted" if d["prev_state"].startswith("R") else "asleep"
                if nxt == pid:
                    pending["wait"] = ts - pending["ts"]
                    done.append(pending)
                    pending = None
                else:
                    pending["others"].append((nxt, d["next_comm"]))
            curr[cpu] = (nxt, d["next_comm"], ts)
    if not done:
        ap.error("pid %d was never woken and switched in within the trace" % pid)

    us = lambda s: s * 1e6
    waits = [us(w["wait"]) for w in done]
    slow = [w for w in done if us(w["wait"]) > a.over]
    print("# Wakeups of pid %d (%s)\n" % (pid, a.comm or "-"))
    print("%d wakeups: wait p50 %.0f us, p99 %.0f us, max %.0f us; %d (%.2f %%) over %.0f us.\n"
          % (len(done), pct(waits, 0.5), pct(waits, 0.99), max(waits), len(slow),
             100.0 * len(slow) / len(done), a.over))
    if not slow:
        return 0
    groups = collections.OrderedDict()
    for w in slow:
        n = len({p for p, _ in w["others"] if p != 0})
        key = ("the running task went on, then it ran" if n == 0 else
               "%d other task%s ran first" % (n, "" if n == 1 else "s"))
        groups.setdefault(key, []).append(w)
    print("| slow wakeups | count | wait p50 / max (us) | running task kept the CPU, p50 / max (us) "
          "| running task then | ran first (by name) |")
    print("|---|---|---|---|---|---|")
    for key, ws in sorted(groups.items()):
        left = collections.Counter(w["curr_left"] for w in ws)
        names = collections.Counter(c for w in ws for _, c in w["others"])
        print("| %s | %d | %.0f / %.0f | %.0f / %.0f | %s | %s |" % (
            key, len(ws), statistics.median(us(w["wait"]) for w in ws), max(us(w["wait"]) for w in ws),
            statistics.median(us(w["kept"]) for w in ws), max(us(w["kept"]) for w in ws),
            ", ".join("%s %d" % kv for kv in left.most_common()),
            ", ".join("%s %d" % kv for kv in names.most_common(4)) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
