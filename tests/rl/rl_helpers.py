"""Helpers of the RL tests: benchmark circuits and random Nam circuits."""
from pathlib import Path

import numpy as np

import quartz

BENCH = Path(__file__).resolve().parents[2] / ".." / "shared" / "benchmarks" / "nam"
ECC_NAME = "nam"


def equivalent(a: quartz.Circuit, b: quartz.Circuit, atol: float = 1e-7) -> bool:
    """Same unitary, global phase included (small circuits)."""
    return a.num_qubits == b.num_qubits and bool(np.allclose(a.unitary(), b.unitary(), atol=atol))


def bench(name: str) -> quartz.Circuit:
    c = quartz.load(str(BENCH / f"{name}.qasm"))
    c.name = name
    return c


def random_nam_circuit(rng: np.random.Generator, qubits: int = 3, gates: int = 20) -> quartz.Circuit:
    """A random Nam circuit with plenty of local rewrite opportunities."""
    c = quartz.Circuit(qubits)
    for _ in range(gates):
        r = rng.random()
        a, b = (int(x) for x in rng.choice(qubits, 2, replace=False))
        if r < 0.25:
            c.h(a)
        elif r < 0.35:
            c.x(a)
        elif r < 0.65:
            c.rz(float(rng.choice([1, 2, 3, -1]) * np.pi / 4), a)
        else:
            c.cx(a, b)
    return c
