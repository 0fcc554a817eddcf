"""Independent equivalence check of two circuits: path sums and mqt.qcec, plus Qiskit's Operator
on few qubits.

No check uses quartz's own simulator, verifier or optimizer, and all compare global phase:
quartz.pathsum_check proves equality by reducing the path sum of a b^-1 (built from both ends)
or of b^-1 a to the identity (fast and exact on h/cx/phase circuits such as gf2^32_mult, where
QCEC gives no answer; a sum that does not reduce proves nothing); quartz.qcec_check writes each circuit's global phase as
gates, proves proportionality with QCEC's ZX checker and reads the scalar off decision-diagram simulations of
basis states, with QCEC's alternating checker as the fallback. Both always run. The verdict is
"not_equivalent" when any check found a difference (a global phase included), "equivalent"
when a check proved the exact same unitary and none found a difference, otherwise "unknown".

>>> import quartz
>>> a = quartz.Circuit(2).h(0).cx(0, 1)
>>> check_equivalence(a, a.copy().x(1)).verdict
'not_equivalent'
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Union

from quartz.errors import EquivalenceError, QuartzError

EQUIVALENT = "equivalent"
NOT_EQUIVALENT = "not_equivalent"
UP_TO_PHASE = "equivalent_up_to_global_phase"
UNKNOWN = "unknown"
NO_PROOF = "no proof"
QCEC_NOT_INSTALLED = "skipped (mqt.qcec is not installed)"
# Share of the timeout the path-sum proof may take before QCEC runs.
PATH_SUM_SHARE = 0.25

# Largest qubit count for which the dense Operator comparison runs (2^10 x 2^10 matrices).
MAX_OPERATOR_QUBITS = 10

CircuitLike = Union["quartz.Circuit", "qiskit.QuantumCircuit"]  # noqa: F821


@dataclass(frozen=True)
class EquivalenceResult:
    """Outcome of `check_equivalence`: the verdict and what each checker said."""

    verdict: str            # "equivalent" | "not_equivalent" | "unknown"
    qcec: str               # QCEC's raw verdict, "timeout", "error: ...", or "skipped"
    operator: str | None    # "equivalent" | "equivalent_up_to_global_phase" | "not_equivalent" | None
    seconds: float
    path_sum: str = "not run"  # "equivalent" | "equivalent_up_to_global_phase" | "no proof"

    @property
    def ok(self) -> bool:
        """True when the circuits were proven to have the same unitary, global phase included."""
        return self.verdict == EQUIVALENT

    def describe(self) -> str:
        """One line: verdict and the individual checkers' answers."""
        op = "not run" if self.operator is None else self.operator
        return (f"{self.verdict} (path sum: {self.path_sum}; qcec: {self.qcec}; operator: {op}; "
                f"{self.seconds:.2f} s)")


def _to_qiskit(circ):
    """A QuantumCircuit for a quartz.Circuit or QuantumCircuit (concrete angles only)."""
    from qiskit import QuantumCircuit

    if isinstance(circ, QuantumCircuit):
        if circ.parameters:
            raise QuartzError("equivalence check needs concrete circuits, got free parameters")
        return circ
    from quartz.circuit import Circuit

    if not isinstance(circ, Circuit):
        raise QuartzError(f"expected a quartz.Circuit or qiskit QuantumCircuit, got {type(circ).__name__}")
    if circ.num_symbols:
        raise QuartzError("equivalence check needs concrete circuits, got symbolic angles")
    return circ.to_qiskit()


def qcec_missing() -> str | None:
    """None when mqt.qcec imports, else the missing package (an optional dependency: the bench
    extra); without it the check is path sums and Qiskit's Operator only."""
    try:
        import mqt.qcec  # noqa: F401
    except ImportError as e:
        return e.name or "mqt.qcec"
    return None


def _qcec(a, b, timeout: float, hard_deadline: float | None) -> str:
    from quartz.qcec_check import prove_equal

    if qcec_missing():
        return QCEC_NOT_INSTALLED
    return prove_equal(a, b, timeout, hard_deadline)[0]


def _path_sum(a, b, deadline: float) -> str:
    from quartz.pathsum_check import prove_equal_path_sum

    return prove_equal_path_sum(a, b, deadline) or NO_PROOF


def _operator(a, b) -> str:
    import numpy as np
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


def check_equivalence(original: CircuitLike, optimized: CircuitLike, *, timeout: float = 60.0,
                      max_operator_qubits: int = MAX_OPERATOR_QUBITS,
                      hard_deadline: float | None = None) -> EquivalenceResult:
    """Check that two concrete circuits have the same unitary, global phase included."""
    start = time.perf_counter()
    a, b = _to_qiskit(original), _to_qiskit(optimized)
    if a.num_qubits != b.num_qubits:
        return EquivalenceResult(NOT_EQUIVALENT, f"skipped (qubit counts {a.num_qubits} != "
                                 f"{b.num_qubits})", None, time.perf_counter() - start)
    operator = _operator(a, b) if a.num_qubits <= max_operator_qubits else None
    path_sum = _path_sum(a, b, time.monotonic() + PATH_SUM_SHARE * timeout)
    if a.num_qubits == 0:
        qcec_verdict = "skipped (no qubits)"
    else:
        # `timeout` bounds the whole check: what converting took is not left for qcec.
        # qcec's own reading of the circuits (about 1e-4 s a gate) is not under its timeout.
        left = max(0.05, timeout - (time.perf_counter() - start) - 1e-4 * (len(a.data) + len(b.data)))
        qcec_verdict = _qcec(a, b, left, hard_deadline)
    answers = [v for v in (qcec_verdict, operator, path_sum) if v is not None]
    if any(v in (NOT_EQUIVALENT, UP_TO_PHASE) for v in answers):
        verdict = NOT_EQUIVALENT
    elif EQUIVALENT in answers:
        # Operator is a complete check on its own; QCEC's and the path sum's "equivalent" are proofs.
        verdict = EQUIVALENT
    else:
        verdict = UNKNOWN
    return EquivalenceResult(verdict, qcec_verdict, operator, time.perf_counter() - start,
                             path_sum)


def assert_equivalent(original: CircuitLike, optimized: CircuitLike, *, name: str | None = None,
                      **kwargs) -> EquivalenceResult:
    """`check_equivalence`, raising EquivalenceError (naming the circuit) unless equivalent."""
    result = check_equivalence(original, optimized, **kwargs)
    if not result.ok:
        label = f"'{name}'" if name else "circuit"
        raise EquivalenceError(f"{label}: output is not proven equivalent to the input: "
                               f"{result.describe()}")
    return result


__all__ = ["EquivalenceResult", "check_equivalence", "assert_equivalent", "MAX_OPERATOR_QUBITS",
           "EQUIVALENT", "NOT_EQUIVALENT", "UNKNOWN", "UP_TO_PHASE", "NO_PROOF"]
