"""Cost functions of the search: gate count (default), two-qubit count, CX count, T count,
depth, or a user weighting (a dict of gate weights or a callable on `quartz.Circuit`).

Named costs other than "gates" add 0.001 per gate as a tie-break, so that among circuits of
equal primary cost the search still prefers fewer gates; `Cost.value` reports the primary
metric itself.

>>> from quartz import Circuit
>>> c = Circuit(2).h(0).cx(0, 1).t(1)
>>> get_cost("gates").value(c), get_cost("two_qubit").value(c), get_cost("t_count").value(c)
(3.0, 1.0, 1.0)
>>> get_cost({"cx": 10, "default": 1}).value(c)
12.0
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Union

from quartz import _core
from quartz.circuit import GATE_NAMES, Circuit
from quartz.errors import QuartzError

TIE = 0.001
TWO_QUBIT = [g for g in GATE_NAMES if _core.gate_info(g)[0] == 2]

CostLike = Union[str, Mapping[str, float], Callable[[Circuit], float], "Cost"]


@dataclass
class Cost:
    """A search cost: `spec` (native, what the search minimises) and `value` (the metric)."""

    name: str
    spec: _core.CostSpec
    metric: Callable[[Circuit], float]

    def value(self, circuit: Circuit) -> float:
        """The metric of a circuit (e.g. its gate count), without tie-breaks."""
        return float(self.metric(circuit))

    def search_value(self, circuit: Circuit) -> float:
        """What the search minimises (the metric plus any tie-break)."""
        return float(self.spec(circuit.native))


def _gates() -> Cost:
    return Cost("gates", _core.CostSpec(), lambda c: len(c))


def _two_qubit() -> Cost:
    return Cost("two_qubit", _core.CostSpec({g: 1.0 for g in TWO_QUBIT}, default_weight=TIE),
                lambda c: c.two_qubit_count)


def _cx() -> Cost:
    return Cost("cx", _core.CostSpec({"cx": 1.0}, default_weight=TIE), lambda c: c.cx_count)


def _t_count() -> Cost:
    return Cost("t_count", _core.CostSpec(default_weight=TIE, t_weight=1.0), lambda c: c.t_count)


def _depth() -> Cost:
    return Cost("depth", _core.CostSpec(default_weight=TIE, depth_weight=1.0), lambda c: c.depth)


NAMED: dict[str, Callable[[], Cost]] = {
    "gates": _gates, "gate_count": _gates, "total": _gates,
    "two_qubit": _two_qubit, "2q": _two_qubit, "two_qubit_count": _two_qubit,
    "cx": _cx, "cx_count": _cx, "cnot": _cx,
    "t_count": _t_count, "t": _t_count, "tcount": _t_count,
    "depth": _depth,
}


def weighted(weights: Mapping[str, float]) -> Cost:
    """Sum of per-gate weights; keys are gate names plus optional "default" (weight of
    unlisted gates, 1 if absent), "t" (extra weight per T-like gate) and "depth"."""
    w = dict(weights)
    default = float(w.pop("default", 1.0))
    t_weight = float(w.pop("t", 0.0))
    depth_weight = float(w.pop("depth", 0.0))
    for g, v in w.items():
        if g not in GATE_NAMES:
            raise QuartzError(f"unknown gate '{g}' in cost weights; known gates: {', '.join(GATE_NAMES)}")
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise QuartzError(f"cost weight of '{g}' must be a number, got {v!r}")
    spec = _core.CostSpec({g: float(v) for g, v in w.items()}, default_weight=default,
                          t_weight=t_weight, depth_weight=depth_weight)
    return Cost("weighted", spec, lambda c: spec(c.native))


def from_callable(fn: Callable[[Circuit], float]) -> Cost:
    """A cost computed by a Python function of a `quartz.Circuit` (slower: it holds the GIL)."""
    def native_fn(native: _core.Circuit) -> float:
        return float(fn(Circuit._wrap(native)))

    return Cost(getattr(fn, "__name__", "callable"), _core.CostSpec(callable=native_fn), fn)


def get_cost(cost: CostLike) -> Cost:
    """A Cost from a name ('gates', 'two_qubit', 'cx', 't_count', 'depth'), dict or callable."""
    if isinstance(cost, Cost):
        return cost
    if isinstance(cost, str):
        key = cost.strip().lower().replace("-", "_")
        if key not in NAMED:
            raise QuartzError(f"unknown cost '{cost}'; choose one of gates, two_qubit, cx, t_count, "
                              "depth, or pass a dict of gate weights or a callable")
        return NAMED[key]()
    if isinstance(cost, Mapping):
        return weighted(cost)
    if callable(cost):
        return from_callable(cost)
    raise QuartzError(f"cost must be a name, a dict of gate weights or a callable, got {type(cost).__name__}")
