"""`quartz.optimize`: one call from any circuit kind to a smaller, checked-equivalent circuit.

>>> import quartz
>>> from quartz import Circuit
>>> from quartz.ecc_sets import Phase, Transformation
>>> hh = Transformation(Circuit(1).h(0).h(0), Circuit(1), Phase(), 0)
>>> out = quartz.optimize(Circuit(1).h(0).x(0).x(0).h(0).x(0), timeout=1, ecc_set=[hh],
...                       preprocess=False)
>>> [g.name for g in out]
['h', 'x', 'x', 'h', 'x']
>>> xx = Transformation(Circuit(1).x(0).x(0), Circuit(1), Phase(), 0)
>>> [g.name for g in quartz.optimize(Circuit(1).h(0).x(0).x(0).h(0).x(0), timeout=1,
...                                  ecc_set=[hh, xx], preprocess=False)]
['x']
"""
from __future__ import annotations

import logging
import numbers
import os
import threading
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence, Union

from quartz.circuit import Circuit
from quartz.cpus import resolve_threads
from quartz.errors import QuartzError
from quartz.gatesets import GateSet, get_gate_set

if TYPE_CHECKING:  # pragma: no cover
    from qiskit import QuantumCircuit

    from quartz.ecc_sets.model import ECCSet, Transformation
    from quartz.search.costs import Cost, CostLike
    from quartz.search.driver import Rules
    from quartz.check import Check
    from quartz.search.matcher import Matcher
    from quartz.search.patience import PatienceLike

# What optimize takes and gives back: a circuit, a Qiskit circuit, QASM text or a QASM file.
CircuitLike = Union[Circuit, "QuantumCircuit", str, "os.PathLike[str]"]
# An ECC set: a Matcher, an ECCSet, transformations, a shipped set name or file, or None (the
# gate set's shipped set).
EccSetLike = Union["Matcher", "ECCSet", Sequence["Transformation"], str, "os.PathLike[str]", None]

log = logging.getLogger("quartz")

METHODS = ("search", "rl")
CHECK_SHARE = 0.1  # of the timeout, kept for the final equivalence check
# The final check's default budget: what is left of the timeout, but at least this (seconds).
CHECK_MIN_SECONDS = 20.0
# After a failed check, the search without the false transformations gets what is left of the
# timeout (less the check's share), but at least this share of the timeout.
RECOVERY_SHARE = 0.25
# Where two starts are raced (_race), each first gets this share of the search's budget.
RACE_SHARE = 0.25
# Most of the timeout the Toffoli-level rewrites by trial may take (quartz.search.toffoli_trial;
# they stop earlier once a pass over the sites takes none).
TOFFOLI_TRIAL_SHARE = 0.2
_matchers: dict[str | tuple[str, bool], Matcher] = {}
_matchers_lock = threading.Lock()


def _read_input(circuit: CircuitLike) -> tuple[Circuit | QuantumCircuit, str]:
    """(quartz.Circuit, kind) for a Circuit, a Qiskit QuantumCircuit, QASM text or a path; a
    QuantumCircuit instead of the Circuit when the input has measurements, resets or classical
    control (optimized in unitary segments, quartz.segments)."""
    if isinstance(circuit, Circuit):
        return circuit, "circuit"
    if isinstance(circuit, (str, os.PathLike)):
        from quartz.qasm import load_measured

        text = str(circuit) if isinstance(circuit, str) else None
        if text is not None and ("\n" in text or ";" in text):
            return load_measured(text), "qasm"
        path = Path(circuit)
        if not path.is_file():
            raise QuartzError(f"no such QASM file: {circuit}")
        return load_measured(path), "qasm"
    if type(circuit).__name__ == "QuantumCircuit":
        from quartz.segments import needs_segments

        if needs_segments(circuit):
            return circuit, "qiskit"
        return Circuit.from_qiskit(circuit), "qiskit"
    raise QuartzError("optimize() takes a quartz.Circuit, a Qiskit QuantumCircuit, QASM text or a "
                      f"path to a .qasm file, got {type(circuit).__name__}")


