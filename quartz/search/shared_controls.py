"""Toffolis that share both controls, merged where the preprocessor then does better.

Two Toffolis with the same controls and different targets, next to each other on the control
wires, are one Toffoli between two cx gates (exact, global phase included):

    ccx(a, b, t1) ccx(a, b, t2) = cx(t1, t2) ccx(a, b, t1) cx(t1, t2)

(conjugating by cx(t1, t2) turns an X on t1 into X on both). The merge removes a Toffoli, but
whether it pays depends on what the preprocessor makes of the rest: the Toffoli it removes
may have been one half of a compute/uncompute pair that became relative-phase, and the h
gates of the one it keeps may no longer cancel with their neighbours. So the merges are
chosen by trial (quartz.search.toffoli_trial): each site with either target kept, scored by
the cost of the preprocessed circuit, kept only when that cost falls. mod_adder_1024 has 36
such sites: merging every one of them gains 5 gates over preprocessing alone, the trial
keeps 10 and gains 53 (2,330 -> 2,277; benchmarks/history/BENCHMARKS-2026-12-07.md,
"Toffoli-level rewrites by trial").

>>> from quartz import Circuit
>>> c = Circuit(4).ccx(0, 1, 2).ccx(0, 1, 3)
>>> [(p.first.target, p.second.target) for p in shared_control_pairs(c)]
[(2, 3)]
>>> m = merge_shared_controls(c, [(shared_control_pairs(c)[0], 0)])
>>> [g.name for g in m], m == Circuit(4).cx(2, 3).ccx(0, 1, 2).cx(2, 3)
(['cx', 'ccx', 'cx'], True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypeVar

from quartz.circuit import Circuit, Gate
from quartz.search.preprocess.relative_phase import Toffoli, find_toffolis, rebuild


# Two Toffolis further apart than this many gates in circuit order are not looked at (keeps
# the dependency walks between them short).
MAX_SPAN = 256


@dataclass(frozen=True)
class ToffoliPair:
    """Two Toffolis that one merge rewrites; `hoist`: the gates between them in circuit order
    that lead to the second (they go before the merged Toffoli)."""

    first: Toffoli
    second: Toffoli
    hoist: tuple[int, ...] = ()

    @property
    def gates(self) -> tuple[int, ...]:
        """The circuit gate indices both Toffolis consist of."""
        return self.first.gates + self.second.gates


@dataclass(frozen=True)
class SharedControlPair(ToffoliPair):
    """Two Toffolis with the same controls, the second next after the first on both controls,
    with no chain of gates from the first to the second."""


def between(circuit: Circuit, gates: list[Gate], pattern: set[int], lo: int, hi: int,
            forward: bool) -> set[int]:
    """The gates outside `pattern` with index in (lo, hi) reachable from it along wires, in
    circuit order (forward) or against it: what depends on the pattern there, or what it
    depends on."""
    step = circuit.successor if forward else circuit.predecessor
    todo = [i for i in pattern if lo <= i <= hi]
    seen: set[int] = set()
    while todo:
        i = todo.pop()
        for slot in range(len(gates[i].qubits)):
            j = step(i, slot)
            if j is not None and lo < j < hi and j not in pattern and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def shared_control_pairs(circuit: Circuit) -> list[SharedControlPair]:
    """The sites where merge_shared_controls applies, in circuit order.

    A Toffoli is a ccx gate, or a ccz with h just before and after it on the target wire (a
    ccz that reads as a Toffoli on more than one wire is left alone). The second Toffoli must
    be the next gate after the first on both controls, and no chain of gates may lead from
    the first (its target wire) to the second (its target wire) in between: then what lies
    between splits into the gates that lead to the second, moved before the merged Toffoli,
    and the rest, left after it.
    """
    gates = list(circuit)
    by_core = {core: ts[0] for core, ts in find_toffolis(circuit, gates).items() if len(ts) == 1}
    pairs = []
    for core in sorted(by_core):
        x1 = by_core[core]
        a, b = sorted(x1.controls)
        qubits = gates[core].qubits
        after_a = circuit.successor(core, qubits.index(a))
        if after_a is None or after_a != circuit.successor(core, qubits.index(b)):
            continue
        x2 = by_core.get(after_a)
        if x2 is None or x2.controls != x1.controls or x2.target == x1.target \
                or x2.core - x1.core > MAX_SPAN:
            continue
        hoist = hoistable(circuit, gates, set(x1.gates + x2.gates), x1.core, x2.core)
        if hoist is not None:
            pairs.append(SharedControlPair(x1, x2, hoist))
    return pairs


def hoistable(circuit: Circuit, gates: list[Gate], pattern: set[int], lo: int, hi: int
              ) -> tuple[int, ...] | None:
    """The gates with index in (lo, hi) outside `pattern` that lead to it (they can move
    before it), or None when a chain of gates there leads from the pattern back into it."""
    before = between(circuit, gates, pattern, lo, hi, False)
    if before & between(circuit, gates, pattern, lo, hi, True):
        return None
    return tuple(sorted(before))


def merge_shared_controls(circuit: Circuit, merges: Sequence[tuple[SharedControlPair, int]]) -> Circuit:
    """`circuit` with each (pair, keep) merged into one Toffoli between two cx gates: keep 0
    keeps the first Toffoli's target, 1 the second's. Exact, global phase kept; the pairs
    must come from shared_control_pairs(circuit) and must not share a gate."""
    def choose(pair: SharedControlPair, keep: int) -> tuple[Toffoli, tuple[int, int]]:
        x, other = (pair.first, pair.second) if keep == 0 else (pair.second, pair.first)
        return x, (x.target, other.target)

    return merge_toffoli_pairs(circuit, merges, choose, "merge_shared_controls",
                               "the first Toffoli's target")


P = TypeVar("P", bound=ToffoliPair)


def merge_toffoli_pairs(circuit: Circuit, merges: Sequence[tuple[P, int]],
                        choose: Callable[[P, int], tuple[Toffoli, tuple[int, int]]],
                        caller: str, keep_zero: str) -> Circuit:
    """`circuit` with each (pair, keep) written as its hoisted gates, then cx, the Toffoli and
    cx again, where choose(pair, keep) gives the Toffoli kept and the cx's (control, target)."""
    gates = list(circuit)
    emit: dict[int, list[tuple[str, tuple[int, ...], tuple[Any, ...]]]] = {}
    skip: set[int] = set()
    for pair, keep in merges:
        if keep not in (0, 1):
            raise ValueError(f"keep must be 0 ({keep_zero}) or 1, got {keep!r}")
        if skip.intersection(pair.gates + pair.hoist):
            raise ValueError(f"{caller}: two merges share a gate")
        x, (control, target) = choose(pair, keep)
        core = gates[x.core]
        if core.name == "ccx":
            body = [("ccx", core.qubits, ())]
        else:
            body = [("h", (x.target,), ()), ("ccz", core.qubits, ()), ("h", (x.target,), ())]
        link = ("cx", (control, target), ())
        hoisted = [(gates[i].name, gates[i].qubits, gates[i].params) for i in pair.hoist]
        emit[pair.first.core] = [*hoisted, link, *body, link]
        skip.update(pair.gates + pair.hoist)
    return rebuild(circuit, gates, emit, skip)


__all__ = ["ToffoliPair", "SharedControlPair", "shared_control_pairs", "merge_shared_controls", "between",
           "merge_toffoli_pairs", "hoistable"]
