"""Numeric spot checks of ECC classes: U_i = e^{i phase_i} U_0 at random symbol values."""
from __future__ import annotations

import random

import numpy as np

from quartz.ecc_sets.model import ECC, ECCSet


def class_error(ecc: ECC, rng: np.random.Generator, trials: int = 2) -> float:
    """Largest entry of ``|U_i - e^{i phase_i} U_0|`` over the class at `trials` random points
    (symbols uniform in [-pi, pi)); an unproven member (phase None) is compared up to the
    best global phase instead."""
    m = max([c.num_symbols for c in ecc.circuits] + [1])
    worst = 0.0
    for _ in range(trials):
        vals = [float(x) for x in rng.uniform(-np.pi, np.pi, size=m)]
        u0 = ecc.circuits[0].unitary(vals)
        k = np.unravel_index(np.argmax(np.abs(u0)), u0.shape)
        for c, ph in zip(ecc.circuits[1:], ecc.phases[1:]):
            u = c.unitary(vals)
            if u.shape != u0.shape:
                return float("inf")
            f = np.exp(1j * ph.value(vals)) if ph is not None else u[k] / u0[k]
            worst = max(worst, float(np.abs(u - f * u0).max()))
    return worst


def spot_check(ecc_set: ECCSet, *, sample: int | None = 200, seed: int = 0,
               tolerance: float = 1e-8) -> list[int]:
    """Indices of classes (a random sample of `sample`, or all when None) that fail numerically."""
    idx = list(range(len(ecc_set.classes)))
    if sample is not None and sample < len(idx):
        idx = sorted(random.Random(seed).sample(idx, sample))
    rng = np.random.default_rng(seed)
    return [i for i in idx if class_error(ecc_set.classes[i], rng) > tolerance]
