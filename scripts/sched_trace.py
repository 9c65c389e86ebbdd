"""The sched events of a kernel text trace, for the trace scripts.

The trace is the kernel's text trace (scripts/guest-trace.sh), a line an
event:

  TASK-TID [CPU] FLAGS TS: sched_EVENT: NAME=VALUE ...

events(path) yields each sched_* event of such a file as an Event; the
other lines (headers, other events) are passed over. Imported by
wakeup-tail.py and trace-summary.py. Python 3 standard library only.
"""
import collections
import re

LINE = re.compile(r"^\s*(?P<task>.+?)-(?P<tid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S+\s+(?P<ts>\d+\.\d+):\s+"
                  r"(?P<ev>sched_\w+):\s+(?P<rest>.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")

# ev: the event's name (sched_switch, ...); cpu: the CPU it was recorded
# on; ts: its time in seconds; fields: its NAME=VALUE fields, a dict of
# strings; task and tid: the name and thread id of the task that was
# running when it was recorded.
Event = collections.namedtuple("Event", "ev cpu ts fields task tid")


def comm(fields, name, text, after):
    """A task name may hold spaces: take it whole, from the text before the
    field after it, where that is there."""
    m = re.search(r"%s=(.*?) %s=" % (name, after), text)
    if m:
        fields[name] = m.group(1)


def parse_fields(ev, rest):
    """The fields of an event ev whose text after "ev: " is rest. Those of
    sched_switch's previous task are named prev_*, of its next task next_*."""
    if ev == "sched_switch":
        prev, _, nxt = rest.partition(" ==> ")
        d = {"prev_" + k if not k.startswith("prev_") else k: v for k, v in FIELD.findall(prev)}
        d.update(FIELD.findall(nxt))
        comm(d, "prev_comm", prev, "prev_pid")
        comm(d, "next_comm", nxt, "next_pid")
    else:
        d = dict(FIELD.findall(rest))
        comm(d, "comm", rest, "pid")
    return d


def events(path):
    """The sched events of the trace in file path, in order (an OSError if
    it cannot be read)."""
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                ev = m.group("ev")
                yield Event(ev, int(m.group("cpu")), float(m.group("ts")),
                            parse_fields(ev, m.group("rest")), m.group("task"), int(m.group("tid")))
