"""Two-qubit block resynthesis: an inexact move for `quartz.optimize(..., exact=False)`.

A block is a maximal run of gates on one pair of qubits (with the one-qubit gates on them),
or a run of one-qubit gates on one qubit. Each block's unitary is written again by Qiskit's
`TwoQubitBasisDecomposer` (KAK: the fewest two-qubit basis gates, cx / cz / rxx(pi/2) by gate
set) or `OneQubitEulerDecomposer`, translated into the gate set (quartz.gatesets.convert) and
tidied (rotation merging and inverse cancellation, exact). The block is replaced when that
lowers the cost (the search's: `Cost.search_value`) and the new block's unitary, global phase
included, is within `tolerance` (1e-10) of the old one in operator norm; otherwise the block
stays as it is. The circuit's global phase takes each new block's phase, so the result equals
the input to floating-point rounding, phase included.

In gate sets with h, x and rz (Nam), the searches of `search_and_resynthesize` also write
every run of one-qubit gates in its shortest {h, x, rz} form while they run (the native
polish, `quartz._core.preprocess.resynthesize_1q_runs`), so rotations freed by one rewrite
meet the next inside one search instead of between rounds.

Angles from the decomposition are floats (not rational multiples of pi unless they round to
one), so a result can only be checked numerically; `quartz.optimize` reports its check as
evidence, not a proof (`report['check']['proof']` False, `numeric` True).

Euler bases per built-in gate set: nam 'ZXZ' (rx(t) = h rz(t) h), ibm 'U321',
ibm_modern 'ZSXX', rigetti 'ZSXX' (sx = rx(pi/2), x = rx(pi): rx keeps its native angles),
ionq 'ZYZ' and 'XYX'. clifford_t has no continuous rotation, so a generic block is not exactly
representable there: `unsupported('clifford_t')` says so and resynthesis is not run.

>>> from quartz import Circuit
>>> from quartz.gatesets import convert
>>> c = convert(Circuit(2).cx(0, 1).cx(1, 0).cx(0, 1).cx(1, 0), "rigetti")  # SWAP, one more cx
>>> len(c), c.two_qubit_count
(28, 4)
>>> out = resynthesize(c, "rigetti")
>>> out.two_qubit_count, len(out) < len(c), bool(abs(out.unitary() - c.unitary()).max() < 1e-9)
(2, True, True)
"""
from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.gatesets import GateSet, get_gate_set

log = logging.getLogger("quartz")

TOLERANCE = 1e-10  # operator-norm distance allowed between a new block and the old one
PASSES = 3  # block passes of one resynthesize() call (a rewrite can join blocks for the next)
ROUNDS = 3  # searches of search_and_resynthesize, with a resynthesis pass between two
# The resynthesis pass of a round may use this share of the round's budget (what the search
# leaves unused adds to it).
RESYNTH_SHARE = 0.2
_TWO_QUBIT_BASES = ("cx", "cz", "rxx")  # the first one in the gate set is the KAK basis gate
_CONTINUOUS = {"rz", "rx", "ry", "p", "u1", "u2", "u3"}
_SWAP = np.eye(4)[[0, 2, 1, 3]]