def _optimize_segmented(qc: QuantumCircuit, kind: str, gate_set: str | GateSet, timeout: float,
                        seed: int,
                        report: dict[str, Any] | None, kw: dict[str, Any]) -> QuantumCircuit | str:
    """optimize() of a circuit with measurements, resets or classical control: each unitary
    segment between them through optimize() (checked on its own), the rest kept in place
    (quartz.segments); QASM in gives QASM text out (version 2 when it can say it, else 3)."""
    from quartz.segments import optimize_segments

    def one(seg: QuantumCircuit, seconds: float, r: dict[str, Any]) -> QuantumCircuit:
        got = optimize(seg, gate_set, timeout=seconds, seed=seed, report=r, **kw)
        assert not isinstance(got, (Circuit, str))  # a QuantumCircuit in gives one back
        return got

    out = optimize_segments(qc, one, timeout, report)
    if report is not None:
        report["seed"] = seed
    if kind == "qasm":
        from quartz.segments import to_qasm_text

        return to_qasm_text(out)
    return out


def _write_output(c: Circuit, kind: str) -> Circuit | QuantumCircuit | str:
    if kind == "qiskit":
        return c.to_qiskit()
    if kind == "qasm":
        return c.to_qasm()
    return c


def to_gate_set(c: Circuit, gs: GateSet) -> Circuit:
    """`c` over the gates of `gs` (exact, phase kept); CCZ/CCX into Nam with greedy polarity."""
    outside = {g.name for g in c} - set(gs.gates)
    if not outside:
        return c
    if outside <= {"ccz", "ccx"} and set(gs.gates) >= {"h", "x", "rz", "cx"}:
        from quartz.search.preprocess import decompose_ccz_greedy

        d = decompose_ccz_greedy(c)
        if not ({g.name for g in d} - set(gs.gates)):
            return d
    from quartz.gatesets import convert

    return convert(c, gs)


def _preprocess(c: Circuit, gs: GateSet) -> Circuit:
    from quartz.search.preprocess import preprocess

    return preprocess(c, gs)


def _via_nam(original: Circuit, gs: GateSet) -> Circuit | None:
    """A Toffoli circuit preprocessed in Nam, then converted to `gs` and preprocessed there;
    None when that route does not apply or fails.

    For gate sets without h or cx (ibm, ibm_modern, rigetti, ionq) the preprocessor cannot
    fold, pair or pick the polarity of Toffolis; Nam's preprocessor can, and its {h, x, rz,
    cx} output converts exactly (tof_3 into ibm: 40 gates straight, 33 this way).
    """
    names = {g.name for g in original}
    gates = set(gs.gates)
    if not names & {"ccz", "ccx"} or {"h", "cx"} <= gates:
        return None
    from quartz.gatesets import convert

    nam = get_gate_set("nam")
    try:
        n = _preprocess(original, nam)
        if {g.name for g in n} - set(nam.gates):
            return None
        out = _preprocess(convert(n, gs), gs)
    except QuartzError:
        return None
    return None if {g.name for g in out} - set(gs.gates) else out


def _exact_1q_for(gs: GateSet) -> bool:
    """Whether the search's polish merges rx/rz runs exactly (search's `exact_1q`) in `gs`:
    in sets with rx but no ry (Rigetti's: 6673 -> 4388 gates over 16 circuits at 10 s). With
    ry (IonQ's) the search's own rules merge rotations on all three axes, and the pass ended
    worse on 9 of 16 (BENCHMARKS.md, "Exact merging of rx/rz runs")."""
    return "rx" in gs.gates and "ry" not in gs.gates


def _toffoli_source(original: Circuit, work: Circuit, gs: GateSet) -> Circuit:
    """What the preprocessor starts from: the input itself when only its Toffolis (ccz, ccx)
    are outside the gate set (so that it can fold, pair and pick their polarity), else the
    converted circuit `work`."""
    outside = {g.name for g in original} - set(gs.gates)
    return original if outside and outside <= {"ccz", "ccx"} else work


def _preprocessed(original: Circuit, work: Circuit, gs: GateSet,
                  key: Callable[[Circuit], float] = len) -> Circuit | None:
    """The preprocessed circuit when it is in the gate set, else None. Toffolis reach the
    preprocessor undecomposed: it picks their polarity and pairs compute/uncompute Toffolis
    into relative-phase ones (in Nam first, for gate sets without h or cx: _via_nam); of the
    candidates the one with the lowest `key` is returned (in sets where _races_starts, the
    Nam route's start is raced by the search instead)."""
    pre = _preprocess(_toffoli_source(original, work, gs), gs)
    found = [] if {g.name for g in pre} - set(gs.gates) else [pre]
    via = _via_nam(original, gs) if not _races_starts(gs) else None
    if via is not None:
        found.append(via)
    return min(found, key=key) if found else None


