"""Exact unitary comparison through Qiskit's Operator (independent of quartz's simulator)."""
from __future__ import annotations

import numpy as np

import quartz


def unitary(c: quartz.Circuit) -> np.ndarray:
    """Qiskit's Operator of a quartz circuit, global phase included."""
    from qiskit.quantum_info import Operator

    return Operator(c.to_qiskit()).data


def assert_same_unitary(original: quartz.Circuit, out: quartz.Circuit, what: str,
                        reference: np.ndarray | None = None) -> None:
    """Fail with the circuits' QASM unless both have the same unitary, global phase included."""
    u = unitary(original) if reference is None else reference
    v = unitary(out)
    if u.shape != v.shape or not np.allclose(u, v, atol=1e-8, rtol=0):
        diff = float(np.max(np.abs(u - v))) if u.shape == v.shape else float("inf")
        raise AssertionError(f"{what} changed the unitary (max |diff| {diff:.3g})\n--- input:\n"
                             f"{quartz.dumps(original)}--- output:\n{quartz.dumps(out)}")
