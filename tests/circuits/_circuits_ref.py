"""Reference checks shared by the circuits/ tests: basis-state maps with exact phases."""
from __future__ import annotations

from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[3] / "shared" / "benchmarks"


def bits(value: int, qubits: list[int]) -> int:
    """Place the bits of `value` on `qubits` (bit i on qubits[i])."""
    return sum(((value >> i) & 1) << q for i, q in enumerate(qubits))


def read(index: int, qubits: list[int]) -> int:
    """The number whose bit i is the bit of `index` on qubits[i]."""
    return sum(((index >> q) & 1) << i for i, q in enumerate(qubits))


def assert_maps(circuit, x: int, y: int) -> None:
    """The circuit sends basis state |x> to exactly |y> (amplitude 1, phase included)."""
    state = np.zeros(2 ** circuit.num_qubits, dtype=complex)
    state[x] = 1
    out = circuit.apply(state)
    assert abs(out[y] - 1) < 1e-9, f"|{x}> -> amplitude {out[y]} on |{y}>"


def file_gate_count(path: Path) -> int:
    """The number of gates in a benchmark QASM file."""
    import quartz

    return len(quartz.load(path))
