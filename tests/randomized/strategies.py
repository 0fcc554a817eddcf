"""Hypothesis strategies for random circuits over a gate set, rich in cancellations and merges."""
from __future__ import annotations

import math

from hypothesis import strategies as st

import quartz
from quartz.gatesets import get_gate_set

GATE_SETS = ("nam", "clifford_t", "ibm", "rigetti")
MAX_QUBITS = 8
MAX_GATES = 60

_ARITY = {"cx": 2, "cz": 2, "ccz": 3, "ccx": 3}
_NUM_PARAMS = {"rz": 1, "rx": 1, "u1": 1, "u2": 2, "u3": 3}
_SELF_INVERSE = {"h", "x", "cx", "cz", "ccz", "ccx"}
_INVERSE_NAME = {"s": "sdg", "sdg": "s", "t": "tdg", "tdg": "t"}

# Exact multiples of pi/4 and pi/8 (what merging should fold exactly), and arbitrary floats.
angles = st.one_of(
    st.integers(-8, 8).map(lambda k: quartz.Param.pi(k, 4)),
    st.integers(-16, 16).map(lambda k: quartz.Param.pi(k, 8)),
    st.floats(-2 * math.pi, 2 * math.pi, allow_nan=False).map(quartz.to_param),
)


def _inverse(g: quartz.Gate) -> tuple:
    """(name, qubits, params) of the inverse gate, in the same gate set."""
    name, qubits, params = g
    if name in _SELF_INVERSE:
        return name, qubits, params
    if name in _INVERSE_NAME:
        return _INVERSE_NAME[name], qubits, params
    if name in ("rz", "rx", "u1"):
        return name, qubits, [-params[0]]
    if name == "u3":  # u3(t, f, l)^-1 = u3(-t, -l, -f)
        return name, qubits, [-params[0], -params[2], -params[1]]
    if name == "u2":  # u2(f, l)^-1 = u2(-l - pi, -f + pi)
        return name, qubits, [-params[1] - quartz.Param.pi(1), -params[0] + quartz.Param.pi(1)]
    raise AssertionError(f"no inverse rule for {name}")


@st.composite
def circuits(draw, gate_set: str, extra: tuple[str, ...] = (), max_qubits: int = MAX_QUBITS,
             max_gates: int = MAX_GATES) -> quartz.Circuit:
    """A random circuit over `gate_set` (plus `extra` gates) with inverse pairs and repeats."""
    names = list(get_gate_set(gate_set).gates) + list(extra)
    widest = max(_ARITY.get(g, 1) for g in names)
    n = draw(st.integers(min(widest, max_qubits), max_qubits))
    usable = [g for g in names if _ARITY.get(g, 1) <= n]
    c = quartz.Circuit(n)
    for _ in range(draw(st.integers(0, max_gates))):
        gates = list(c)
        move = draw(st.sampled_from(["new", "new", "new", "inverse", "repeat"]) if gates
                    else st.just("new"))
        if move == "new":
            name = draw(st.sampled_from(usable))
            qubits = draw(st.permutations(range(n)))[: _ARITY.get(name, 1)]
            params = [draw(angles) for _ in range(_NUM_PARAMS.get(name, 0))]
            c.append(name, qubits, params)
        else:
            # Undo or repeat one of the last few gates: cancellations and merges for the passes.
            g = gates[-1 - draw(st.integers(0, min(4, len(gates) - 1)))]
            c.append(*(_inverse(g) if move == "inverse" else g))
    return c
