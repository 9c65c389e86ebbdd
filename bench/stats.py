"""Confidence intervals for benchmark comparisons (issue 16).

A cell's data for one variant is {round: [values]}. A round boots each
kernel once, in turn, so the round is the unit that repeats, and the two
boots of one round share the host's state at that time: the interval is
built from per-round statistics, paired within the round.

The point value is the statistic on all data: median(new) / median(base)
for a ratio, median(new) - median(base) for a difference, the geomean of
the cells' ratios for a goal. Its 95 % interval is
    point * exp(+- t(n-1) * k * sd(log x_r) / sqrt(n))   (ratios, geomeans)
    point +- t(n-1) * k * sd(x_r) / sqrt(n)               (differences)
where x_r is the same statistic computed on round r alone (for a goal, the
geomean over its cells of round r's ratios), t(n-1) is Student's quantile
for n rounds and k = sqrt(pi / 2) allows for the point being a median. A percentile bootstrap over rounds, tried first,
has only 35 distinct draws with 4 rounds and gave 95 % intervals that
excluded the truth 10-12 % of the time in simulated A/A runs; the t
interval allows for how little 4 rounds say. Deterministic.
Python 3 standard library only.
"""
import math
import statistics

LEVEL = 0.95
METHOD = "paired t interval over per-round statistics"
# The point is a ratio of medians, not a mean: its standard error is up to
# sqrt(pi / 2) times the mean's (the median's asymptotic efficiency), which
# the interval allows for.
MEDIAN_SE = math.sqrt(math.pi / 2)
# Student's t, two-sided 95 %, by degrees of freedom (larger: the next lower entry)
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}


def t975(df):
    """Student's t quantile 0.975 for df degrees of freedom (conservative between table rows)."""
    return T975[max(k for k in T975 if k <= df)] if df < 1000 else 1.960


def pool(by_round, rounds=None):
    """The values of the given rounds; all rounds when None."""
    return [x for r in (sorted(by_round) if rounds is None else rounds) for x in by_round.get(r, ())]


def ratio(base, new):
    """median(new) / median(base), None when the base median is 0."""
    b = statistics.median(base)
    return statistics.median(new) / b if b else None


def diff(base, new):
    """median(new) - median(base)."""
    return statistics.median(new) - statistics.median(base)


def geomean(xs):
    """Geometric mean; None when a value is missing or not positive."""
    if not xs or any(x is None or x <= 0 for x in xs):
        return None
    return math.exp(sum(map(math.log, xs)) / len(xs))


def common_rounds(cells):
    """The rounds present for both variants of every (base, new) cell."""
    sets = [set(b) & set(n) for b, n in cells]
    return sorted(set.intersection(*sets)) if sets else []


def interval(cells, stat, combine=None, log=True, level=LEVEL):
    """Paired t interval of combine([stat(base, new) for each cell]).

    cells: [(base, new)], each {round: [values]}. The point value uses all
    data; the spread comes from the statistic computed round by round, on
    the rounds common to every cell, on a log scale when `log` (ratios).
    Returns {"point", "lo", "hi", "n_rounds"}; lo and hi are None with
    fewer than 2 common rounds or a round where the statistic is undefined.
    """
    if level != 0.95:
        raise ValueError("only 95 % intervals are tabulated")
    combine = combine or (lambda xs: xs[0])
    point = combine([stat(pool(base), pool(new)) for base, new in cells]) if cells else None
    rounds = common_rounds(cells)
    out = {"point": point, "lo": None, "hi": None, "n_rounds": len(rounds)}
    if point is None or len(rounds) < 2 or (log and point <= 0):
        return out
    per_round = []
    for r in rounds:
        x = combine([stat(base[r], new[r]) for base, new in cells])
        if x is None or (log and x <= 0):
            return out
        per_round.append(math.log(x) if log else x)
    half = t975(len(rounds) - 1) * MEDIAN_SE * statistics.stdev(per_round) / math.sqrt(len(rounds))
    if log:
        out["lo"], out["hi"] = point * math.exp(-half), point * math.exp(half)
    else:
        out["lo"], out["hi"] = point - half, point + half
    return out


def ratio_ci(base, new, **kw):
    """One cell: median(new) / median(base) with its paired interval."""
    return interval([(base, new)], ratio, **kw)


def diff_ci(base, new, **kw):
    """One cell: median(new) - median(base) with its paired interval."""
    return interval([(base, new)], diff, log=False, **kw)


def geomean_ci(cells, **kw):
    """Geomean of several cells' ratios; round r's value is the geomean of round r's ratios."""
    return interval(cells, ratio, geomean, **kw)


def resolved(ci, at=1.0):
    """True when the interval excludes `at` (1.0 for ratios, 0 for differences)."""
    return ci["lo"] is not None and (ci["hi"] < at or ci["lo"] > at)


def half_width(ci):
    return None if ci["lo"] is None else (ci["hi"] - ci["lo"]) / 2


def goal_status(ci, test, target):
    """"met", "missed" or "unresolved" for the target `test target` (<= or >=).

    met: the whole interval satisfies the target; missed: none of it does.
    Without an interval the point value decides when there were at least
    2 rounds (a statistic undefined in some resample), else "unresolved".
    """
    lo, hi = ci["lo"], ci["hi"]
    if lo is None:
        if ci["point"] is None or ci["n_rounds"] < 2:
            return "unresolved"
        lo = hi = ci["point"]
    if test == ">=":
        lo, hi, target = -hi, -lo, -target
    elif test != "<=":
        raise ValueError("test must be <= or >=: %r" % test)
    if hi <= target:
        return "met"
    return "missed" if lo > target else "unresolved"
