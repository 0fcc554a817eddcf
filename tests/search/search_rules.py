"""Hand-built, numerically checked Nam rules and helpers shared by the search tests."""
from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
from quartz import Circuit, Param
from quartz.ecc_sets import ECC, ECCSet, Phase

P0, P1 = Param.symbol(0), Param.symbol(1)


def holds(ecc: ECC, trials: int = 3) -> bool:
    """Numerically: U_i = e^{i phase_i} U_0 for random symbol values."""
    rng = random.Random(7)
    for _ in range(trials):
        vals = [rng.uniform(-math.pi, math.pi) for _ in range(2)]
        u0 = ecc.circuits[0].unitary(vals)
        for c, ph in zip(ecc.circuits[1:], ecc.phases[1:]):
            if not np.allclose(c.unitary(vals), np.exp(1j * ph.value(vals)) * u0, atol=1e-9):
                return False
    return True


def make_set(classes: list[ECC]) -> ECCSet:
    for e in classes:
        assert holds(e), [list(c) for c in e.circuits]
    return ECCSet(("h", "x", "rz", "cx"), 3, 3, 2, classes)


def small_nam_classes() -> list[ECC]:
    """The four classes of the brief plus commutation rules that let gates meet."""
    z = Phase()
    cls = [
        ECC([Circuit(1).h(0).h(0), Circuit(1)], [z, z], True),
        ECC([Circuit(2).cx(0, 1).cx(0, 1), Circuit(2)], [z, z], True),
        ECC([Circuit(1).rz(P0, 0).rz(P1, 0), Circuit(1).rz(P0 + P1, 0)], [z, z], True),
        ECC([Circuit(1).x(0).rz(P0, 0).x(0), Circuit(1).rz(-P0, 0)], [z, z], True),
        ECC([Circuit(1).x(0).x(0), Circuit(1)], [z, z], True),
        # rz commutes through a CX control, x through a CX target.
        ECC([Circuit(2).rz(P0, 0).cx(0, 1), Circuit(2).cx(0, 1).rz(P0, 0)], [z, z], True),
        ECC([Circuit(2).x(1).cx(0, 1), Circuit(2).cx(0, 1).x(1)], [z, z], True),
        # CXs sharing a control (or a target) commute.
        ECC([Circuit(3).cx(0, 1).cx(0, 2), Circuit(3).cx(0, 2).cx(0, 1)], [z, z], True),
        ECC([Circuit(3).cx(0, 2).cx(1, 2), Circuit(3).cx(1, 2).cx(0, 2)], [z, z], True),
        # H-conjugated CX flips direction.
        ECC([Circuit(2).h(0).h(1).cx(0, 1).h(0).h(1), Circuit(2).cx(1, 0)], [z, z], True),
        # rz on the target of CX-CX sandwich: cx rz(t) cx rz(t) ... (phase polynomial)
        ECC([Circuit(2).cx(0, 1).rz(P0, 1).cx(0, 1).rz(P1, 1),
             Circuit(2).rz(P1, 1).cx(0, 1).rz(P0, 1).cx(0, 1)], [z, z], True),
    ]
    return cls


def random_nam_circuit(n_qubits: int, n_gates: int, seed: int) -> Circuit:
    rng = random.Random(seed)
    c = Circuit(n_qubits)
    angles = [Param.pi(k, 4) for k in range(-7, 8)] + [Param.radians(0.3), Param.radians(-1.1)]
    for _ in range(n_gates):
        r = rng.random()
        if r < 0.25:
            c.h(rng.randrange(n_qubits))
        elif r < 0.35:
            c.x(rng.randrange(n_qubits))
        elif r < 0.7:
            c.rz(rng.choice(angles), rng.randrange(n_qubits))
        else:
            a, b = rng.sample(range(n_qubits), 2)
            c.cx(a, b)
    return c


def same_unitary(a: Circuit, b: Circuit) -> bool:
    """Equal unitaries including the global phase."""
    return np.allclose(a.unitary(), b.unitary(), atol=1e-9)


__all__ = ["P0", "P1", "holds", "make_set", "small_nam_classes", "random_nam_circuit",
           "same_unitary", "Fraction"]
