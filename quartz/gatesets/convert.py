"""Exact conversion of a circuit into a gate set, using the rules of `quartz.gatesets.rules`.

For each gate type outside the target set the converter picks the cheapest chain of rules that
ends in the target set (a shortest-path fixed point over the rule table); rules that cannot take
a particular angle (Clifford+T needs multiples of pi/4) fall back to the next cheapest. The
global phase of every rule is added to the result's `global_phase`, so the unitary is kept
exactly, phase included.

>>> from quartz import Circuit
>>> from quartz.gatesets import convert
>>> c = convert(Circuit(1).x(0), "rigetti")
>>> [(g.name, str(g.params[0])) for g in c], str(c.global_phase)
([('rx', 'pi')], 'pi/2')
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from quartz._core import Param
from quartz.errors import GateSetError
from quartz.gatesets.gate_set import GateSet, get_gate_set
from quartz.gatesets.rules import RULES, NotApplicable, Rule

if TYPE_CHECKING:  # pragma: no cover
    from quartz.circuit import Circuit

_INF = float("inf")
# Gates (name, slots or None = the gate's own qubits, params) and the phase they miss.
_Expansion = tuple[list[tuple[str, "tuple[int, ...] | None", tuple[Param, ...]]], Param]


@lru_cache(maxsize=64)
def _plan(gates: tuple[str, ...]) -> tuple[dict[str, float], dict[str, tuple[Rule, ...]]]:
    """Cost (gates emitted) of each gate type in the target set `gates`, and its rules by cost."""
    from quartz.circuit import GATE_NAMES

    cost: dict[str, float] = {g: (1.0 if g in gates else _INF) for g in GATE_NAMES}
    changed = True
    while changed:  # Bellman-Ford style relaxation; costs are positive, so it converges
        changed = False
        for r in RULES:
            if r.gate in gates:
                continue
            c = sum(cost[u] for u in r.uses)
            if c < cost[r.gate]:
                cost[r.gate] = c
                changed = True
    order: dict[str, tuple[Rule, ...]] = {}
    for g in GATE_NAMES:
        if g in gates:
            continue
        viable = [(sum(cost[u] for u in r.uses), i, r) for i, r in enumerate(RULES)
                  if r.gate == g and all(cost[u] < _INF for u in r.uses)]
        order[g] = tuple(r for _, _, r in sorted(viable, key=lambda t: (t[0], t[1])))
    return cost, order


class _Converter:
    def __init__(self, gate_set: GateSet):
        self.gate_set = gate_set
        self.cost, self.order = _plan(gate_set.gates)
        self.cache: dict[tuple[str, tuple[Param, ...]], _Expansion] = {}

    def expand(self, name: str, params: tuple[Param, ...],
               path: tuple[str, ...] = ()) -> _Expansion:
        """Gates over slots (0, 1, 2 = the gate's qubits) equal to e^{-i phase} * gate."""
        if name in self.gate_set.gates:
            return [(name, None, params)], Param()
        key = (name, params)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        reasons = []
        for rule in self.order.get(name, ()):
            if any(u in path or u == name for u in rule.uses):
                continue  # a cycle of renames (rz -> p -> rz); cheaper rules come first
            try:
                emitted, phase = rule.expand(params)
                out: list[tuple[str, tuple[int, ...] | None, tuple[Param, ...]]] = []
                total = phase
                for sub_name, slots, sub_params in emitted:
                    sub, sub_phase = self.expand(sub_name, sub_params, path + (name,))
                    total = total + sub_phase
                    for g, sub_slots, p in sub:
                        out.append((g, slots if sub_slots is None else
                                    tuple(slots[s] for s in sub_slots), p))
            except NotApplicable as e:
                if str(e):
                    reasons.append(str(e))
                continue
            self.cache[key] = (out, total)
            return out, total
        raise NotApplicable("; ".join(dict.fromkeys(reasons)))


def convert(circuit: Circuit, gate_set: str | GateSet) -> Circuit:
    """An equal circuit (global phase included) that uses only the gates of `gate_set`."""
    from quartz.circuit import Circuit

    gs = get_gate_set(gate_set)
    conv = _Converter(gs)
    out = Circuit(circuit.num_qubits, name=circuit.name)
    native = out.native
    phase = circuit.global_phase
    for i, g in enumerate(circuit):
        if g.name in gs.gates:
            native.add_gate(g.name, list(g.qubits), list(g.params))
            continue
        angles = ", ".join(str(p) for p in g.params)
        label = f"{g.name}({angles})" if g.params else g.name
        if conv.cost.get(g.name, _INF) == _INF:
            raise GateSetError(f"gate {label} (gate {i}) cannot be expressed in gate set "
                               f"'{gs.name}' ({', '.join(gs.gates)})")
        try:
            gates, ph = conv.expand(g.name, g.params)
        except NotApplicable as e:
            why = str(e) or "no chain of rules applies"
            raise GateSetError(f"gate {label} (gate {i}) cannot be converted exactly to gate set "
                               f"'{gs.name}' ({', '.join(gs.gates)}): {why}") from None
        phase = phase + ph
        for name, slots, params in gates:
            assert slots is not None  # only a gate of the set itself is expanded in place
            native.add_gate(name, [g.qubits[s] for s in slots], list(params))
    if phase.is_symbolic:  # pragma: no cover - rules reject symbolic phases
        raise GateSetError("conversion produced a symbolic global phase")
    reduced, _ = phase.reduced(1)
    out.global_phase = reduced
    return out


def convertible(gate: str, gate_set: str | GateSet) -> bool:
    """True when some chain of rules writes `gate` over the gates of `gate_set`."""
    return _plan(get_gate_set(gate_set).gates)[0].get(gate, _INF) < _INF


__all__ = ["convert", "convertible"]
