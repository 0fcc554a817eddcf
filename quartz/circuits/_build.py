"""Shared building blocks: a gate-list builder, H-pair cancellation and lowering to a gate set.

Generators describe a circuit with high-level gates (ccx/ccz, cp, swap, t, ...) in a `Builder`,
then `finish()` cancels the H pairs that the ccx = h.ccz.h expansion leaves back to back (as the
standard benchmark files do) and converts the result into the requested gate set, exactly and
with the global phase kept.

>>> from quartz.circuits._build import Builder
>>> b = Builder(3); _ = b.ccx(0, 1, 2); _ = b.ccx(0, 1, 2)
>>> b.finish("ccz").count_ops()
{'ccz': 2, 'h': 2}
"""
from __future__ import annotations

from typing import Iterable

import quartz
from quartz import Circuit, Param

# Gate-set names that mean "keep the high-level gates": ccz plus h/x/cx and the rest as built.
NATIVE = ("ccz", "native")


class Builder:
    """An append-only list of (name, qubits, params) with ccx written as h.ccz.h."""

    def __init__(self, num_qubits: int):
        if isinstance(num_qubits, bool) or not isinstance(num_qubits, int) or num_qubits < 1:
            raise quartz.QuartzError(f"a circuit needs at least one qubit, got {num_qubits!r}")
        self.num_qubits = num_qubits
        self.gates: list[tuple[str, tuple[int, ...], tuple]] = []
        self.global_phase = Param.pi(0, 1)

    def add(self, name: str, *qubits: int, params: Iterable = ()) -> "Builder":
        """Append one gate."""
        self.gates.append((name, tuple(qubits), tuple(params)))
        return self

    def __getattr__(self, name: str):
        if name in quartz.circuit.GATE_NAMES:
            return lambda *qubits: self.add(name, *qubits)
        raise AttributeError(name)

    def ccx(self, a: int, b: int, t: int) -> "Builder":
        """Toffoli as h(t) ccz(a, b, t) h(t) (the benchmark files' form)."""
        return self.add("h", t).add("ccz", a, b, t).add("h", t)

    def cp(self, theta: Param, a: int, b: int) -> "Builder":
        """Controlled phase diag(1, 1, 1, e^{i theta})."""
        return self.add("cp", a, b, params=(theta,))

    def circuit(self, cancel_h: bool = True, name: str | None = None) -> Circuit:
        """The gates as a quartz.Circuit, with back-to-back H pairs on a wire removed."""
        gates = cancel_h_pairs(self.gates) if cancel_h else list(self.gates)
        c = Circuit(self.num_qubits, name=name)
        for g, qs, ps in gates:
            c.append(g, qs, ps)
        c.global_phase = self.global_phase
        return c

    def finish(self, gate_set: str = "nam", name: str | None = None) -> Circuit:
        """The circuit converted into `gate_set` ('ccz' keeps ccz and the high-level gates)."""
        return to_gate_set(self.circuit(name=name), gate_set)


def cancel_h_pairs(gates: list) -> list:
    """Drop pairs of H gates on one wire with no other gate on that wire between them."""
    alive = [True] * len(gates)
    stacks: dict[int, list[int]] = {}
    for i, (name, qubits, _) in enumerate(gates):
        if name == "h":
            st = stacks.setdefault(qubits[0], [])
            if st and gates[st[-1]][0] == "h":
                alive[st.pop()] = False
                alive[i] = False
                continue
        for q in qubits:
            stacks.setdefault(q, []).append(i)
    return [g for g, keep in zip(gates, alive) if keep]


def to_gate_set(c: Circuit, gate_set: str = "nam") -> Circuit:
    """Convert `c` exactly (global phase kept) into `gate_set`; 'ccz'/'native' returns `c`."""
    if isinstance(gate_set, str) and gate_set.strip().lower() in NATIVE:
        return c
    from quartz.gatesets import convert

    out = convert(c, gate_set)
    out.name = c.name
    return out
