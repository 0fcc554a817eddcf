"""Which rewrite rules are wrong: a numeric check of U_target = e^{i phase} U_source for each
transformation, used to name the culprit when an optimized circuit fails its final check
(only possible with an ECC set that was trusted without verification)."""
from __future__ import annotations

import time

import numpy as np

from quartz.verifier.numeric import padded_unitary, random_points

TOLERANCE = 1e-6


def rule_error(t, points: list[list[float]]) -> float:
    """Largest entry of |U_target - e^{i phase} U_source| over the symbol assignments."""
    nq = max(t.source.num_qubits, t.target.num_qubits)
    worst = 0.0
    for vals in points:
        us, ut = padded_unitary(t.source, vals, nq), padded_unitary(t.target, vals, nq)
        worst = max(worst, float(np.abs(ut - np.exp(1j * t.phase.value(vals)) * us).max()))
    return worst


def false_transformations(transformations, budget: float = 10.0) -> tuple[list[int], int]:
    """(indices of the transformations that are numerically wrong, how many were checked
    within `budget` seconds)."""
    deadline = time.monotonic() + budget
    m = max([c.num_symbols for t in transformations for c in (t.source, t.target)] + [1])
    points = random_points(m, 3, 97)
    bad, checked = [], 0
    for i, t in enumerate(transformations):
        if time.monotonic() > deadline:
            break
        checked += 1
        if rule_error(t, points) > TOLERANCE:
            bad.append(i)
    return bad, checked
