"""The preprocessing pipeline run before search."""
from __future__ import annotations

from quartz.circuit import Circuit
from quartz.search.preprocess.cancel import cancel_inverses
from quartz.search.preprocess.ccz import decompose_ccz_greedy
from quartz.search.preprocess.hadamard import reverse_hadamard_networks
from quartz.search.preprocess.recognize import recognize_ccz
from quartz.search.preprocess.relative_phase import relative_phase_toffolis
from quartz.search.preprocess.resynth import resynthesize_blocks
from quartz.search.preprocess.rotation_merge import rotation_merge
from quartz.search.preprocess.styles import check_circuit, style_for_gate_set


# Above this many gates (after decomposition) only the resynthesized decomposition and the
# first-occurrence placement are tried, which keeps gf2^163_mult (0.27M gates) to a few seconds.
LARGE = 150_000


def _decompositions(circuit: Circuit, gates: set[str], style: str | None, refine: int) -> list[Circuit]:
    """The candidate circuits with Toffolis outside the gate set decomposed."""
    ops = circuit.count_ops()
    need = {g for g in ("ccz", "ccx") if g in ops and g not in gates}
    if not need:
        return [circuit]
    if style is not None and "cx" in gates and ("ccx" not in need or "h" in gates):
        large = len(circuit) + 14 * (ops.get("ccz", 0) + ops.get("ccx", 0)) > LARGE
        return [decompose_ccz_greedy(circuit, style, refine=refine, resynthesize=r)
                for r in ((True,) if large else (True, False))]
    from quartz.gatesets import convert

    return [convert(circuit, gates)]


def _toffoli_variants(circuit: Circuit, gates: set[str], style: str | None) -> list[Circuit]:
    """The input, its decomposed CCZs folded back, and compute/uncompute pairs made relative-phase.

    Each later variant differs from the one before only when the pass changed something;
    above LARGE gates only the last one is kept.
    """
    if style is None or not {"cx", "h"} <= gates:
        return [circuit]
    variants = [circuit]
    folded = recognize_ccz(circuit)
    if folded is not circuit:
        variants.append(folded)
    paired = relative_phase_toffolis(folded, style)
    if paired is not folded:
        variants.append(paired)
    return variants[-1:] if len(circuit) > LARGE else variants


def _simplify(c: Circuit, style: str | None, max_rounds: int, blocks: bool) -> Circuit:
    """Alternate rotation merging and inverse cancellation while the gate count falls."""
    c = cancel_inverses(c)
    placements = ("first",) if len(c) > LARGE else ("first", "last")
    for round_ in range(max_rounds if style is not None else 0):
        best = min((cancel_inverses(rotation_merge(c, style, placement=p)) for p in placements), key=len)
        # Fewer H gates join phase-polynomial regions: merge again over the joined ones.
        reversed_h = reverse_hadamard_networks(best)
        if len(reversed_h) < len(best):
            best = min((cancel_inverses(rotation_merge(reversed_h, style, placement=p))
                        for p in placements), key=len)
        if blocks:
            best = cancel_inverses(resynthesize_blocks(best, style))
        # The first round is always adopted (it rewrites diagonal gates into the gate set's
        # rotation gate); every round must lower the gate count for another one to run.
        if len(best) > len(c) or (round_ > 0 and len(best) == len(c)):
            break
        gain = len(best) < len(c)
        c = best
        if not gain:
            break
    return c


def preprocess(circuit: Circuit, gate_set="nam", *, max_rounds: int = 20, refine: int = 4,
               blocks: bool = False) -> Circuit:
    """Exact pre-search simplification for `gate_set`; the unitary and global phase are kept.

    Decomposed CCZs (the 13-gate cx/rotation pattern) are folded back into ccz, and Toffolis
    undone later by the same Toffoli become Margolus relative-phase pairs (9 gates each
    instead of 15; relative_phase_toffolis); the input itself stays a candidate.
    ccz/ccx outside the gate set are decomposed with greedy polarity (when the set has cx and a
    diagonal rotation gate), both with the fixed 13-gate pattern and with per-Toffoli shortest
    cx ladders; then rotation merging (in the gate set's rotation gate) and inverse
    cancellation alternate, each round keeping the better of first/last placement and writing
    Hadamard-conjugated cx networks reversed (reverse_hadamard_networks), until the gate count
    stops falling; the smaller candidate wins (above LARGE gates only the
    resynthesized one, first placement). blocks=True adds shortest-cx resynthesis of small
    {cx, x, rz} blocks to every round (resynthesize_blocks; about 3 points more geomean
    reduction on the Nam suite). Gate sets without rz/p/u1/t only get inverse cancellation.
    """
    from quartz.gatesets import get_gate_set

    check_circuit(circuit, "preprocess")
    gs = get_gate_set(gate_set)
    gates = set(gs.gates)
    style = style_for_gate_set(gs)
    variants = _toffoli_variants(circuit, gates, style)
    results = [_simplify(c, style, max_rounds, blocks)
               for v in variants for c in _decompositions(v, gates, style, refine)]
    return min(results, key=lambda c: (len(c), c.cx_count))
