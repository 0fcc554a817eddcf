"""`--work UNITS`, shared by `quartz optimize` and `quartz bench`: the search's budget in work
units per thread, so that a seed gives the same circuit on a slow, fast or loaded machine.

>>> work_units("4e7")
40000000
"""
from __future__ import annotations

import argparse

WORK_HELP = ("the search's budget in work units per thread (e.g. 4e7; about 4 million a second "
             "per thread here) as well as --timeout, which still ends it when it comes first: "
             "with the same seed and threads, the same circuit on any machine and at any load "
             "(method search, algorithm anneal; --patience auto is off with it)")


def work_units(text: str) -> int:
    """--work's value: a whole, non-negative number of work units ('40000000' or '4e7')."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of work units: {text!r}") from None
    if not (0 <= value <= 2**62 and value == int(value)):
        raise argparse.ArgumentTypeError(f"--work must be a whole number of work units "
                                         f"between 0 and 2^62, got {text!r}")
    return int(value)
