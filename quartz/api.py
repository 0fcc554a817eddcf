"""`quartz.optimize`: one call from any circuit kind to a smaller, checked-equivalent circuit.

This module adapts the caller's types (quartz.Circuit, Qiskit QuantumCircuit, QASM text or a
file) to the optimizer's pipeline (quartz.pipeline) and back.

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

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence, Union

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.gatesets import GateSet
from quartz.pipeline.options import EccSetLike, Options
from quartz.pipeline.state import Clock

if TYPE_CHECKING:  # pragma: no cover
    from qiskit import QuantumCircuit
    from qiskit.transpiler import CouplingMap

    from quartz.search.costs import CostLike
    from quartz.search.patience import PatienceLike

# What optimize takes and gives back: a circuit, a Qiskit circuit, QASM text or a QASM file.
CircuitLike = Union[Circuit, "QuantumCircuit", str, "os.PathLike[str]"]


def read_input(circuit: CircuitLike) -> tuple[Circuit | QuantumCircuit, str]:
    """(quartz.Circuit, kind) for a Circuit, a Qiskit QuantumCircuit, QASM text or a path; a
    QuantumCircuit instead of the Circuit when the input has measurements, resets or classical
    control (optimized in unitary segments, quartz.pipeline.measured)."""
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


def write_output(c: Circuit, kind: str) -> Circuit | QuantumCircuit | str:
    """`c` as the kind optimize was given: a Circuit, a QuantumCircuit or QASM text."""
    if kind == "qiskit":
        return c.to_qiskit()
    if kind == "qasm":
        return c.to_qasm()
    return c


def optimize(circuit: CircuitLike, gate_set: str | GateSet = "nam", *, ecc_set: EccSetLike = None,
             cost: CostLike = "gates",
             timeout: float = 60.0, seed: int | None = None, method: str = "search",
             model: str | None = None, progress: bool = False, preprocess: bool = True,
             threads: int | None = None, history: list[tuple[float, float]] | None = None,
             trust_ecc: bool = False,
             check_timeout: float | None = None, report: dict[str, Any] | None = None,
             algorithm: str = "anneal", patience: PatienceLike = "auto",
             exact: bool = True, workers: int | None = None,
             address: str | None = None, work: int | None = None,
             coupling_map: CouplingMap | Sequence[tuple[int, int]] | None = None
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
    is returned (quartz.check.check_equivalent: unitary, path sum, random states,
    qcec). When the check fails and the ECC set has false transformations (only possible with
    `trust_ecc`), they are dropped and the search runs again (method 'search'; at least
    quartz.pipeline.final_check.RECOVERY_SHARE of `timeout` more); the new result is returned if it is checked equivalent,
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
    least quartz.pipeline.final_check.CHECK_MIN_SECONDS, so the call may end after `timeout` on a hard circuit).
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
    quartz.pipeline.toffoli.TOFFOLI_TRIAL_SHARE of `timeout` before the search; else None).
    `workers`: with 2 or more (or a Ray `address`, quartz.distributed), a large circuit is
    optimized in segments in that many processes or Ray tasks (quartz.pipeline.partition):
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
    the anneal and exact=True only; where two starts are raced, each gets
    quartz.pipeline.race.RACE_SHARE of it;
    in a circuit with measurements, each unitary stretch's search gets all of it.
    `coupling_map`: a Qiskit CouplingMap or a list of (a, b) qubit pairs (on the circuit's
    qubits): no move, preprocessing step or polish then places a two-qubit gate on another
    pair (either order for a gate symmetric in its qubits, cz say; cx only as listed), so a
    routed circuit stays routed and keeps its qubits. The input must keep to it already
    (method 'search', not with `workers`).
    """
    from quartz.pipeline.dispatch import optimize_circuit

    clock = Clock(timeout)
    options = Options.checked(
        timeout=timeout, seed=seed, method=method, model=model, ecc_set=ecc_set, cost=cost,
        trust_ecc=trust_ecc, progress=progress, preprocess=preprocess, threads=threads,
        algorithm=algorithm, patience=patience, exact=exact, work=work,
        check_timeout=check_timeout, history=history, workers=workers, address=address,
        coupling=coupling_map)
    original, kind = read_input(circuit)
    if not isinstance(original, Circuit):  # measurements, resets or classical control
        from quartz.pipeline.measured import optimize_measured

        out = optimize_measured(original, gate_set, options, report)
        if kind == "qasm":
            from quartz.segments import to_qasm_text

            return to_qasm_text(out)
        return out
    state = optimize_circuit(original, gate_set, options, report, clock)
    if state.returned == "input":
        return circuit if kind != "qasm" else original.to_qasm()
    assert state.result is not None
    return write_output(state.result, kind)