def _toffoli_trial(original: Circuit, work: Circuit, gs: GateSet, pre: Circuit,
                   key: Callable[[Circuit], float],
                   seconds: float) -> tuple[Circuit | None, dict[str, Any] | None]:
    """(the preprocessed circuit with the Toffoli-level rewrites that lower `key`, or None
    when none did; what the trial did, or None when it did not apply). It applies where the
    preprocessor folds Toffolis (gate sets with h, cx and a diagonal rotation)."""
    from quartz.search.preprocess import style_for_gate_set
    from quartz.search.toffoli_trial import search_toffoli_rewrites

    if not {"h", "cx"} <= set(gs.gates) or style_for_gate_set(gs) is None:
        return None, None
    best, rep = search_toffoli_rewrites(_toffoli_source(original, work, gs), gs,
                                        timeout=seconds, key=key, start=pre)
    if rep.merged + rep.carries == 0 or {g.name for g in best} - set(gs.gates):
        return None, rep.as_dict()
    return best, rep.as_dict()


def _races_starts(gs: GateSet) -> bool:
    """Whether the search races the Nam route's start against the set's own (_race) instead
    of taking the smaller: in sets that entangle with neither cx nor cz (IonQ's rxx), where
    the search shrinks the directly converted circuit 2-4x, so the smaller start does not
    predict the better end (BENCHMARKS.md, "IonQ: the two starts raced": 1,109 -> 968 gates
    over 8 circuits at 10 s, fewer on 6, more on 1)."""
    return not set(gs.gates) & {"cx", "cz"}


def _race_starts(starts: list[Circuit], matcher: Matcher, cost: Cost, seconds: float,
                 **search_kw: Any) -> tuple[Circuit, Circuit, float]:
    """The search from each start for `seconds`: (the start whose result costs least, that
    result, the seconds spent), for a method that goes on from the result (method 'rl')."""
    from quartz.search.driver import search

    t0 = time.monotonic()
    found = [search(s, matcher, cost=cost, timeout=seconds, progress=False, **search_kw).circuit
             for s in starts]
    k = min(range(len(starts)), key=lambda i: cost.search_value(found[i]))
    return starts[k], found[k], time.monotonic() - t0


def _race(run: Callable[[Circuit, float, float], Any], starts: list[Circuit], budget: float,
          cost: Cost) -> tuple[Circuit, Any]:
    """Search from each start for RACE_SHARE of `budget`, then on from the best result for
    the rest: (the start it came from, its SearchResult, moves and history over all). `run`
    (start, seconds, share) searches; `share` is the part of a work budget it gets."""
    from dataclasses import replace

    t0 = time.monotonic()
    trials, began = [], []
    for s in starts:
        began.append(time.monotonic() - t0)
        trials.append(run(s, RACE_SHARE * budget, RACE_SHARE))
    k = min(range(len(starts)), key=lambda i: cost.search_value(trials[i].circuit))
    lead = trials[k]
    history = [(t + began[k], v) for t, v in lead.history]
    rest = budget - (time.monotonic() - t0)
    if rest <= 0 or lead.converged or lead.interrupted:
        more = lead
    else:
        offset = time.monotonic() - t0
        more = run(lead.circuit, rest, max(0.0, 1.0 - RACE_SHARE * len(starts)))
        history += [(t + offset, v) for t, v in more.history]
        if cost.search_value(more.circuit) > cost.search_value(lead.circuit):
            more = replace(more, circuit=lead.circuit, final_cost=lead.final_cost)
    return starts[k], replace(more, initial_cost=cost.search_value(starts[k]),
                              seconds=time.monotonic() - t0, history=history,
                              expansions=sum(f.expansions for f in trials) + (
                                  more.expansions if more is not lead else 0))


