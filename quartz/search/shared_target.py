"""Toffolis on the same target with one control in common, merged into one.

Two Toffolis that flip the same target under one shared control a and different second
controls b and c add a*b + a*c = a*(b + c) to it, which one Toffoli does with b + c written
into one of its controls for the moment (exact, global phase included):

    ccx(a, b, t) ccx(a, c, t) = cx(c, b) ccx(a, b, t) cx(c, b)

Like the merges of quartz.search.shared_controls this removes a Toffoli (13 gates of Nam for
4 cx), but whether it pays depends on what the preprocessor then makes of the rest, so the
merges are chosen by trial (quartz.search.toffoli_trial), with either control kept.

>>> from quartz import Circuit
>>> c = Circuit(4).ccx(0, 1, 3).ccx(0, 2, 3)
>>> [(p.first.core, p.second.core) for p in shared_target_pairs(c)]
[(0, 1)]
>>> m = merge_shared_targets(c, [(shared_target_pairs(c)[0], 0)])
>>> m == Circuit(4).cx(2, 1).ccx(0, 1, 3).cx(2, 1)
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from quartz.circuit import Circuit
from quartz.search.preprocess.relative_phase import Toffoli, find_toffolis
from quartz.search.shared_controls import MAX_SPAN, ToffoliPair, hoistable, merge_toffoli_pairs


@dataclass(frozen=True)
class SharedTargetPair(ToffoliPair):
    """Two Toffolis with the same target and one common control, the second next after the
    first on both of those wires, with no chain of gates from the first to the second."""

    @property
    def shared(self) -> int:
        """The common control."""
        (a,) = self.first.controls & self.second.controls
        return int(a)


def shared_target_pairs(circuit: Circuit) -> list[SharedTargetPair]:
    """The sites where merge_shared_targets applies, in circuit order.

    A Toffoli is a ccx gate, or a ccz with h just before and after it on the target wire (a
    ccz that reads as a Toffoli on more than one wire is left alone). The second Toffoli must
    be the next gate after the first on the target wire and on the common control, and no
    chain of gates may lead from the first to the second in between (as for
    quartz.search.shared_controls.shared_control_pairs).
    """
    gates = list(circuit)
    by_core = {core: ts[0] for core, ts in find_toffolis(circuit, gates).items() if len(ts) == 1}
    by_first = {x.first: x for x in by_core.values()}
    pairs = []
    for core in sorted(by_core):
        x1 = by_core[core]
        t = x1.target
        nxt = circuit.successor(x1.last, gates[x1.last].qubits.index(t))
        x2 = by_first.get(nxt) if nxt is not None else None
        if x2 is None or x2.target != t or len(x1.controls & x2.controls) != 1 \
                or x2.core - x1.core > MAX_SPAN:
            continue
        (a,) = x1.controls & x2.controls
        if circuit.successor(core, gates[core].qubits.index(a)) != x2.core:
            continue
        hoist = hoistable(circuit, gates, set(x1.gates + x2.gates), x1.core, x2.core)
        if hoist is not None:
            pairs.append(SharedTargetPair(x1, x2, hoist))
    return pairs


def merge_shared_targets(circuit: Circuit,
                         merges: Sequence[tuple[SharedTargetPair, int]]) -> Circuit:
    """`circuit` with each (pair, keep) merged into one Toffoli between two cx gates: keep 0
    keeps the first Toffoli's other control, 1 the second's. Exact, global phase kept; the
    pairs must come from shared_target_pairs(circuit) and must not share a gate."""
    def choose(pair: SharedTargetPair, keep: int) -> tuple[Toffoli, tuple[int, int]]:
        x, other = (pair.first, pair.second) if keep == 0 else (pair.second, pair.first)
        (kept,) = x.controls - {pair.shared}
        (added,) = other.controls - {pair.shared}
        return x, (added, kept)

    return merge_toffoli_pairs(circuit, merges, choose, "merge_shared_targets",
                               "the first Toffoli's control")


__all__ = ["SharedTargetPair", "shared_target_pairs", "merge_shared_targets"]
