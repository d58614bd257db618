"""What the readers of `magnus bench` outputs (bench/compare.py, bench/plot.py,
scripts/vendor_summary.py) share: a cell read as a number, and today's algorithm names.

gMAGNUS was "magnus" in the outputs before issue 35 (systems "magnus@cuda:0", algorithm
"magnus"): older results are read under today's name, "gmagnus"."""
import math


def number(value):
    """A cell as a finite float; None for an empty, missing, non-numeric or infinite one."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def current_system(system):
    """A system id ("magnus@cuda:0", "label:magnus@cuda:0") under today's algorithm names."""
    head, at, device = system.partition("@")
    label, colon, name = head.rpartition(":")
    return label + colon + ("gmagnus" if name == "magnus" else name) + at + device


def current_names(r):
    """Row r with gMAGNUS's former name replaced in its system and algorithm columns."""
    r = dict(r)
    if r.get("system"):
        r["system"] = current_system(r["system"])
    for column in ("algorithm", "algorithm_ran", "algorithm_requested"):
        if r.get(column) == "magnus":
            r[column] = "gmagnus"
    return r
