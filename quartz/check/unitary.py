"""Dense comparison of two circuits' unitaries, global phase included (up to 2^10 x 2^10 in the
policies that use it; the matrix doubles in each dimension with every qubit).

Two ways: `max_entry_difference` builds quartz's own `Circuit.unitary()` of both circuits (the
optimizer's final check), `compare_operators` Qiskit's `Operator` of two QuantumCircuits (the
bench's check, which uses no quartz simulator) and also tells a difference by a global phase.

>>> from quartz.circuit import Circuit
>>> a = Circuit(1).h(0).x(0).h(0)
>>> max_entry_difference(a, Circuit(1).z(0)) < 1e-12
True
"""
from __future__ import annotations

import numpy as np

from quartz.circuit import Circuit

EQUIVALENT = "equivalent"
UP_TO_PHASE = "equivalent_up_to_global_phase"
NOT_EQUIVALENT = "not_equivalent"


def max_entry_difference(a: Circuit, b: Circuit) -> float:
    """The largest absolute entry of U_a - U_b, from quartz's Circuit.unitary() (0.0 for two empty
    circuits on no qubits)."""
    if not (a.num_qubits or len(a) or len(b)):
        return 0.0
    return float(np.max(np.abs(a.unitary() - b.unitary())))


def compare_operators(a, b) -> str:
    """EQUIVALENT, UP_TO_PHASE or NOT_EQUIVALENT for QuantumCircuits `a`, `b` (of the same
    qubit count), from Qiskit's Operator to 1e-7 per entry."""
    from qiskit.quantum_info import Operator

    ua, ub = Operator(a).data, Operator(b).data
    if np.allclose(ua, ub, atol=1e-7, rtol=0):
        return EQUIVALENT
    # Up to a phase: ub = c * ua for a unit scalar c (found from the largest entry).
    k = np.unravel_index(np.argmax(np.abs(ua)), ua.shape)
    if abs(ua[k]) > 1e-9:
        c = ub[k] / ua[k]
        if abs(abs(c) - 1) < 1e-7 and np.allclose(c * ua, ub, atol=1e-7, rtol=0):
            return UP_TO_PHASE
    return NOT_EQUIVALENT


__all__ = ["max_entry_difference", "compare_operators", "EQUIVALENT", "UP_TO_PHASE",
           "NOT_EQUIVALENT"]
