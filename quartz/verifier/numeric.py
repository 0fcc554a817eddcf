"""Numeric helpers: random-point distance up to phase, counterexamples, phase screening."""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np

from quartz.circuit import Circuit
from quartz.ecc_sets.model import Phase

TOLERANCE = 1e-7  # 1 - |<U_a, U_b>|/d above this at a point = different circuits


MAX_UNITARY_QUBITS = 8  # above this, circuits are compared on a random state instead
MAX_NUMERIC_QUBITS = 16  # above this, no numeric check at all (state vectors get too big)


def padded_unitary(c: Circuit, values: Sequence[float], nq: int) -> np.ndarray:
    """The circuit's unitary on nq qubits (extra qubits idle, as high bits)."""
    u = c.unitary(list(values))
    extra = nq - c.num_qubits
    if extra > 0:
        u = np.kron(np.eye(1 << extra), u)
    return u


@lru_cache(maxsize=8)
def _probe_states(nq: int) -> np.ndarray:
    rng = np.random.default_rng(77)
    st = rng.normal(size=(1, 1 << nq)) + 1j * rng.normal(size=(1, 1 << nq))
    return st / np.linalg.norm(st, axis=1, keepdims=True)


def image(c: Circuit, values: Sequence[float], nq: int) -> np.ndarray:
    """What distance() compares: the unitary (<= 8 qubits) or the image of a fixed random state."""
    if nq <= MAX_UNITARY_QUBITS:
        return padded_unitary(c, values, nq)
    if c.num_qubits < nq:
        padded = Circuit(nq).extend(c)
        padded.global_phase = c.global_phase
        c = padded
    return np.stack([c.apply(s, list(values)) for s in _probe_states(nq)])


def distance(ua: np.ndarray, ub: np.ndarray) -> float:
    """1 - |<U_a, U_b>| / (|U_a| |U_b|): 0 iff equal up to a global phase (on the probes)."""
    if ua.ndim == 2 and ua.shape[0] == ua.shape[1]:
        return 1.0 - abs(np.vdot(ua, ub)) / ua.shape[0]
    # per-state overlaps must all have modulus 1 *and* the same phase
    ov = np.einsum("ij,ij->i", ua.conj(), ub)
    return float(1.0 - abs(ov.sum()) / len(ov))


@lru_cache(maxsize=256)
def _points(num_symbols: int, count: int, seed: int) -> tuple[tuple[float, ...], ...]:
    rng = np.random.default_rng(seed)
    pts = rng.uniform(-2 * math.pi, 2 * math.pi, size=(count, max(num_symbols, 0)))
    return tuple(tuple(float(x) for x in row) for row in pts)


def random_points(num_symbols: int, count: int, seed: int) -> list[list[float]]:
    """count random symbol assignments in [-2pi, 2pi) (the full period of the half angles)."""
    return [list(p) for p in _points(num_symbols, count, seed)]


def find_counterexample(a: Circuit, b: Circuit, *, tries: int = 8, seed: int = 1234
                        ) -> tuple[list[float], float] | None:
    """Symbol values where a and b differ by more than a global phase, with the distance."""
    nq = max(a.num_qubits, b.num_qubits)
    m = max(a.num_symbols, b.num_symbols)
    if nq > MAX_NUMERIC_QUBITS:
        return None
    if nq > MAX_UNITARY_QUBITS or m == 0:
        tries = 1
    best = None
    for pt in random_points(m, tries, seed):
        vals = [float(x) for x in pt]
        dist = distance(image(a, vals, nq), image(b, vals, nq))
        if best is None or dist > best[1]:
            best = (vals, dist)
        if dist > 1e-3:
            break
    if best is not None and best[1] > TOLERANCE:
        return best
    return None


def screen_phase(a: Circuit, b: Circuit, *, seed: int = 99, max_coef: int = 8,
                 const_steps: int = 16) -> Phase | None:
    """Guess the phase e^{i(sum k_j theta_j/2 + k pi/(const_steps/2))} from random points.

    k_j comes from finite differences of arg(U_b/U_a), k from the remaining constant; the guess
    is then checked at fresh points. None if no such phase fits (the circuits may still differ).
    """
    nq = max(a.num_qubits, b.num_qubits)
    m = max(a.num_symbols, b.num_symbols)

    def ratio(vals):
        ua, ub = padded_unitary(a, vals, nq), padded_unitary(b, vals, nq)
        z = np.vdot(ua, ub) / ua.shape[0]
        return z if abs(abs(z) - 1) < 1e-6 else None

    rng = np.random.default_rng(seed)
    base = [float(x) for x in rng.uniform(-2 * math.pi, 2 * math.pi, size=m)]
    f0 = ratio(base)
    if f0 is None:
        return None
    delta = 0.25
    ks = []
    for j in range(m):
        pt = list(base)
        pt[j] += delta
        f1 = ratio(pt)
        if f1 is None:
            return None
        diff = math.atan2((f1 / f0).imag, (f1 / f0).real)
        k = round(2 * diff / delta)
        if abs(k) > max_coef:
            return None
        ks.append(k)
    rest = math.atan2(f0.imag, f0.real) - sum(k * x / 2 for k, x in zip(ks, base))
    step = 2 * math.pi / const_steps
    kc = round(rest / step) % const_steps
    phase = Phase.make(Fraction(2 * kc, const_steps), {j: Fraction(k, 2) for j, k in enumerate(ks) if k})
    for pt in rng.uniform(-2 * math.pi, 2 * math.pi, size=(3, m)):
        vals = [float(x) for x in pt]
        f = ratio(vals)
        if f is None or abs(f - np.exp(1j * phase.value(vals))) > 1e-6:
            return None
    return phase