def get_matcher(ecc_set: EccSetLike, gs: GateSet, trust: bool = False) -> Matcher:
    """A compiled Matcher for `ecc_set` (None = the shipped set of the gate set; cached). A set
    named by file is verified when it is loaded unless `trust` (quartz.ecc_sets.load)."""
    from quartz.ecc_sets.model import ECCSet
    from quartz.search.matcher import Matcher
    from quartz.search.patience import PatienceLike

    if isinstance(ecc_set, Matcher):
        return ecc_set
    if isinstance(ecc_set, (ECCSet, list, tuple)):
        return Matcher(ecc_set)
    name = str(ecc_set) if ecc_set is not None else gs.name
    key = (name, True) if trust else name  # verified sets keep their plain-name keys
    with _matchers_lock:
        m = _matchers.get(key)
        if m is None:
            from quartz import ecc_sets

            m = _matchers[key] = Matcher(ecc_sets.load(name, trust=trust))
    return m


def _false_rules(rules: Rules | None) -> tuple[list[Transformation], list[int], str]:
    """(the transformations, the indices of the false ones, '; the ECC set has N false
    transformation(s): ...' naming them); no indices and '' when none is found (then the
    failed check is a bug of quartz)."""
    from quartz.ecc_sets.model import ECCSet
    from quartz.search.matcher import Matcher
    from quartz.search.patience import PatienceLike
    from quartz.verifier.rules import false_transformations

    if rules is None:
        return [], [], ""
    if isinstance(rules, Matcher):
        xfers = list(rules.transformations)
    elif isinstance(rules, ECCSet):
        xfers = rules.transformations()
    else:
        xfers = list(rules)
    bad, checked = false_transformations(xfers)
    if not bad:
        return xfers, [], ""
    shown = ", ".join(_rule_text(xfers[i]) for i in bad[:3]) + (", ..." if len(bad) > 3 else "")
    part = "" if checked == len(xfers) else f" among the first {checked} of {len(xfers)}"
    return xfers, bad, f"; the ECC set has {len(bad)} false transformation(s){part}: {shown}"


def _rule_text(t: Transformation) -> str:
    from quartz.ecc_sets.load_check import circuit_text

    return f"[{circuit_text(t.source)}] -> [{circuit_text(t.target)}]"


def _check_seconds(what: str, value: object) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        raise QuartzError(f"{what} must be a non-negative number of seconds, got {value!r}")


def _check_work(work: object, method: str, algorithm: str, exact: bool) -> None:
    """A clear error for a `work` budget optimize cannot honour."""
    if work is None:
        return
    if isinstance(work, bool) or not isinstance(work, numbers.Integral) or work < 0:
        raise QuartzError(f"work must be a non-negative number of work units, got {work!r}")
    if method != "search" or algorithm != "anneal" or not exact:
        raise QuartzError("work (a budget in work units) needs method='search', "
                          "algorithm='anneal' and exact=True")


def resolve_seed(seed: object) -> int:
    """`seed` checked, or a fresh random one for None (the same rule for every method)."""
    if seed is None:
        return int.from_bytes(os.urandom(4), "little")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise QuartzError(f"seed must be an int or None, got {seed!r}")
    return int(seed)


