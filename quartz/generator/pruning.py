"""ECC simplification passes (Quartz PLDI'22 section 5), on classes of light circuits.

A class is (num_qubits, [circuits]) with circuit 0 its representative. Every pass only drops
circuits or classes, or renames qubits/symbols inside one class, so equivalence is preserved.
`simplify` cycles through the passes until a whole cycle changes nothing and records the counts
(classes, circuits, transformations = 2 * (circuits - classes)) after each pass.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from quartz.generator.light import (LightCircuit, canonical, first_gates, last_gates, order_key,
                                    qubits_used, relabel, symbols_used)

Class = tuple[int, list]  # (num_qubits, circuits)


@dataclass
class PassCount:
    """Counts after one pass."""

    name: str
    classes: int
    circuits: int

    @property
    def transformations(self) -> int:
        return 2 * (self.circuits - self.classes)

    def to_json(self) -> dict:
        return {"pass": self.name, "classes": self.classes, "circuits": self.circuits,
                "transformations": self.transformations}


def count(classes: list[Class], name: str) -> PassCount:
    """The counts of a list of classes."""
    return PassCount(name, len(classes), sum(len(c) for _, c in classes))


def sort_class(circuits: list[LightCircuit]) -> list[LightCircuit]:
    """Members deduplicated and sorted in the total order (the first is the representative)."""
    return sorted(set(circuits), key=order_key)


def drop_singletons(classes: list[Class]) -> list[Class]:
    """Drop classes with fewer than two circuits (they give no transformation)."""
    return [(nq, cs) for nq, cs in classes if len(cs) >= 2]


def split_identity_classes(classes: list[Class]) -> list[Class]:
    """Split a class holding the empty circuit into {empty, c} pairs: the empty circuit uses no
    qubit, so each member can then shrink to the qubits it uses (h h -> 1 qubit, cx cx -> 2)."""
    out = []
    for nq, cs in classes:
        if len(cs) > 2 and () in cs:
            out.extend((nq, [(), c]) for c in cs if c != ())
        else:
            out.append((nq, cs))
    return out


def remove_unused_qubits(classes: list[Class]) -> list[Class]:
    """Renumber the qubits a class uses to 0..u-1 (order kept); unused qubits disappear."""
    out = []
    for nq, cs in classes:
        used = sorted(set().union(*(qubits_used(c) for c in cs)))
        if len(used) == nq and used == list(range(nq)):
            out.append((nq, cs))
            continue
        qmap = {q: i for i, q in enumerate(used)}
        out.append((max(1, len(used)), sort_class([relabel(c, qmap) for c in cs])))
    return out


def remove_unused_symbols(classes: list[Class]) -> list[Class]:
    """Renumber the symbols a class uses to p0..p(j-1) (order kept)."""
    out = []
    for nq, cs in classes:
        used = sorted(set().union(*(symbols_used(c) for c in cs)))
        if used == list(range(len(used))):
            out.append((nq, cs))
            continue
        smap = {s: i for i, s in enumerate(used)}
        ident = list(range(nq))
        out.append((nq, sort_class([relabel(c, ident, smap) for c in cs])))
    return out


def drop_fresh_symbol_classes(classes: list[Class]) -> list[Class]:
    """Drop a class in which some symbol only ever appears inside one compound expression
    (e.g. only as p0+p1, or only as 2*p0): the same class with a fresh symbol in place of that
    expression is more general and is in the set too."""
    out = []
    for nq, cs in classes:
        exprs: dict[int, set] = {}
        for c in cs:
            for g in c:
                for p in g[2]:
                    for s, _ in p:
                        if s >= 0:
                            exprs.setdefault(s, set()).add(p)
        redundant = any(len(es) == 1 and next(iter(es)) != ((s, 1),) for s, es in exprs.items())
        if not redundant:
            out.append((nq, cs))
    return out


def merge_permuted(classes: list[Class]) -> list[Class]:
    """Merge classes that are the same up to a permutation of qubits and symbols.

    RepGen is not symmetric under relabelling (its canonical form and representatives depend on
    the labels), so relabelled copies of a class may hold different members. When some circuit
    of a class, relabelled, is already in an earlier class, the relabelled members are added to
    that class and this one is dropped (Quartz's remove_parameter_permutations, extended to
    qubit permutations)."""
    where: dict[tuple, int] = {}  # (num_qubits, circuit) -> index in out
    out: list[Class] = []
    for nq, cs in classes:
        syms = sorted(set().union(*(symbols_used(c) for c in cs)))
        target = None
        perms = [(qp, sp) for qp in itertools.permutations(range(nq))
                 for sp in itertools.permutations(syms)]
        for qp, sp in perms:
            smap = dict(zip(syms, sp))
            moved = [relabel(c, qp, smap) for c in cs]
            for c in moved:
                j = where.get((nq, c))
                if j is not None:
                    target = (j, moved)
                    break
            if target is not None:
                break
        if target is None:
            out.append((nq, list(cs)))
            for c in cs:
                where[(nq, c)] = len(out) - 1
            continue
        j, moved = target
        tq, tcs = out[j]
        have = set(tcs)
        for c in moved:
            if c not in have:
                tcs.append(c)
                have.add(c)
                where[(nq, c)] = j
    return [(nq, sort_class(cs)) for nq, cs in out]


def common_subcircuit(classes: list[Class]) -> list[Class]:
    """Drop a circuit that shares a first gate or a last gate with an earlier kept circuit of
    its class: the transformation between them follows from a smaller one."""
    out = []
    for nq, cs in classes:
        kept, firsts, lasts = [], set(), set()
        for c in cs:
            f, l_ = first_gates(c), last_gates(c)
            if kept and (f & firsts or l_ & lasts):
                continue
            kept.append(c)
            firsts |= f
            lasts |= l_
        out.append((nq, kept))
    return out


PASSES = (
    ("drop singletons", drop_singletons),
    ("split identity classes", split_identity_classes),
    ("remove unused qubits", remove_unused_qubits),
    ("remove unused symbols", remove_unused_symbols),
    ("drop fresh-symbol classes", drop_fresh_symbol_classes),
    ("merge permuted classes", merge_permuted),
    ("common-subcircuit pruning", common_subcircuit),
)


def simplify(classes: list[Class], *, max_cycles: int = 10,
             split_identity: bool = True) -> tuple[list[Class], list[PassCount]]:
    """Run the passes in cycles until nothing changes; returns the classes and every pass's
    counts. split_identity=False keeps Quartz's single identity class."""
    log = [count(classes, "start")]
    for cycle in range(max_cycles):
        before = [(nq, list(cs)) for nq, cs in classes]
        for name, fn in PASSES:
            if fn is split_identity_classes and not split_identity:
                continue
            classes = fn(classes)
            log.append(count(classes, f"{name} (cycle {cycle + 1})"))
        if classes == before:
            break
    return classes, log


def simplify_generated(gen: Any, gates: tuple[str, ...], *, max_cycles: int = 10,
                       split_identity: bool = True) -> tuple[list[Class], list[PassCount]]:
    """`simplify` on a native generator's classes of two or more circuits, run in C++
    (quartz._core.Generator.prune, the same passes with the same results, a test compares
    them) so that generation is not bound by Python; returns light classes and the counts."""
    from quartz.generator.repgen import param_terms

    pterms = param_terms(gen)
    native, native_log = gen.prune(list(gates), split_identity, max_cycles)
    classes = [(nq, [tuple((t, qs, tuple(pterms[p] for p in ps)) for t, qs, ps in c) for c in cs])
               for nq, cs in native]
    log = [PassCount(name if name == "start" else f"{name} (cycle {cycle})", ncls, ncirc)
           for name, cycle, ncls, ncirc in native_log]
    return classes, log


__all__ = ["PassCount", "simplify", "simplify_generated", "PASSES", "canonical"] + [n for n in (
    "drop_singletons", "split_identity_classes", "remove_unused_qubits", "remove_unused_symbols", "drop_fresh_symbol_classes",
    "merge_permuted", "common_subcircuit")]
