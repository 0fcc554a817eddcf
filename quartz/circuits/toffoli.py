"""Toffoli chains: tof_n (clean ancillas) and barenco_tof_n (Barenco et al., dirty ancillas).

Qubit layout of both (as in the standard benchmark files tof_4.qasm, barenco_tof_5.qasm):
controls 0..n-1, ancillas n..2n-3, target 2n-2. The effect is target ^= AND(controls);
tof_n needs its ancillas in |0> (and returns them there), barenco_tof_n works for any ancilla
state and restores it. Gate counts in Nam: tof_n 15(2n-3), e.g. tof_3 = 45, barenco_tof_3 = 58.

>>> from quartz.circuits.toffoli import tof_n, barenco_tof_n
>>> len(tof_n(3)), len(barenco_tof_n(3)), tof_n(3, gate_set="ccz").count_ops()
(45, 58, {'h': 6, 'ccz': 3})
"""
from __future__ import annotations

from quartz import Circuit
from quartz.errors import QuartzError

from quartz.circuits._build import Builder


def _check(n: int, least: int, what: str) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < least:
        raise QuartzError(f"{what} needs an integer n >= {least} controls, got {n!r}")


def tof_n(n: int, gate_set: str = "nam") -> Circuit:
    """n-controlled X as a V-chain of 2n-3 Toffolis with n-2 clean ancillas (2n-1 qubits)."""
    _check(n, 2, "tof_n")
    b = Builder(2 * n - 1)
    anc = list(range(n, 2 * n - 2)) + [2 * n - 2]  # ands[i] = AND(c0..c{i+1}); last is target
    compute = [(0, 1, anc[0])] + [(i + 1, anc[i - 1], anc[i]) for i in range(1, n - 1)]
    for t in compute[:-1] + [compute[-1]] + compute[-2::-1]:
        b.ccx(*t)
    return b.finish(gate_set, name=f"tof_{n}")


def barenco_tof_n(n: int, gate_set: str = "nam") -> Circuit:
    """n-controlled X from 4(n-2) Toffolis with n-2 dirty ancillas (Barenco et al. Lemma 7.2)."""
    _check(n, 3, "barenco_tof_n")
    b = Builder(2 * n - 1)
    c = list(range(n))
    a = list(range(n, 2 * n - 2)) + [2 * n - 2]  # a[n-2] is the target
    down = [(c[i + 2], a[i], a[i + 1]) for i in range(n - 3, -1, -1)]
    base = (c[0], c[1], a[0])
    for t in down + [base] + down[::-1] + down[1:] + [base] + down[1:][::-1]:
        b.ccx(*t)
    return b.finish(gate_set, name=f"barenco_tof_{n}")
