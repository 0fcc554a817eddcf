"""The quantum Fourier transform QFT_n, the same construction as Qiskit's QFT (with swaps).

Qubit order is Qiskit's little-endian: basis state |x> has x = sum x_q 2^q, and
QFT_n |x> = 2^{-n/2} sum_y e^{2 pi i x y / 2^n} |y>, exactly (global phase included), so the
unitary is the DFT matrix F[y, x] = omega^{xy} / sqrt(N).

>>> from quartz.circuits.qft import qft
>>> qft(3, gate_set="ccz").count_ops()
{'cp': 3, 'h': 3, 'swap': 1}
"""
from __future__ import annotations

from quartz import Circuit, Param
from quartz.errors import QuartzError

from quartz.circuits._build import Builder


def qft(n: int, gate_set: str = "nam", swaps: bool = True) -> Circuit:
    """QFT on n qubits: H and controlled phases pi/2^k, then the qubit-reversing swaps."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise QuartzError(f"qft needs an integer n >= 1 qubits, got {n!r}")
    b = Builder(n)
    for j in reversed(range(n)):
        b.h(j)
        for k in reversed(range(j)):
            b.cp(Param.pi(1, 1 << (j - k)), j, k)
    if swaps:
        for i in range(n // 2):
            b.swap(i, n - 1 - i)
    return b.finish(gate_set, name=f"qft_{n}")