def optimize(circuit: CircuitLike, gate_set: str | GateSet = "nam", *, ecc_set: EccSetLike = None,
             cost: CostLike = "gates",
             timeout: float = 60.0, seed: int | None = None, method: str = "search",
             model: str | None = None, progress: bool = False, preprocess: bool = True,
             threads: int | None = None, history: list[tuple[float, float]] | None = None,
             trust_ecc: bool = False,
             check_timeout: float | None = None, report: dict[str, Any] | None = None,
             algorithm: str = "anneal", patience: PatienceLike = "auto",
             exact: bool = True, workers: int | None = None,
             address: str | None = None, work: int | None = None
             ) -> Circuit | QuantumCircuit | str:
    """Optimise `circuit` within `timeout` seconds and return the same kind it was given.

    `circuit`: a quartz.Circuit, a Qiskit QuantumCircuit, QASM text or a path (QASM text and
    paths give QASM text back). Gates outside `gate_set` are converted first; with `preprocess`
    (the default) Toffolis (ccz, ccx) are first simplified where they can be (folded, paired
    as relative-phase gates, their polarity chosen; in Nam, then converted, for gate sets
    without h or cx), Toffolis that share their controls are merged and adder carries
    written with one Toffoli where that lowers the preprocessed cost (tried one site at a
    time, quartz.search.toffoli_trial), and the search starts from the smaller candidate. `ecc_set`: an
    ECCSet, a shipped set name or file, a Matcher or a list of Transformations (default: the
    shipped set of the gate set). `cost`: 'gates', 'two_qubit', 'cx', 't_count', 'depth', a
    dict of gate weights or a callable. `method`: 'search' or 'rl' (`model`: RL checkpoint).
    The result equals the input up to nothing (global phase included); it is checked before it
    is returned (quartz.search.equivalence.check_equivalent: unitary, path sum, random states,
    qcec). When the check fails and the ECC set has false transformations (only possible with
    `trust_ecc`), they are dropped and the search runs again (method 'search'; at least
    RECOVERY_SHARE of `timeout` more); the new result is returned if it is checked equivalent,
    else the input. Either way a RuntimeWarning names the false transformations.
    `algorithm`: the search, 'anneal' (simulated annealing on the working DAG, the default:
    better on the Nam suite, see BENCHMARKS.md) or 'best_first' (Quartz's backtracking search).
    `patience`: the search ends before `timeout` once it has converged: 'auto' (default: no
    better circuit for a window that grows with the circuit's size and with the time its
    last improvement took, quartz.search.patience.AUTO), a number of seconds, a
    quartz.search.patience.Patience, or None to always use the whole `timeout`.
    `threads`: search threads (default: the CPUs this process may use).
    `seed`: the random choices of the search (and of the policy, method 'rl'); None draws a
    fresh one, which report['seed'] records so a good run can be repeated.
    `exact`: True (default) uses exact moves only (ECC rewrites, angles stay rational
    multiples of pi when they were), so the path-sum checker can prove the result. False
    (method 'search') also resynthesizes two-qubit blocks (quartz.search.resynth_2q: KAK via
    Qiskit, each block within 1e-10 of the old one, kept when it lowers the cost) between
    searches: fewer gates on generic-angle circuits, but floating-point angles that are
    only checked numerically (report['check']['proof'] False, 'numeric' True).
    `history`: a list that receives the search's (seconds, best cost) trace (method 'search').
    `trust_ecc`: use an ECC set file without verifying it first (default: a file that is not
    shipped is verified when it is loaded, and refused when a class is false).
    `check_timeout`: seconds for the final check (default: what is left of `timeout`, but at
    least CHECK_MIN_SECONDS, so the call may end after `timeout` on a hard circuit).
    `report`: a dict that receives the final check's verdict under "check" (ok: True/False/
    None = nothing concluded, method, proof: False for random-state evidence, seconds, detail),
    "checks" (every check run, in order), "dropped" (the false transformations dropped, as
    '[source] -> [target]' text), "returned": "optimized", "recovered" or "input", and
    "search" (method 'search': seconds, converged, interrupted, moves, restarts, and with
    exact=False 'resynth': what the block resynthesis did; else None), "seed" (the seed
    used), "start" (in gate sets where the search races the Nam route's start against the
    set's own, IonQ's: which won, 'own' or 'nam_route'; else None) and "toffoli" (with
    `preprocess`, in gate sets with h and cx: what the
    Toffoli-level rewrites by trial did, quartz.search.toffoli_trial: sites, carry_sites,
    merged, carries, evaluations, seconds, start_cost, cost; they take at most
    TOFFOLI_TRIAL_SHARE of `timeout` before the search; else None).
    `workers`: with 2 or more (or a Ray `address`, quartz.distributed), a large circuit is
    optimized in segments in that many processes or Ray tasks (quartz.search.partition):
    every segment result is checked against its segment, so the whole is equal by
    construction, and report['check'] says so (method 'segments'); cost 'gates' only, the
    shipped ECC set; each segment searches on one thread with the default rules (`threads`,
    `patience`, `algorithm`, `check_timeout` do not apply), `preprocess` and `history` do.
    `work`: the search's budget in work units per chain (the anneal's clock: a proposal 1,
    each transformation tried there 1 more; about 4 million a second per thread here) as
    well as `timeout`, which still ends it when it comes first. A seed and `threads` then give
    the same circuit on a slow or a loaded machine as on an idle one (report['search']['cut']
    is True where the deadline came first); patience 'auto', which reads the wall clock, is
    off with it (give seconds or a Patience to have one anyway). Method 'search' with
    the anneal and exact=True only; where two starts are raced, each gets RACE_SHARE of it;
    in a circuit with measurements, each unitary stretch's search gets all of it.
    """
    from quartz.search.costs import get_cost
    from quartz.search.driver import search
    from quartz.search.patience import as_patience

    start = time.monotonic()
    if method not in METHODS:
        raise QuartzError(f"unknown method '{method}'; choose one of {', '.join(METHODS)}")
    _check_seconds("timeout", timeout)
    threads = resolve_threads(threads)
    as_patience(patience)  # a bad value fails before any work
    seed = resolve_seed(seed)
    if not exact and method != "search":
        raise QuartzError("exact=False (block resynthesis) needs method='search'")
    if check_timeout is not None:
        _check_seconds("check_timeout", check_timeout)
    _check_work(work, method, algorithm, exact)
    units = None if work is None else int(work)
    if units is not None and isinstance(patience, str) and patience == "auto":
        patience = None  # a wall-clock rule would make the result depend on the machine
    original, kind = _read_input(circuit)
    if not isinstance(original, Circuit):  # measurements, resets or classical control
        return _optimize_segmented(original, kind, gate_set, timeout, seed, report, dict(
            ecc_set=ecc_set, cost=cost, method=method, model=model, progress=progress,
            preprocess=preprocess, threads=threads, history=history, trust_ecc=trust_ecc,
            check_timeout=check_timeout, algorithm=algorithm, patience=patience, exact=exact,
            workers=workers, address=address, work=work))
    from quartz.distributed import cluster_address

    if (workers is not None and workers > 1) or cluster_address(address) is not None:
        if units is not None:
            raise QuartzError("work (a budget in work units) does not apply to partitioned "
                              "optimization (workers, address)")
        if ecc_set is not None:
            raise QuartzError("workers (partitioned optimization) uses the shipped ECC set of "
                              "the gate set; ecc_set is not supported with it yet")
        return _optimize_partitioned(original, kind, gate_set, workers, address, timeout, seed,
                                     cost, exact, method, progress, report, preprocess, history)
    if workers is not None and workers < 1:
        raise QuartzError(f"workers must be at least 1, got {workers}")
    search_kw: dict[str, Any] | None = None  # the search's arguments, reused by the recovery
    search_info: dict[str, Any] | None = None
    gs = get_gate_set(gate_set)
    c = get_cost(cost)
    if units is not None and not c.spec.additive:
        raise QuartzError("work (a budget in work units) needs an additive cost (the anneal); "
                          "this cost is searched best-first")
    current = to_gate_set(original, gs)
    rival = None  # a second start that the search races against `current` (_race)
    raced = None  # which start won that race: 'own' or 'nam_route' (report['start'])
    toffoli_info = None
    if preprocess:
        converted = current
        pre = _preprocessed(original, current, gs, key=c.search_value)
        if pre is not None and c.search_value(pre) <= c.search_value(current):
            current = pre
        if pre is not None and pre is current:
            merged, toffoli_info = _toffoli_trial(
                original, converted, gs, pre, c.search_value, TOFFOLI_TRIAL_SHARE * timeout)
            if merged is not None and c.search_value(merged) < c.search_value(current):
                current = merged
        if _races_starts(gs):
            rival = _via_nam(original, gs)
    if method == "rl":
        import quartz.rl as rl

        ecc = gs.name if ecc_set is None else ecc_set  # the gate set's shipped set, as search
        if isinstance(ecc, (str, os.PathLike)):
            from quartz import ecc_sets

            ecc = ecc_sets.load(ecc, trust=trust_ecc)
        if model is None:
            rl.default_model_path(gs)  # a clear error before any work when gs has no model
        rules = ecc
        polish = None
        if preprocess:
            from quartz.search.preprocess import style_for_gate_set

            polish = style_for_gate_set(gs)
        left = timeout - (time.monotonic() - start)
        begin = current
        if rival is not None and rival != current:
            # The two starts raced as method 'search' races them; the policy's method goes on
            # from the winner's result, so 'rl' never starts behind 'search'.
            current, begin, spent = _race_starts(
                [current, rival], get_matcher(ecc_set, gs, trust_ecc), c,
                RACE_SHARE * max(0.0, left - CHECK_SHARE * timeout), seed=seed,
                threads=threads, polish=polish, exact_1q=_exact_1q_for(gs))
            left -= spent
            raced = "nam_route" if current is rival else "own"
        result = rl.optimize_rl(begin, ecc, c, max(0.0, left - CHECK_SHARE * timeout), seed,
                                model=model, threads=threads, polish=polish, check=False,
                                exact_1q=_exact_1q_for(gs))
    else:
        matcher = rules = get_matcher(ecc_set, gs, trust_ecc)
        polish = None
        if preprocess:
            from quartz.search.preprocess import style_for_gate_set

            polish = style_for_gate_set(gs)
        search_kw = dict(cost=c, seed=seed, progress=progress, threads=threads, polish=polish,
                         algorithm=algorithm, patience=patience, exact_1q=_exact_1q_for(gs),
                         work=units)
        # The timeout covers the whole call: conversion, preprocessing, search and the final
        # check (CHECK_SHARE of the budget is kept for it).
        left = timeout - (time.monotonic() - start)

        cut: list[bool] = []  # with `work`: whether each search ended at its deadline

        def run(begin: Circuit, seconds: float, share: float = 1.0) -> Any:
            if exact:
                kw = dict(search_kw, work=None if units is None else round(share * units))
                found = search(begin, matcher, timeout=seconds, **kw)
                cut.append(units is not None and found.seconds >= seconds)
                return found
            from quartz.search.resynth_2q import search_and_resynthesize

            return search_and_resynthesize(begin, matcher, gs, timeout=seconds, **search_kw)

        search_seconds = max(0.0, left - CHECK_SHARE * timeout)
        if rival is not None and rival != current:
            current, found = _race(run, [current, rival], search_seconds, c)
            raced = "nam_route" if current is rival else "own"
        else:
            found = run(current, search_seconds)
        result = found.circuit
        search_info = dict(seconds=found.seconds, converged=found.converged,
                           interrupted=found.interrupted, moves=found.expansions,
                           restarts=found.restarts)
        if units is not None:
            search_info.update(work=units, cut=any(cut))
        if not exact:
            search_info["resynth"] = found.resynth
        if history is not None:
            history.extend(found.history)
    if c.search_value(result) > c.search_value(current):
        result = current

    def budget() -> float:
        """Seconds for one final check."""
        if check_timeout is not None:
            return check_timeout
        return max(CHECK_MIN_SECONDS, timeout - (time.monotonic() - start))

    def recovery_budget() -> float:
        """Seconds for the search without the false transformations."""
        left = timeout - (time.monotonic() - start)
        return max(left - CHECK_SHARE * timeout, RECOVERY_SHARE * timeout)

    numeric = (not exact and result is found.circuit
               and bool((found.resynth or {}).get("numeric")))
    result, checks, dropped, returned = _check_and_recover(
        original, result, current, rules, budget, recovery_budget, search_kw)
    if numeric:  # resynthesized blocks: the first check saw floating-point angles
        from quartz.check import as_numeric

        checks[0] = as_numeric(checks[0])
    if report is not None:
        report.update(check=checks[-1].as_dict(), checks=[k.as_dict() for k in checks],
                      dropped=dropped, returned=returned, search=search_info, seed=seed,
                      toffoli=toffoli_info, start=raced)
    if returned == "input":
        return circuit if kind != "qasm" else original.to_qasm()
    result.name = original.name
    return _write_output(result, kind)