@dataclass
class ResynthStats:
    """What one resynthesize() call did."""

    blocks: int = 0          # blocks of two or more gates looked at (all passes)
    rewritten: int = 0       # blocks replaced
    rejected: int = 0        # candidates off by more than the tolerance (never used)
    saved: float = 0.0       # cost removed by the rewrites
    seconds: float = 0.0
    passes: int = 0
    out_of_time: bool = False  # the deadline stopped a pass before its last block

    def as_dict(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


@dataclass
class _Block:
    qubits: tuple[int, ...]
    gates: list[int] = field(default_factory=list)
    open: bool = True


# --- gate set ------------------------------------------------------------------------------
def unsupported(gate_set: str | GateSet) -> str | None:
    """Why blocks cannot be resynthesized into `gate_set` (None: they can)."""
    gs = get_gate_set(gate_set)
    gates = set(gs.gates)
    if not gates & _CONTINUOUS:
        return (f"gate set '{gs.name}' has no continuous rotation gate, so a resynthesized block "
                "is not exactly representable in it")
    if _two_qubit_basis(gs) is None:
        return f"gate set '{gs.name}' has no cx, cz or rxx gate (nor one that converts to cx)"
    if not _euler_bases(gs):
        return f"gate set '{gs.name}' cannot express a generic one-qubit unitary"
    return None


def _two_qubit_basis(gs: GateSet) -> str | None:
    from quartz.gatesets import convertible

    for g in _TWO_QUBIT_BASES:
        if g in gs.gates:
            return g
    return "cx" if convertible("cx", gs) else None


def _euler_bases(gs: GateSet) -> tuple[str, ...]:
    """Qiskit Euler bases whose gates convert into `gs` one to one (or rx to h rz h)."""
    g = set(gs.gates)
    out = []
    if "u3" in g:
        out.append("U321" if {"u1", "u2"} <= g else "U3")
    if {"rz", "sx"} <= g:
        out.append("ZSXX" if "x" in g else "ZSX")
    elif {"rz", "rx"} <= g and "ry" not in g:
        out.append("ZSXX")  # sx = rx(pi/2), x = rx(pi): native rx angles only
    if {"rz", "ry"} <= g:
        out.append("ZYZ")
    if {"rx", "ry"} <= g:
        out.append("XYX")
    if {"rz", "h"} <= g and not out:
        out.append("ZXZ")  # rx(t) = h rz(t) h
    if not out:
        from quartz.gatesets import convertible

        if all(convertible(x, gs) for x in ("rz", "rx")):
            out.append("ZXZ")
    return tuple(out)


@lru_cache(maxsize=32)
def _decomposers(gs: GateSet):
    """(two-qubit decomposers, one-qubit decomposers) for the gate set."""
    from qiskit.circuit.library import CXGate, CZGate, RXXGate
    from qiskit.synthesis import OneQubitEulerDecomposer, TwoQubitBasisDecomposer

    gate = {"cx": CXGate(), "cz": CZGate(), "rxx": RXXGate(math.pi / 2)}[_two_qubit_basis(gs)]
    bases = _euler_bases(gs)
    return ([TwoQubitBasisDecomposer(gate, euler_basis=b) for b in bases],
            [OneQubitEulerDecomposer(b) for b in bases])


# --- blocks --------------------------------------------------------------------------------
def collect_blocks(circuit: Circuit) -> list[_Block]:
    """The circuit's blocks in the order of their last gate: maximal runs on one pair of
    qubits (one-qubit gates on them included; a run of one-qubit gates before a block's first
    two-qubit gate joins it) and the one-qubit runs left over. A gate on three or more qubits
    belongs to no block. On each qubit a block's gates are consecutive, so every block is
    convex and can be replaced where its last gate stands."""
    blocks: list[_Block] = []
    owner: dict[int, int] = {}  # qubit -> index of the open block holding its latest gate

    def open_block(q: int) -> int | None:
        b = owner.get(q)
        return b if b is not None and blocks[b].open else None

    def close(b: int | None) -> None:
        if b is not None:
            blocks[b].open = False

    for i, g in enumerate(circuit):
        qs = g.qubits
        if len(qs) == 1:
            b = open_block(qs[0])
            if b is None:
                blocks.append(_Block((qs[0],)))
                b = owner[qs[0]] = len(blocks) - 1
            blocks[b].gates.append(i)
        elif len(qs) == 2:
            a, c = qs
            ba, bc = open_block(a), open_block(c)
            if ba is not None and ba == bc:
                blocks[ba].gates.append(i)
                continue
            new = _Block((a, c))
            for b in (ba, bc):
                if b is None:
                    continue
                if len(blocks[b].qubits) == 1:  # a one-qubit run joins the new block
                    new.gates.extend(blocks[b].gates)
                    blocks[b].gates = []
                close(b)
            new.gates.sort()
            new.gates.append(i)
            blocks.append(new)
            owner[a] = owner[c] = len(blocks) - 1
        else:
            for q in qs:
                close(open_block(q))
                owner.pop(q, None)
    out = [b for b in blocks if b.gates]
    out.sort(key=lambda b: b.gates[-1])
    return out


def _local(circuit_gates, block: _Block) -> Circuit:
    """The block as a circuit on its own qubits (block.qubits[k] -> k), no global phase."""
    index = {q: k for k, q in enumerate(block.qubits)}
    sub = Circuit(len(block.qubits))
    native = sub.native
    for i in block.gates:
        g = circuit_gates[i]
        native.add_gate(g.name, [index[q] for q in g.qubits], list(g.params))
    return sub


# --- synthesis -----------------------------------------------------------------------------
def _tidy(c: Circuit, style: str | None) -> Circuit:
    from quartz.search.preprocess import cancel_inverses, rotation_merge

    if style is not None:
        c = rotation_merge(c, style)
    return cancel_inverses(c)


def _candidates(u: np.ndarray, gs: GateSet, stats: ResynthStats, tolerance: float):
    """Circuits in `gs` with unitary `u` (phase included) to `tolerance`."""
    from quartz.errors import GateSetError
    from quartz.gatesets import convert
    from quartz.search.preprocess import style_for_gate_set

    two, one = _decomposers(gs)
    style = style_for_gate_set(gs)
    if u.shape[0] == 4:
        # Both orientations of the basis gate: u itself, and u with its qubits swapped, whose
        # circuit is then mapped back with its wires exchanged.
        jobs = [(dec, flip) for dec in two for flip in (False, True)]
    else:
        jobs = [(dec, False) for dec in one]
    for dec, flip in jobs:
        try:
            if u.shape[0] == 4:
                qc = dec(_SWAP @ u @ _SWAP if flip else u, approximate=False)
                if flip:
                    qc = qc.reverse_bits()
            else:
                qc = dec(u)
            c = _tidy(convert(Circuit.from_qiskit(qc), gs), style)
        except (GateSetError, QuartzError, ValueError) as e:
            log.debug("resynthesis candidate skipped: %s", e)
            continue
        if np.linalg.norm(c.unitary() - u, 2) > tolerance:
            stats.rejected += 1
            continue
        yield c


def resynthesize(circuit: Circuit, gate_set: str | GateSet = "nam", *, cost="gates",
                 deadline: float | None = None, tolerance: float = TOLERANCE,
                 passes: int = PASSES, stats: ResynthStats | None = None) -> Circuit:
    """`circuit` with each block (see collect_blocks) replaced by its resynthesis into
    `gate_set` where that lowers `cost`; never costlier than `circuit`. Up to `passes`
    passes, until one rewrites nothing; `deadline` (time.monotonic()) ends a pass early.
    `stats` (a ResynthStats) receives what was done. Raises QuartzError for a circuit that is
    not a quartz.Circuit, has symbolic angles, or a gate set that unsupported() refuses."""
    from quartz.search.costs import get_cost

    if not isinstance(circuit, Circuit):
        raise QuartzError(f"resynthesize needs a quartz.Circuit, got {type(circuit).__name__}")
    if circuit.num_symbols:
        raise QuartzError("cannot resynthesize a circuit with symbolic angles; bind the symbols first")
    if not (isinstance(tolerance, (int, float)) and 0 < tolerance < 1e-3):
        raise QuartzError(f"tolerance must be a number in (0, 1e-3), got {tolerance!r}")
    gs = get_gate_set(gate_set)
    why = unsupported(gs)
    if why is not None:
        raise QuartzError(f"cannot resynthesize blocks: {why}")
    c = get_cost(cost)
    stats = stats if stats is not None else ResynthStats()
    t0 = time.monotonic()
    before = c.search_value(circuit)
    cache: dict[tuple, Circuit | None] = {}
    out = circuit
    for _ in range(max(0, int(passes))):
        stats.passes += 1
        out, rewritten = _one_pass(out, gs, c, deadline, tolerance, stats, cache)
        if not rewritten or stats.out_of_time:
            break
    if c.search_value(out) > before:  # a non-additive cost (depth) can disagree
        out = circuit
    stats.saved += before - c.search_value(out)
    stats.seconds += time.monotonic() - t0
    return out


def _angle_key(p):
    """An angle, exactly: (num, den) of a multiple of pi, else the float's bits."""
    return p.pi_fraction if p.is_exact else float(p.value()).hex()


def _one_pass(circuit: Circuit, gs: GateSet, cost, deadline, tolerance, stats, cache):
    from quartz.angles import to_param

    gates = list(circuit)
    new_blocks: dict[int, tuple[_Block, Circuit]] = {}  # last gate index -> replacement
    skip: set[int] = set()
    for block in collect_blocks(circuit):
        if len(block.gates) < 2:
            continue
        if deadline is not None and time.monotonic() > deadline:
            stats.out_of_time = True
            break
        stats.blocks += 1
        old = _local(gates, block)
        key = tuple((gates[i].name, tuple(block.qubits.index(q) for q in gates[i].qubits),
                     tuple(_angle_key(p) for p in gates[i].params)) for i in block.gates)
        if key in cache:
            best = cache[key]
        else:
            u = old.unitary()
            best, best_cost = None, cost.search_value(old) - 1e-9
            for cand in _candidates(u, gs, stats, tolerance):
                v = cost.search_value(cand)
                if v < best_cost:
                    best, best_cost = cand, v
            cache[key] = best
        if best is not None:
            new_blocks[block.gates[-1]] = (block, best)
            skip.update(block.gates)
    if not new_blocks:
        return circuit, 0
    out = Circuit(circuit.num_qubits, name=circuit.name)
    native = out.native
    phase = circuit.global_phase
    for i, g in enumerate(gates):
        if i in new_blocks:
            block, sub = new_blocks[i]
            for s in sub:
                native.add_gate(s.name, [block.qubits[q] for q in s.qubits], list(s.params))
            phase = phase + sub.global_phase
        elif i not in skip:
            native.add_gate(g.name, list(g.qubits), list(g.params))
    reduced, _ = phase.reduced(1)
    out.global_phase = to_param(reduced.value()) if not reduced.is_exact else reduced
    stats.rewritten += len(new_blocks)
    return out, len(new_blocks)


# --- search with resynthesis ---------------------------------------------------------------
def search_and_resynthesize(circuit: Circuit, rules, gate_set: str | GateSet, *,
                            timeout: float, cost="gates", seed: int | None = None,
                            rounds: int = ROUNDS, **search_kw):
    """quartz.search.driver.search, then resynthesize(), then search again on its result, ...
    (`rounds` searches in all, sharing `timeout`), keeping the best circuit. Returns the
    search's SearchResult (history, moves and flags summed over the rounds) with an extra
    attribute `resynth`: a dict of the resynthesis passes (ResynthStats.as_dict summed, plus
    'rounds' and 'numeric': whether the returned circuit contains a resynthesized block), or
    {'skipped': why, 'numeric': False} for a gate set that unsupported() refuses (then it is
    just the search)."""
    from quartz.search.costs import get_cost
    from quartz.search.coupling import off_coupling
    from quartz.search.driver import search

    t0 = time.monotonic()
    c = get_cost(cost)
    why = unsupported(gate_set)
    if why is not None:
        log.warning("exact=False: %s; running the exact search only", why)
        found = search(circuit, rules, cost=c, timeout=timeout, seed=seed, **search_kw)
        return replace(found, resynth={"skipped": why, "numeric": False})
    # The search's polish writes one-qubit runs in their shortest {h, x, rz} form too
    # (inexact), in gate sets that have those three gates, and runs with rx in their shortest
    # {rx, rz} form in gate sets with rx and rz (Rigetti's, IonQ's).
    gates = set(get_gate_set(gate_set).gates)
    search_kw = dict(search_kw, resynth_1q=search_kw.get("polish") is not None
                     and ({"h", "x", "rz"} <= gates or {"rx", "rz"} <= gates))
    rounds = max(1, int(rounds))
    stats = ResynthStats()
    best, best_numeric = circuit, False
    history: list[tuple[float, float]] = []
    moves, restarts, interrupted, converged, done = 0, 0, False, False, 0
    for r in range(rounds):
        start = time.monotonic() - t0
        share = max(0.0, timeout - start) / (rounds - r)
        if share <= 0 and r:
            break
        last = r == rounds - 1
        found = search(best, rules, cost=c, seed=None if seed is None else seed + r,
                       timeout=share if last else share * (1 - RESYNTH_SHARE), **search_kw)
        done += 1
        moves += found.expansions
        restarts += found.restarts
        interrupted, converged = found.interrupted, found.converged
        history.extend((t + start, v) for t, v in found.history
                       if not history or v < history[-1][1] - 1e-12)
        if c.search_value(found.circuit) < c.search_value(best) - 1e-12:
            # One-qubit runs rewritten by the search leave float angles (numeric, like ours).
            best_numeric = best_numeric or (search_kw["resynth_1q"]
                                            and has_float_angles(found.circuit))
            best = found.circuit
        if last or interrupted:
            break
        before = stats.rewritten
        out = resynthesize(best, gate_set, cost=c, deadline=t0 + start + share, stats=stats)
        coupling = search_kw.get("coupling")
        if (stats.rewritten > before and c.search_value(out) < c.search_value(best) - 1e-12
                and (coupling is None or off_coupling(out, coupling) is None)):
            best, best_numeric = out, True
            history.append((time.monotonic() - t0, c.search_value(best)))
        elif converged:
            break  # the search had converged and resynthesis found nothing: nothing new to try
    return replace(found, circuit=best, initial_cost=c.search_value(circuit),
                   final_cost=c.search_value(best), seconds=time.monotonic() - t0,
                   expansions=moves, restarts=restarts, history=history, interrupted=interrupted,
                   converged=converged and not interrupted,
                   resynth=dict(stats.as_dict(), rounds=done, numeric=best_numeric))


def has_float_angles(circuit: Circuit) -> bool:
    """Whether any gate of `circuit` has an angle that is not an exact multiple of pi."""
    return any(not p.is_exact for g in circuit for p in g.params)


__all__ = ["resynthesize", "collect_blocks", "unsupported", "search_and_resynthesize",
           "has_float_angles", "ResynthStats", "TOLERANCE"]
