"""Greedy finishing pass: apply cost-reducing transformations until none is left."""
from __future__ import annotations

import time
from typing import Callable

from quartz.circuit import Circuit


def greedy_pass(matcher, circuit: Circuit, cost_fn: Callable[[Circuit], float],
                deadline: float | None = None) -> Circuit:
    """Repeatedly apply the first transformation that lowers the cost (until `deadline`)."""
    cur, cur_cost = circuit, float(cost_fn(circuit))
    improved = True
    while improved:
        improved = False
        for gate, xfer in matcher.applicable(cur):
            if deadline is not None and time.monotonic() > deadline:
                return cur
            new = matcher.apply(cur, gate, xfer)
            if new is not None:
                c = float(cost_fn(new))
                if c < cur_cost:
                    cur, cur_cost, improved = new, c, True
                    break
    return cur
