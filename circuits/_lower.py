"""Exact lowering of the generators' gates into Nam or Clifford+T (stand-in for gatesets.convert).

Handles h x cx rz p t tdg s sdg z swap cp ccx ccz; every step keeps the global phase.

>>> from quartz import Circuit
>>> from circuits._lower import lower
>>> lower(Circuit(1).t(0), "nam").count_ops(), str(lower(Circuit(1).t(0), "nam").global_phase)
({'rz': 1}, 'pi/8')
"""
from __future__ import annotations

from quartz import Circuit, Param
from quartz.errors import GateSetError

_PI4 = {"t": 1, "tdg": -1, "s": 2, "sdg": -2, "z": 4}
# p(k*pi/4) for k mod 8 as Clifford+T gates.
_CT_PHASE = {0: (), 1: ("t",), 2: ("s",), 3: ("s", "t"), 4: ("s", "s"), 5: ("sdg", "tdg"),
             6: ("sdg",), 7: ("tdg",)}


def _ccz_gates(a: int, b: int, c: int) -> list[tuple[str, tuple[int, ...]]]:
    """The 7-T, 6-CX ccz of Amy, Maslov, Mosca and Roetteler."""
    return [("cx", (b, c)), ("tdg", (c,)), ("cx", (a, c)), ("t", (c,)), ("cx", (b, c)),
            ("tdg", (c,)), ("cx", (a, c)), ("t", (b,)), ("t", (c,)), ("cx", (a, b)),
            ("t", (a,)), ("tdg", (b,)), ("cx", (a, b))]


def half(theta: Param) -> Param:
    """theta / 2 for a concrete angle (exact for rational multiples of pi)."""
    if theta.is_symbolic:
        raise GateSetError(f"cannot halve the symbolic angle {theta}")
    frac = theta.pi_fraction
    if frac is not None:
        return Param.pi(frac[0], 2 * frac[1])
    return Param.radians(float(theta) / 2)


class _Out:
    def __init__(self, n: int, target: str, name):
        self.c = Circuit(n, name=name)
        self.target = target
        self.phase = Param.pi(0, 1)

    def phase_gate(self, theta: Param, q: int) -> None:
        """p(theta) = e^{i theta/2} rz(theta)."""
        if self.target == "nam":
            self.c.rz(theta, q)
            self.phase = self.phase + half(theta)
            return
        frac = theta.pi_fraction
        if frac is None or (4 * frac[0]) % frac[1] != 0:
            raise GateSetError(f"angle {theta} is not a multiple of pi/4: not in gate set clifford_t")
        k = (4 * frac[0] // frac[1]) % 8
        for g in _CT_PHASE[k]:
            self.c.append(g, (q,))

    def gate(self, name: str, qubits: tuple[int, ...], params: tuple) -> None:
        if name in ("h", "x", "cx"):
            self.c.append(name, qubits)
        elif name in _PI4:
            if self.target == "clifford_t" and name != "z":
                self.c.append(name, qubits)
            else:
                self.phase_gate(Param.pi(_PI4[name], 4), qubits[0])
        elif name == "p":
            self.phase_gate(params[0], qubits[0])
        elif name == "rz":
            self.phase_gate(params[0], qubits[0])
            self.phase = self.phase - half(params[0])
        elif name == "swap":
            a, b = qubits
            for q in ((a, b), (b, a), (a, b)):
                self.c.cx(*q)
        elif name == "cp":
            a, b = qubits
            h = half(params[0])
            self.phase_gate(h, a)
            self.c.cx(a, b)
            self.phase_gate(Param.pi(0, 1) - h, b)
            self.c.cx(a, b)
            self.phase_gate(h, b)
        elif name == "ccz":
            for g, qs in _ccz_gates(*qubits):
                self.gate(g, qs, ())
        elif name == "ccx":
            self.gate("h", qubits[2:], ())
            self.gate("ccz", qubits, ())
            self.gate("h", qubits[2:], ())
        else:
            raise GateSetError(f"gate '{name}' cannot be lowered into {self.target}")


def lower(c: Circuit, target: str) -> Circuit:
    """`c` rewritten exactly into 'nam' or 'clifford_t', global phase included."""
    if target not in ("nam", "clifford_t"):
        raise GateSetError(f"cannot lower into '{target}': only nam and clifford_t")
    out = _Out(c.num_qubits, target, c.name)
    for g in c:
        out.gate(g.name, g.qubits, g.params)
    out.c.global_phase = c.global_phase + out.phase
    return out.c
