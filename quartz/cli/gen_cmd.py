"""`quartz gen`: not built yet (see the open issue for this sub-command)."""
from __future__ import annotations

from quartz.errors import QuartzError


def add_parser(sub):
    return sub.add_parser("gen", help="(not available yet)")


def run(args) -> int:
    raise QuartzError("'quartz gen' is not available yet in this build")