def _optimize_partitioned(original: Circuit, kind: str, gate_set: str | GateSet,
                          workers: int | None, address: str | None, timeout: float,
                          seed: int, cost: CostLike, exact: bool, method: str,
                          progress: bool, report: dict[str, Any] | None, preprocess: bool,
                          history: list[tuple[float, float]] | None
                          ) -> Circuit | QuantumCircuit | str:
    """optimize()'s workers path: quartz.search.partition on the circuit in the gate set
    (`history` receives (seconds, gates) after each round)."""
    from quartz.search.partition import optimize_partitioned

    if method != "search":
        raise QuartzError("workers (partitioned optimization) needs method='search'")
    if cost != "gates":
        raise QuartzError("workers (partitioned optimization) minimises gates only "
                          "(cost='gates')")
    from quartz.check import check_equivalent

    start = time.monotonic()
    gs = get_gate_set(gate_set)
    work = to_gate_set(original, gs)
    # Preprocessing sees the whole circuit (rotations merge across what will be segment
    # boundaries); it is used only when a check of the whole concludes that it is equal.
    pre = _preprocessed(original, work, gs) if preprocess else None
    pre_check = None
    if pre is not None and len(pre) < len(work):
        pre_check = check_equivalent(original, pre, timeout=max(1.0, CHECK_SHARE * timeout))
        if pre_check.ok:
            work = pre
    left = max(0.0, timeout - (time.monotonic() - start))
    result, info = optimize_partitioned(work, gs.name, workers=workers or 1, timeout=left,
                                        address=address, seed=seed, exact=exact,
                                        progress=progress, preprocess=preprocess)
    if history is not None:
        history.extend((float(t), float(g)) for t, g in info.history)
    if report is not None:
        detail = (f"{info.improved} segment replacement(s), each checked equal to its segment "
                  "(global phase included)")
        if pre_check is not None:
            detail += f"; whole-circuit preprocessing: {pre_check.summary()}"
        if info.evidence_only:
            detail += f"; {info.evidence_only} of them on random-state evidence"
        check = dict(ok=True, method="segments", proof=exact and not info.evidence_only,
                     seconds=0.0, detail=detail)
        report.update(check=check, checks=[check], dropped=[], returned="optimized",
                      search=None, partition=info.as_dict(), seed=seed)
    result.name = original.name
    return _write_output(result, kind)


