"""Data model of ECC sets: Phase, ECC, Transformation, ECCSet."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from quartz._core import Param
from quartz.circuit import Circuit


@dataclass(frozen=True)
class Phase:
    """A global phase const*pi + sum_j coef_j * p_j with rational coefficients.

    Coefficients are rational because rz(a) and u1(a) differ by e^{-i a/2}.
    """

    const: Fraction = Fraction(0)  # in units of pi
    coefs: tuple[tuple[int, Fraction], ...] = ()  # (symbol index, coefficient), sorted

    @staticmethod
    def make(const: Fraction | int = 0, coefs: dict[int, Fraction] | None = None) -> "Phase":
        c = Fraction(const) % 2
        items = tuple(sorted((s, Fraction(k)) for s, k in (coefs or {}).items() if k != 0))
        return Phase(c, items)

    def value(self, symbol_values: Sequence[float]) -> float:
        """The phase in radians for numeric symbol values."""
        return math.pi * float(self.const) + sum(float(k) * float(symbol_values[s])
                                                  for s, k in self.coefs)

    def bind(self, angles: list[Param]) -> Param:
        """The phase as a concrete Param when symbol j takes the angle angles[j]."""
        out = Param.pi(self.const.numerator, self.const.denominator)
        for s, k in self.coefs:
            a = angles[s]
            if k.denominator == 1:
                out = out + a.scaled(int(k))
            else:  # k = num/2: halve the angle exactly when it is a pi fraction
                frac = a.pi_fraction
                if frac is None or a.is_symbolic:
                    out = out + Param.radians(float(a) * float(k))
                else:
                    out = out + Param.pi(frac[0] * k.numerator, frac[1] * k.denominator)
        return out

    def __neg__(self) -> "Phase":
        return Phase.make(-self.const, {s: -k for s, k in self.coefs})

    def __sub__(self, other: "Phase") -> "Phase":
        d = dict(self.coefs)
        for s, k in other.coefs:
            d[s] = d.get(s, Fraction(0)) - k
        return Phase.make(self.const - other.const, d)

    def to_json(self) -> dict[str, Any]:
        return {"pi": str(self.const), "coefs": {f"p{s}": str(k) for s, k in self.coefs}}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Phase:
        return Phase.make(Fraction(obj.get("pi", "0")),
                          {int(s[1:]): Fraction(k) for s, k in obj.get("coefs", {}).items()})

    def __str__(self) -> str:
        parts = [f"{k}*p{s}" for s, k in self.coefs]
        if self.const:
            parts.append(f"{self.const}*pi")
        return " + ".join(parts) or "0"


@dataclass
class ECC:
    """Circuits equal up to global phase; circuit 0 is the representative."""

    circuits: list[Circuit]
    phases: list[Phase | None] = field(default_factory=list)  # None = not (yet) proven
    proven: bool = False

    def __post_init__(self) -> None:
        if not self.phases:
            self.phases = [Phase()] + [None] * (len(self.circuits) - 1)

    @property
    def representative(self) -> Circuit:
        return self.circuits[0]


@dataclass(frozen=True)
class Transformation:
    """Rewrite `source` into `target`; U_target = e^{i phase} U_source."""

    source: Circuit
    target: Circuit
    phase: Phase
    ecc_index: int


@dataclass
class ECCSet:
    """An ECC set for a gate set at sizes (n gates, q qubits, m symbolic parameters)."""

    gate_set: tuple[str, ...]
    n: int
    q: int
    m: int
    classes: list[ECC]
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def num_circuits(self) -> int:
        return sum(len(e.circuits) for e in self.classes)

    @property
    def num_transformations(self) -> int:
        """Quartz's count: 2 * (circuits - classes)."""
        return 2 * (self.num_circuits - len(self.classes))

    def transformations(self, all_pairs: bool = False) -> list[Transformation]:
        """Representative <-> member rewrites (or every ordered pair) of every proven class."""
        out: list[Transformation] = []
        for idx, ecc in enumerate(self.classes):
            if not ecc.proven:
                continue
            n = len(ecc.circuits)
            pairs = ([(i, j) for i in range(n) for j in range(n) if i != j] if all_pairs
                     else [(0, j) for j in range(1, n)] + [(j, 0) for j in range(1, n)])
            for i, j in pairs:
                pi_, pj = ecc.phases[i], ecc.phases[j]
                if pi_ is None or pj is None:
                    continue
                out.append(Transformation(ecc.circuits[i], ecc.circuits[j], pj - pi_, idx))
        return out
