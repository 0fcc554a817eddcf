"""Equivalence check of an optimized circuit against its input (unitaries or random states).

Full unitaries up to 10 qubits; above that, three random states (a 12-qubit unitary takes
~40 s here against ~0.05 s for the states, and a wrong circuit passes a random state with
probability ~0).
"""
from __future__ import annotations

import numpy as np

from quartz.circuit import Circuit
from quartz.errors import EquivalenceError


def _close_up_to_phase(a: np.ndarray, b: np.ndarray, atol: float) -> bool:
    k = int(np.argmax(np.abs(a)))
    if abs(a.flat[k]) < 1e-12:
        return bool(np.allclose(a, b, atol=atol))
    phase = b.flat[k] / a.flat[k]
    return bool(abs(abs(phase) - 1) < atol and np.allclose(a * phase, b, atol=atol))


def equivalent(a: Circuit, b: Circuit, *, max_unitary_qubits: int = 10, states: int = 3,
               seed: int = 0, atol: float = 1e-7, up_to_phase: bool = False) -> bool:
    """True when a and b implement the same unitary (including global phase unless told)."""
    if a.num_qubits != b.num_qubits:
        return False
    n = a.num_qubits
    if n <= max_unitary_qubits:
        ua, ub = a.unitary(), b.unitary()
        return _close_up_to_phase(ua, ub, atol) if up_to_phase else bool(np.allclose(ua, ub, atol=atol))
    rng = np.random.default_rng(seed)
    for _ in range(states):
        psi = rng.normal(size=2**n) + 1j * rng.normal(size=2**n)
        psi /= np.linalg.norm(psi)
        sa, sb = a.apply(psi), b.apply(psi)
        ok = _close_up_to_phase(sa, sb, atol) if up_to_phase else np.allclose(sa, sb, atol=atol)
        if not ok:
            return False
    return True


def check_equivalent(original: Circuit, optimized: Circuit, **kw) -> None:
    """Raise EquivalenceError when the optimized circuit differs from the original."""
    if not equivalent(original, optimized, **kw):
        raise EquivalenceError(
            f"RL output ({len(optimized)} gates) is not equivalent to its input "
            f"({len(original)} gates); this is a bug in quartz, please report it")