def _check_and_recover(original: Circuit, result: Circuit, start: Circuit, rules: Rules | None,
                       budget: Callable[[], float], recovery_budget: Callable[[], float],
                       search_kw: dict[str, Any] | None
                       ) -> tuple[Circuit, list[Check], list[str], str]:
    """The final check of `result`, and on a failure the search again without the false
    transformations (when `search_kw` gives the search's arguments): (circuit, checks, dropped
    rule texts, 'optimized' | 'recovered' | 'input')."""
    from quartz.check import check_equivalent

    chk = check_equivalent(original, result, timeout=budget())
    checks = [chk]
    if chk.ok is None:
        log.warning("result not checked for equivalence: %s (%.1f s)", chk.detail, chk.seconds)
    if chk.ok is not False:
        return result, checks, [], "optimized"
    xfers, bad, culprit = _false_rules(rules)
    msg = (f"{'' if culprit else 'BUG: '}optimized circuit is not equivalent to the input "
           f"({chk.method}: {chk.detail}){culprit}")
    dropped, returned = [], "input"
    if bad and search_kw is not None:
        dropped = [_rule_text(xfers[i]) for i in bad]
        again = _search_without(start, xfers, bad, timeout=recovery_budget(), **search_kw)
        chk = check_equivalent(original, again, timeout=budget())
        checks.append(chk)
        if chk.ok:
            result, returned = again, "recovered"
            msg += (f"; dropped them and searched again: returning a circuit of {len(again)} "
                    f"gates checked equivalent by {chk.method}")
        else:
            msg += f"; searching again without them gave no checked result ({chk.summary()})"
    if returned == "input":
        msg += "; returning the input unchanged"
    log.error(msg)
    warnings.warn(msg, RuntimeWarning, stacklevel=3)
    return result, checks, dropped, returned


def _search_without(start: Circuit, xfers: list[Transformation], bad: list[int], *, timeout: float,
                    **kw: Any) -> Circuit:
    """The search's result for `start` with the transformations `xfers` less those at `bad`
    (never costlier than `start`)."""
    from quartz.search.driver import search
    from quartz.search.matcher import Matcher
    from quartz.search.patience import PatienceLike

    drop = set(bad)
    found = search(start, Matcher([t for i, t in enumerate(xfers) if i not in drop]),
                   timeout=max(0.0, timeout), **kw)
    cost = kw["cost"]
    return found.circuit if cost.search_value(found.circuit) <= cost.search_value(start) else start
