"""Grover search: oracle for one marked bitstring plus diffusion, multi-controlled Z as a V-chain.

Layout: search qubits 0..n-1, then max(0, n-3) clean ancillas for the Toffoli V-chain of the
n-qubit controlled Z. The circuit is H^n followed by `iterations` rounds of
(I - 2|s><s|)(I - 2|m><m|), with |s> the uniform superposition and m the marked number
(default 2^n - 1); ancillas start and end in |0>. Default iterations: floor(pi/4 sqrt(2^n)).

>>> from quartz.circuits.grover import grover
>>> grover(3, gate_set="ccz").count_ops()["ccz"]
4
"""
from __future__ import annotations

import math

from quartz import Circuit
from quartz.errors import QuartzError

from quartz.circuits._build import Builder


def _mcz(b: Builder, qubits: list[int], ancillas: list[int]) -> None:
    """Z on |1...1> of `qubits` (n >= 1), using len(qubits)-3 clean ancillas."""
    n = len(qubits)
    if n == 1:
        b.z(qubits[0])
        return
    if n == 2:
        b.h(qubits[1]).cx(qubits[0], qubits[1]).h(qubits[1])
        return
    if n == 3:
        b.ccz(*qubits)
        return
    chain = [(qubits[0], qubits[1], ancillas[0])]  # ancillas[i] = AND(q0..q{i+1})
    chain += [(qubits[i + 1], ancillas[i - 1], ancillas[i]) for i in range(1, n - 3)]
    for t in chain:
        b.ccx(*t)
    b.ccz(ancillas[n - 4], qubits[n - 2], qubits[n - 1])
    for t in reversed(chain):
        b.ccx(*t)


def grover(n: int, gate_set: str = "nam", marked: int | None = None,
           iterations: int | None = None) -> Circuit:
    """Grover's search on n qubits for the basis state `marked`."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise QuartzError(f"grover needs an integer n >= 2 qubits, got {n!r}")
    m = (1 << n) - 1 if marked is None else marked
    if not 0 <= m < (1 << n):
        raise QuartzError(f"marked state {marked} does not fit in {n} qubits")
    k = math.floor(math.pi / 4 * math.sqrt(1 << n)) if iterations is None else iterations
    if k < 0:
        raise QuartzError(f"iterations must be >= 0, got {iterations}")
    qs = list(range(n))
    anc = list(range(n, n + max(0, n - 3)))
    b = Builder(n + len(anc))
    flips = [q for q in qs if not (m >> q) & 1]
    for q in qs:
        b.h(q)
    for _ in range(k):
        for q in flips:  # oracle: I - 2|m><m|
            b.x(q)
        _mcz(b, qs, anc)
        for q in flips:
            b.x(q)
        for q in qs:  # diffusion: I - 2|s><s| = H^n X^n (I - 2|1..1><1..1|) X^n H^n
            b.h(q).x(q)
        _mcz(b, qs, anc)
        for q in qs:
            b.x(q).h(q)
    return b.finish(gate_set, name=f"grover_{n}")
