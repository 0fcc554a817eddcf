"""Toffoli-level rewrites chosen by trial: each one kept only when the preprocessed circuit
gets cheaper.

Exact rewrites of Toffoli circuits change how many Toffolis there are, which the gate-level
search cannot see once they are decomposed: two Toffolis that share their controls merged
into one between two cx gates (quartz.search.shared_controls), two on the same target with one
common control merged likewise (quartz.search.shared_target), and an adder's carry,
ccx(a, b, t) cx(a, b) ccx(c, b, t), written as one Toffoli and six cx (quartz.search.majority;
also its mirror image, the uncompute, and both at once). Whether a rewrite pays depends on what
the preprocessor then makes of the whole circuit (relative-phase pairs, h cancellation,
rotation merging), so search_toffoli_rewrites tries them one site at a time and scores each
by the preprocessed cost. Measured (benchmarks/history/BENCHMARKS-2026-12-07.md,
"Toffoli-level rewrites by trial"):
mod_adder_1024 2,330 -> 2,277 and ham15-high 2,605 -> 2,571 gates by the merges, vbe_adder_3
89 -> 72 by the carries, all before the search.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from quartz.circuit import Circuit
from quartz.search.majority import majority_sites, rewrite_majorities, split_shared_hadamards
from quartz.search.preprocess.relative_phase import Toffoli
from quartz.search.shared_controls import merge_shared_controls, shared_control_pairs
from quartz.search.shared_target import merge_shared_targets, shared_target_pairs


@dataclass
class ToffoliTrialReport:
    """What search_toffoli_rewrites did: sites in the input (merges, carries), rewrites kept
    (merges, carries), preprocessor runs, seconds, and the cost before and after."""

    sites: int = 0
    carry_sites: int = 0
    merged: int = 0
    carries: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    start_cost: float = 0.0
    cost: float = 0.0
    skipped: bool = False  # too large for its time: no site was looked for
    hopeless: int = 0  # sites not tried again: they raised the cost by HOPELESS_MARGIN or more
    rewritten: Circuit | None = None  # the Toffoli-level circuit before its preprocessing

    def as_dict(self) -> dict[str, Any]:
        return dict(sites=self.sites, carry_sites=self.carry_sites, merged=self.merged,
                    carries=self.carries, evaluations=self.evaluations,
                    seconds=round(self.seconds, 3), start_cost=self.start_cost, cost=self.cost,
                    skipped=self.skipped, hopeless=self.hopeless)


# A generous bound on the time finding the sites takes per gate (measured: about 3 us); the
# trial is skipped when the scan alone would not fit its time.
SCAN_SECONDS_PER_GATE = 1e-5

# A site whose best rewrite raised the preprocessed cost by this much or more is not tried
# again in later passes (ham15-high: its 18 same-target merges each cost 15-21 gates, and
# trying them again after every pass took 6 s of a 60 s budget for nothing).
HOPELESS_MARGIN = 8.0

# (position in the circuit, kind, the rewrites to try there: (circuit maker, carries
# rewritten), what the site rewrites: its kind and the wires of its Toffolis)
_Site = tuple[int, str, list[tuple[Callable[[], Circuit], int]], tuple[Any, ...]]


def _wires(*toffolis: Toffoli) -> tuple[Any, ...]:
    return tuple((x.target, tuple(sorted(x.controls))) for x in toffolis)


def _sites(current: Circuit) -> list[_Site]:
    """Every rewrite site of `current` in circuit order, with its alternatives."""
    out: list[_Site] = []
    for p in shared_control_pairs(current):
        out.append((p.first.core, "merge",
                    [(partial(merge_shared_controls, current, [(p, k)]), 0) for k in (0, 1)],
                    ("controls", *_wires(p.first, p.second))))
    for q in shared_target_pairs(current):
        out.append((q.first.core, "merge",
                    [(partial(merge_shared_targets, current, [(q, k)]), 0) for k in (0, 1)],
                    ("target", *_wires(q.first, q.second))))
    # Carries are looked for with h h written between ccz gates that share their h (the
    # pairing of Toffolis that the preprocessor picks can differ with them, so only the
    # carry rewrites start from that form).
    split = split_shared_hadamards(current)
    carries = majority_sites(split)
    for s in carries:
        tries: list[tuple[Callable[[], Circuit], int]] = [
            (partial(rewrite_majorities, split, [s]), 1)]
        if not s.inverse:  # with its uncompute: the pair stays a relative-phase pair
            mirror = next((m for m in carries if m.inverse and m.position > s.position
                           and (m.a, m.b, m.c, m.t) == (s.a, s.b, s.c, s.t)
                           and not set(m.gates + m.hoist) & set(s.gates + s.hoist)), None)
            if mirror is not None:
                tries.append((partial(rewrite_majorities, split, [s, mirror]), 2))
        out.append((s.position, "carry", tries, ("carry", s.a, s.b, s.c, s.t, s.inverse)))
    out.sort(key=lambda x: x[0])
    return out


def _signatures(sites: list[_Site]) -> list[tuple[Any, ...]]:
    """Each site's identity across rescans: what it rewrites, and which one of the sites that
    rewrite the same wires it is, in circuit order."""
    seen: dict[tuple[Any, ...], int] = {}
    out = []
    for site in sites:
        n = seen.get(site[3], 0)
        seen[site[3]] = n + 1
        out.append((*site[3], n))
    return out


def search_toffoli_rewrites(circuit: Circuit, gate_set: Any = "nam", *, timeout: float = 10.0,
                            key: Callable[[Circuit], float] = len,
                            start: Circuit | None = None) -> tuple[Circuit, ToffoliTrialReport]:
    """The preprocessed `circuit` with the Toffoli-level rewrites that lower `key` of the
    preprocessed result: (best preprocessed circuit, report).

    Works on the circuit with its decomposed CCZs folded back (recognize_ccz; carries are
    found with h h written between ccz gates that share their h, split_shared_hadamards);
    passes over the sites in circuit order, trying each alternative there and taking the
    cheapest when it lowers the cost, the sites found again after each rewrite, until a pass takes none or `timeout`
    seconds are spent (a preprocessor run is not started when the last one would not fit);
    a site whose best rewrite raised the cost by HOPELESS_MARGIN or more is not tried again.
    `start`: the preprocessed input when the caller has it (the cost to beat). Skipped
    (report.skipped) when `timeout` is under SCAN_SECONDS_PER_GATE per gate. Exact: every
    candidate is the input rewritten by identities, then preprocessed.
    """
    from quartz.search.preprocess import preprocess, recognize_ccz

    t0 = time.monotonic()
    deadline = t0 + timeout
    best = preprocess(circuit, gate_set) if start is None else start
    report = ToffoliTrialReport(start_cost=key(best), cost=key(best))
    if len(circuit) * SCAN_SECONDS_PER_GATE > timeout:
        report.skipped = True
        report.seconds = time.monotonic() - t0
        return best, report
    current = recognize_ccz(circuit)
    sites = _sites(current)
    report.sites = sum(1 for s in sites if s[1] == "merge")
    report.carry_sites = len(sites) - report.sites
    last = 0.0  # seconds of the last preprocessor run
    out_of_time = False
    hopeless: set[tuple[Any, ...]] = set()  # sites that lost by HOPELESS_MARGIN or more
    signed = list(zip(sites, _signatures(sites)))
    while sites and not out_of_time:
        taken, position = False, -1
        while True:
            todo = [(s, sig) for s, sig in signed if s[0] > position and sig not in hopeless]
            if not todo:
                break
            (position, kind, tries, _), signature = todo[0]
            scored: list[tuple[float, int, Circuit, Circuit, int]] = []
            for make, carries in tries:
                if time.monotonic() + last > deadline:
                    out_of_time = True
                    break
                s0 = time.monotonic()
                candidate = make()
                pre = preprocess(candidate, gate_set)
                last = time.monotonic() - s0
                report.evaluations += 1
                scored.append((key(pre), len(scored), candidate, pre, carries))
            if out_of_time:
                break
            cost, _, candidate, pre, carries = min(scored, key=lambda x: (x[0], x[1]))
            if cost < report.cost:
                best, current, report.cost = pre, candidate, cost
                report.rewritten = candidate
                report.merged += kind == "merge"
                report.carries += carries
                taken = True
                sites = _sites(current)  # go on after the rewritten stretch (about `position`)
                signed = list(zip(sites, _signatures(sites)))
            elif cost >= report.cost + HOPELESS_MARGIN:
                hopeless.add(signature)
                report.hopeless += 1
        if not taken:
            break
    report.seconds = time.monotonic() - t0
    return best, report


__all__ = ["ToffoliTrialReport", "search_toffoli_rewrites"]
