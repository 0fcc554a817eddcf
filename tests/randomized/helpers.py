"""Exact unitary comparison of a pass's input and output, global phase included.

The unitaries come from quartz's native simulator (`Circuit.unitary`), which
tests/randomized/test_simulator_random.py checks against Qiskit's Operator on the same random
circuits; Qiskit's Operator itself is about 25x slower, too slow for 10,000 circuits here.
"""
from __future__ import annotations

import numpy as np

import quartz


def unitary(c: quartz.Circuit) -> np.ndarray:
    """The unitary of a concrete circuit, global phase included (Qiskit's qubit order)."""
    return c.unitary()


def assert_same_unitary(original: quartz.Circuit, out: quartz.Circuit, what: str,
                        reference: np.ndarray | None = None) -> None:
    """Fail with the circuits' QASM unless both have the same unitary, global phase included."""
    u = unitary(original) if reference is None else reference
    v = unitary(out)
    if u.shape != v.shape or not np.allclose(u, v, atol=1e-8, rtol=0):
        diff = float(np.max(np.abs(u - v))) if u.shape == v.shape else float("inf")
        raise AssertionError(f"{what} changed the unitary (max |diff| {diff:.3g})\n--- input:\n"
                             f"{quartz.dumps(original)}--- output:\n{quartz.dumps(out)}")
