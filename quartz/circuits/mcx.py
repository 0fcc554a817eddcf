"""Multi-controlled X and Z without ancillas, as a phase polynomial of CX and phase gates.

C^{m-1}Z on m qubits applies e^{i pi x_1...x_m} = prod over nonempty subsets S of
e^{i (-1)^{|S|-1} pi/2^{m-1} parity(S)}; each parity is accumulated with CX gates in Gray-code
order. Angles are pi/2^{m-1}, so Clifford+T only holds m <= 3.

>>> from quartz.circuits.mcx import mcx
>>> mcx(2, gate_set="ccz").count_ops()["cx"]
6
"""
from __future__ import annotations

from quartz import Circuit, Param
from quartz.errors import QuartzError

from quartz.circuits._build import Builder


def _phase_polynomial(b: Builder, qubits: list[int], m: int) -> None:
    """Every nonempty subset S of `qubits`: phase (-1)^{|S|-1} pi/2^{m-1} on parity(S)."""
    if not qubits:
        return
    acc, rest = qubits[-1], qubits[:-1]
    k = len(rest)
    prev = 0
    for step in range(1 << k):
        gray = step ^ (step >> 1)
        diff = gray ^ prev
        if diff:
            b.cx(rest[diff.bit_length() - 1], acc)
        prev = gray
        sign = 1 if bin(gray).count("1") % 2 == 0 else -1  # |S| = popcount + 1 (acc)
        b.add("p", acc, params=(Param.pi(sign, 1 << (m - 1)),))
    if prev:
        b.cx(rest[prev.bit_length() - 1], acc)  # the last Gray code has one bit set
    _phase_polynomial(b, rest, m)


def mcz_into(b: Builder, qubits: list[int]) -> None:
    """Append a multi-controlled Z on `qubits` (no ancillas) to a Builder."""
    _phase_polynomial(b, list(qubits), len(qubits))


def mcx(n: int, gate_set: str = "nam") -> Circuit:
    """n-controlled X on n+1 qubits (controls 0..n-1, target n), no ancillas."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise QuartzError(f"mcx needs an integer n >= 1 controls, got {n!r}")
    b = Builder(n + 1)
    b.h(n)
    mcz_into(b, list(range(n + 1)))
    b.h(n)
    return b.finish(gate_set, name=f"mcx_{n}")
