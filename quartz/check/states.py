"""Random-state comparison: both circuits applied (quartz's `Circuit.apply`) to the same seeded
random states, global phase included. A difference is a counterexample; agreement is evidence,
not a proof.

>>> from quartz.circuit import Circuit
>>> a = Circuit(2).h(0).cx(0, 1)
>>> worst_difference(a, a.copy(), states=2, seed=0, atol=1e-8) < 1e-12
True
>>> worst_difference(a, a.copy().x(1), states=2, seed=0, atol=1e-8) > 1e-8
True
"""
from __future__ import annotations

from typing import Literal

import numpy as np

from quartz.circuit import Circuit

# Seconds per gate and amplitude of Circuit.apply, to tell whether random states fit a budget.
APPLY_SECONDS = 4e-9


def random_state(rng: np.random.Generator, num_qubits: int) -> np.ndarray:
    """A normalized state of `num_qubits` qubits with Gaussian real and imaginary parts."""
    psi = rng.normal(size=2**num_qubits) + 1j * rng.normal(size=2**num_qubits)
    return psi / np.linalg.norm(psi)


def worst_difference(a: Circuit, b: Circuit, *, states: int, seed: int, atol: float,
                     measure: Literal["entry", "norm"] = "entry") -> float:
    """The largest difference of a|psi> and b|psi> over `states` random states (seed `seed`),
    stopping at the first state where it exceeds `atol`. `measure`: "entry" is the largest
    absolute difference of an amplitude, "norm" the 2-norm of the difference vector."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(states):
        psi = random_state(rng, a.num_qubits)
        diff = a.apply(psi) - b.apply(psi)
        d = float(np.max(np.abs(diff))) if measure == "entry" else float(np.linalg.norm(diff))
        worst = max(worst, d)
        if worst > atol:
            break
    return worst


def seconds_estimate(a: Circuit, b: Circuit, states: int) -> float:
    """Estimated seconds of simulating a and b on `states` random states."""
    return states * (len(a) + len(b)) * 2.0**a.num_qubits * APPLY_SECONDS


__all__ = ["worst_difference", "random_state", "seconds_estimate", "APPLY_SECONDS"]
