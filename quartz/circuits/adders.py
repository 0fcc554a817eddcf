"""Ripple-carry adders: Cuccaro et al. (CDKM, one ancilla) and Vedral-Barenco-Ekert (VBE).

cuccaro_adder(n), 2n+2 qubits: q0 = carry in c, a_i = q[1+i], b_i = q[1+n+i], z = q[2n+1].
  |c, a, b, z> -> |c, a, (a+b+c) mod 2^n, z XOR carry-out>, for every basis state.
vbe_adder(n), 3n+1 qubits: c_i = q[3i] (c_0 the carry in, c_1..c_{n-1} clean ancillas),
  a_i = q[3i+1], b_i = q[3i+2], c_n = q[3n]; with c_1..c_{n-1} = 0:
  |c_0, a, b, c_n> -> |c_0, a, (a+b+c_0) mod 2^n, c_n XOR carry-out>. vbe_adder(3) is the
  construction of the benchmark file vbe_adder_3.qasm.
Bit i of a number is its 2^i digit.

>>> from quartz.circuits.adders import cuccaro_adder, vbe_adder
>>> cuccaro_adder(2, gate_set="ccz").count_ops()["ccz"], vbe_adder(3, gate_set="ccz").num_qubits
(4, 10)
"""
from __future__ import annotations

from quartz import Circuit
from quartz.errors import QuartzError

from quartz.circuits._build import Builder


def _check(n: int, what: str) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise QuartzError(f"{what} needs an integer number of bits n >= 1, got {n!r}")


def cuccaro_adder(n: int, gate_set: str = "nam") -> Circuit:
    """The CDKM ripple-carry adder b += a + c on n-bit registers (2n+2 qubits)."""
    _check(n, "cuccaro_adder")
    b = Builder(2 * n + 2)
    A = [1 + i for i in range(n)]
    B = [1 + n + i for i in range(n)]
    carry = [0] + A[:-1]  # the carry into bit i sits on c (i = 0) or a_{i-1}

    def maj(x: int, y: int, z: int) -> None:
        b.cx(z, y).cx(z, x)
        b.ccx(x, y, z)

    def uma(x: int, y: int, z: int) -> None:
        b.ccx(x, y, z)
        b.cx(z, x).cx(x, y)

    for i in range(n):
        maj(carry[i], B[i], A[i])
    b.cx(A[n - 1], 2 * n + 1)
    for i in reversed(range(n)):
        uma(carry[i], B[i], A[i])
    return b.finish(gate_set, name=f"cuccaro_adder_{n}")


def vbe_adder(n: int, gate_set: str = "nam") -> Circuit:
    """The VBE ripple-carry adder b += a + c_0 on n-bit registers (3n+1 qubits)."""
    _check(n, "vbe_adder")
    b = Builder(3 * n + 1)
    C = [3 * i for i in range(n + 1)]
    A = [3 * i + 1 for i in range(n)]
    B = [3 * i + 2 for i in range(n)]
    for i in range(n):  # CARRY(c_i, a_i, b_i, c_{i+1})
        b.ccx(A[i], B[i], C[i + 1])
        b.cx(A[i], B[i])
        b.ccx(C[i], B[i], C[i + 1])
    b.cx(C[n - 1], B[n - 1])  # CX(a, b) followed by SUM(c, a, b) = cx(a,b) cx(c,b)
    for i in reversed(range(n - 1)):  # CARRY^-1 then SUM
        b.ccx(C[i], B[i], C[i + 1])
        b.cx(A[i], B[i])
        b.ccx(A[i], B[i], C[i + 1])
        b.cx(A[i], B[i]).cx(C[i], B[i])
    return b.finish(gate_set, name=f"vbe_adder_{n}")
