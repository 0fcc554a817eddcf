"""`Matcher`: ECC transformations compiled for anchored matching and rewriting in C++.

>>> from quartz import Circuit
>>> from quartz.ecc_sets import ECC, Phase, Transformation
>>> hh = Transformation(Circuit(1).h(0).h(0), Circuit(1), Phase(), 0)
>>> m = Matcher([hh])
>>> c = Circuit(2).h(0).cx(0, 1).h(1).h(1)
>>> m.applicable(c)
[(2, 0)]
>>> len(m.apply(c, 2, 0))
2
"""
from __future__ import annotations

from typing import Iterable, Sequence

from quartz import _core
from quartz.circuit import Circuit
from quartz.ecc_sets.model import ECCSet, Transformation
from quartz.errors import QuartzError


def _phase_tuple(t: Transformation) -> tuple[_core.Circuit, _core.Circuit, int, int,
                                             list[tuple[int, int, int]]]:
    const = t.phase.const
    terms = [(int(s), k.numerator, k.denominator) for s, k in t.phase.coefs]
    return (t.source.native, t.target.native, const.numerator, const.denominator, terms)


class Matcher:
    """Finds and applies transformations (source -> target, phase tracked) on circuits."""

    def __init__(self, transformations: Iterable[Transformation] | ECCSet):
        if isinstance(transformations, ECCSet):
            transformations = transformations.transformations()
        self.transformations: list[Transformation] = list(transformations)
        for t in self.transformations:
            if not isinstance(t, Transformation):
                raise QuartzError(f"Matcher needs Transformation objects, got {type(t).__name__}")
        try:
            self._native = _core.Matcher([_phase_tuple(t) for t in self.transformations])
        except (ValueError, OverflowError) as e:
            raise QuartzError(f"cannot compile transformations: {e}") from None

    @property
    def native(self) -> _core.Matcher:
        """The compiled `quartz._core.Matcher`."""
        return self._native

    def __len__(self) -> int:
        return len(self.transformations)

    def usable(self, xfer_index: int) -> bool:
        """True when transformation xfer_index can be matched (connected, solvable source)."""
        return self._native.is_valid(xfer_index)

    def why_unusable(self, xfer_index: int) -> str:
        """Why a transformation cannot be matched ('' when it can)."""
        return self._native.why_invalid(xfer_index)

    def _check(self, circuit: Circuit, gate_index: int | None = None,
               xfer_index: int | None = None) -> None:
        if not isinstance(circuit, Circuit):
            raise QuartzError(f"expected a quartz.Circuit, got {type(circuit).__name__}")
        if gate_index is not None and not 0 <= gate_index < len(circuit):
            raise QuartzError(f"gate index {gate_index} out of range for {len(circuit)} gates")
        if xfer_index is not None and not 0 <= xfer_index < len(self.transformations):
            raise QuartzError(f"transformation index {xfer_index} out of range "
                              f"({len(self.transformations)} transformations)")

    def applicable(self, circuit: Circuit) -> list[tuple[int, int]]:
        """Every (gate_index, xfer_index) whose source matches anchored at that gate (convex)."""
        self._check(circuit)
        return [(g, x) for g, x in self._native.applicable(circuit.native)]

    def applicable_at(self, circuit: Circuit, gate_index: int) -> list[int]:
        """Indices of the transformations that match anchored at gate_index."""
        self._check(circuit, gate_index)
        return list(self._native.applicable_at(circuit.native, gate_index))

    def match(self, circuit: Circuit, gate_index: int, xfer_index: int) -> list[int] | None:
        """Circuit gate indices matched by the source's gates (source order), or None."""
        self._check(circuit, gate_index, xfer_index)
        return self._native.match(circuit.native, gate_index, xfer_index)

    def apply(self, circuit: Circuit, gate_index: int, xfer_index: int) -> Circuit | None:
        """The rewritten circuit (same unitary, global phase tracked), or None if no match."""
        self._check(circuit, gate_index, xfer_index)
        out = self._native.apply(circuit.native, gate_index, xfer_index)
        return None if out is None else Circuit._wrap(out, circuit.name)

    def apply_all(self, circuit: Circuit, moves: Sequence[tuple[int, int]]) -> Circuit:
        """Apply (gate_index, xfer_index) moves in turn; raises if one does not match."""
        for g, x in moves:
            nxt = self.apply(circuit, g, x)
            if nxt is None:
                raise QuartzError(f"transformation {x} does not apply at gate {g}")
            circuit = nxt
        return circuit
