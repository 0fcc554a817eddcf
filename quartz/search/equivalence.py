"""The equivalence check every optimizer result passes before it is returned.

Up to 10 qubits the two unitaries are compared entry by entry (global phase included; at 12
qubits building both unitaries takes tens of seconds, longer than many searches); up to
20 qubits on random input states through `Circuit.apply` (phase included); beyond that by a
path-sum proof (quartz.pathsum_check: exact, and fast on h/cx/phase circuits of any size), then
with quartz.qcec_check (mqt.qcec's ZX checker plus a decision-diagram simulation for the global
phase, the alternating checker as fallback) when mqt.qcec is installed. Without a proof and
without qcec the check is skipped and says so.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from quartz.circuit import Circuit

UNITARY_MAX_QUBITS = 10
STATES_MAX_QUBITS = 20


@dataclass(frozen=True)
class Check:
    """Result of an equivalence check: ok (None = could not be checked), method, detail."""

    ok: bool | None
    method: str
    detail: str = ""


# Seconds per gate and amplitude of Circuit.apply, to tell whether random states fit a budget.
_APPLY_SECONDS = 4e-9
# Below this budget qcec cannot decide a benchmark-size pair; the check is skipped (ok=None).
QCEC_MIN_SECONDS = 0.5
# Share of the check's budget the path-sum proof may take before qcec runs.
PATH_SUM_SHARE = 0.5


def check_equivalent(a: Circuit, b: Circuit, *, states: int = 3, seed: int = 0,
                     atol: float = 1e-7, timeout: float | None = None) -> Check:
    """Whether `b` implements exactly the unitary of `a`, global phase included.

    With `timeout`, random states are only used when they fit in it, else qcec runs with
    that timeout (an undecided qcec gives ok=None).
    """
    if a.num_qubits != b.num_qubits:
        return Check(False, "qubits", f"{a.num_qubits} vs {b.num_qubits} qubits")
    n = a.num_qubits
    if n <= UNITARY_MAX_QUBITS:
        d = float(np.max(np.abs(a.unitary() - b.unitary()))) if n or len(a) or len(b) else 0.0
        return Check(d <= atol, "unitary", f"max entry difference {d:.2e}")
    cost = states * (len(a) + len(b)) * 2.0**n * _APPLY_SECONDS
    if n <= STATES_MAX_QUBITS and (timeout is None or cost <= timeout):
        rng = np.random.default_rng(seed)
        worst = 0.0
        for _ in range(states):
            psi = rng.normal(size=2**n) + 1j * rng.normal(size=2**n)
            psi /= np.linalg.norm(psi)
            worst = max(worst, float(np.max(np.abs(a.apply(psi) - b.apply(psi)))))
        return Check(worst <= atol, "random states", f"max amplitude difference {worst:.2e}")
    started = time.monotonic()
    budget = 60.0 if timeout is None else timeout
    proof = _path_sum(a, b, started + PATH_SUM_SHARE * budget)
    if proof is not None:
        return proof
    left = budget - (time.monotonic() - started)
    if left < QCEC_MIN_SECONDS:
        return Check(None, "none", f"{left:.2f} s left: too little for qcec on {n} qubits")
    return _qcec(a, b, left)


def _path_sum(a: Circuit, b: Circuit, deadline: float) -> Check | None:
    """A Check from a path-sum proof (equal, or equal up to a nonzero phase), else None."""
    from quartz.pathsum_check import EQUIVALENT, path_sum_phase

    phase = path_sum_phase(a.to_qiskit(), b.to_qiskit(), deadline)
    if phase is None:
        return None
    if abs((phase + np.pi) % (2 * np.pi) - np.pi) < 1e-9:
        return Check(True, "path sum", EQUIVALENT)
    return Check(False, "path sum", f"equal up to a global phase of {phase:.6g} rad")


def _qcec(a: Circuit, b: Circuit, timeout: float = 30.0) -> Check:
    try:
        from quartz.qcec_check import prove_equal
        import mqt.qcec  # noqa: F401
    except ImportError:
        return Check(None, "none", f"{a.num_qubits} qubits is too many to simulate and "
                                   "mqt.qcec is not installed")
    verdict, how = prove_equal(a.to_qiskit(), b.to_qiskit(),
                               max(0.05, timeout - 1e-4 * (len(a) + len(b))))
    if verdict == "equivalent":
        return Check(True, "qcec", f"{verdict} ({how})")
    if verdict in ("not_equivalent", "equivalent_up_to_global_phase"):
        return Check(False, "qcec", f"{verdict} ({how})")
    return Check(None, "qcec", f"{verdict} (qcec gave no answer within {timeout:g} s)")
