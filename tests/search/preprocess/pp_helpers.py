"""Shared helpers of the preprocessing tests: random circuits and exact-equality checks."""
from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np

from quartz import Circuit, Param

BENCH = Path(__file__).resolve().parents[3].parent / "shared" / "benchmarks"


def random_circuit(rng: random.Random, n: int, m: int, gates=("h", "x", "rz", "cx")) -> Circuit:
    """A random circuit over `gates`; rz angles are pi/4 multiples or arbitrary floats."""
    c = Circuit(n)
    for _ in range(m):
        g = rng.choice(gates)
        if g in ("cx", "cz", "swap") and n >= 2:
            a, b = rng.sample(range(n), 2)
            c.append(g, [a, b])
        elif g == "ccz" and n >= 3:
            c.append(g, rng.sample(range(n), 3))
        elif g in ("rz", "p", "u1", "rx"):
            angle = Param.pi(rng.randint(-8, 8), 4) if rng.random() < 0.7 else rng.uniform(-4, 4)
            c.append(g, [rng.randrange(n)], [angle])
        elif g in ("cx", "cz", "swap", "ccz"):
            continue
        else:
            c.append(g, [rng.randrange(n)])
    return c


def assert_same_unitary(a: Circuit, b: Circuit, symbol_values=()) -> None:
    """Unitaries equal including the global phase."""
    ua, ub = a.unitary(symbol_values), b.unitary(symbol_values)
    assert np.allclose(ua, ub, atol=1e-9), f"max diff {np.abs(ua - ub).max()}"


def assert_same_on_random_states(a: Circuit, b: Circuit, trials: int = 2, seed: int = 1) -> None:
    """Equal action (global phase included) on random input states."""
    rng = np.random.default_rng(seed)
    dim = 1 << a.num_qubits
    for _ in range(trials):
        v = rng.normal(size=dim) + 1j * rng.normal(size=dim)
        v /= np.linalg.norm(v)
        assert np.allclose(a.apply(v), b.apply(v), atol=1e-8)


def angle(g) -> float:
    """The float value of a gate's first angle."""
    return float(g.params[0])


def close_mod(x: float, y: float, period: float) -> bool:
    """x == y modulo period."""
    d = (x - y) % period
    return min(d, period - d) < 1e-9 or math.isclose(d, period)
