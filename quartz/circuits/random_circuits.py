"""Seeded random circuits: Clifford+T gates, and H/X/CX with random-angle rz rotations.

The same (n, num_gates, seed) always gives the same circuit (numpy's PCG64 generator).

>>> from quartz.circuits.random_circuits import random_clifford_t
>>> random_clifford_t(3, 20, seed=1) == random_clifford_t(3, 20, seed=1)
True
"""
from __future__ import annotations

import math

import numpy as np

from quartz import Circuit, Param
from quartz.errors import QuartzError

from quartz.circuits._build import to_gate_set

CLIFFORD_T_GATES = ("h", "s", "sdg", "t", "tdg", "x", "cx")
ROTATION_GATES = ("h", "x", "rz", "cx")


def _check(n: int, num_gates: int | None) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise QuartzError(f"a random circuit needs an integer n >= 1 qubits, got {n!r}")
    g = 10 * n if num_gates is None else num_gates
    if isinstance(g, bool) or not isinstance(g, int) or g < 0:
        raise QuartzError(f"num_gates must be a non-negative integer, got {num_gates!r}")
    return g


def _random(n: int, num_gates: int, seed: int, names: tuple[str, ...], angle) -> Circuit:
    rng = np.random.default_rng(seed)
    pool = [g for g in names if g != "cx" or n >= 2]
    c = Circuit(n)
    for _ in range(num_gates):
        g = pool[int(rng.integers(len(pool)))]
        if g == "cx":
            a, b = (int(x) for x in rng.choice(n, size=2, replace=False))
            c.cx(a, b)
        elif g == "rz":
            c.rz(angle(rng), int(rng.integers(n)))
        else:
            c.append(g, (int(rng.integers(n)),))
    return c


def random_clifford_t(n: int, num_gates: int | None = None, seed: int = 0,
                      gate_set: str = "clifford_t") -> Circuit:
    """Uniformly random gates from h s sdg t tdg x cx (default 10n gates)."""
    g = _check(n, num_gates)
    c = _random(n, g, seed, CLIFFORD_T_GATES, None)
    c.name = f"random_clifford_t_{n}"
    return to_gate_set(c, gate_set)


def random_rotations(n: int, num_gates: int | None = None, seed: int = 0,
                     gate_set: str = "nam", exact: bool = False) -> Circuit:
    """Random gates from h x rz cx; rz angles uniform in (-pi, pi), or k*pi/8 if `exact`."""
    g = _check(n, num_gates)

    def angle(rng):
        if exact:
            return Param.pi(int(rng.integers(1, 16)), 8)
        return Param.radians(float(rng.uniform(-math.pi, math.pi)))

    c = _random(n, g, seed, ROTATION_GATES, angle)
    c.name = f"random_rotations_{n}"
    return to_gate_set(c, gate_set)
