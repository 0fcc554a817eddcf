"""generate(): RepGen enumeration -> numeric classes -> pruning -> proofs -> ECCSet."""
from __future__ import annotations

import sys
import time
from fractions import Fraction
from typing import Iterable

from quartz import _core
from quartz.cpus import available_cpus
from quartz.ecc_sets.model import ECC, ECCSet
from quartz.errors import QuartzError
from quartz.gatesets import GateSet, get_gate_set
from quartz.generator.light import to_circuit
from quartz.generator.pruning import PassCount, count, simplify_generated
from quartz.generator.repgen import enumerate_classes
from quartz.generator.report import GenerationReport
from quartz.pools import worker_pool

GENERATOR_VERSION = "1"
MAX_GATES = 12
MAX_QUBITS = 6
MAX_SYMBOLS = 16

# Constant angles (units of pi) a gate set needs besides its symbols: Rigetti's and IonQ's
# native rotations are fixed quarter turns (Quartz's rx1/rx3, ry1/ry3), which symbols alone,
# used at most once each, cannot chain. Other gate sets need none.
DEFAULT_CONSTANTS: dict[str, dict[str, tuple[Fraction, ...]]] = {
    "rigetti": {"rx": (Fraction(1, 2), Fraction(-1, 2), Fraction(1))},
    "ionq": {"rx": (Fraction(1, 2), Fraction(-1, 2), Fraction(1)),
             "ry": (Fraction(1, 2), Fraction(-1, 2), Fraction(1)),
             "rxx": (Fraction(1, 2), Fraction(-1, 2))},
}


def check_arguments(gates: tuple[str, ...], n: int, q: int, m: int,
                    constants: dict | None = None) -> None:
    """Raise QuartzError with one clear message for settings the generator cannot run."""
    for name, v in (("n", n), ("q", q), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise QuartzError(f"{name} must be an integer, got {v!r}")
    if not 1 <= n <= MAX_GATES:
        raise QuartzError(f"n (gates per circuit) must be between 1 and {MAX_GATES}, got {n}")
    if not 1 <= q <= MAX_QUBITS:
        raise QuartzError(f"q (qubits) must be between 1 and {MAX_QUBITS}, got {q}")
    if not 0 <= m <= MAX_SYMBOLS:
        raise QuartzError(f"m (symbolic parameters) must be between 0 and {MAX_SYMBOLS}, got {m}")
    for g in gates:
        nq, np_, _, _ = _core.gate_info(g)
        if nq > q:
            raise QuartzError(f"gate '{g}' acts on {nq} qubits but q={q}; use -q {nq} or more")
        if np_ > m and not (np_ == 1 and (constants or {}).get(g)):
            raise QuartzError(f"gate '{g}' takes {np_} angle(s), and each symbolic parameter is used "
                              f"at most once per circuit, so it needs m >= {np_} (got m={m})")


Group = tuple  # (num_qubits, [LightCircuit, ...]): one pruned class, plain data
Partition = list  # [(member indices, phases), ...]: ClassSplitter.partition()


def _split_chunk(args: tuple) -> list[Partition]:
    """Worker task: prove a chunk of groups. Light circuits go in and member indices and
    phases come back, so the pickling both ways stays small (it used to cost about as much
    as the proofs)."""
    from quartz.verifier.classes import ClassSplitter

    groups, gates, timeout = args
    return [ClassSplitter([to_circuit(c, nq, gates) for c in cs], timeout).partition()
            for nq, cs in groups]


def _chunks(groups: list, jobs: int) -> list[list]:
    size = max(16, len(groups) // (jobs * 8))
    return [groups[i:i + size] for i in range(0, len(groups), size)]


def _verify_on_ray(groups: list[Group], gates: tuple[str, ...], jobs: int, timeout: float,
                   address: str | None, bar) -> list[Partition]:
    """_verify's Ray path: the same chunks as the process pool, one Ray task each, results
    put back in chunk order (so the ECC set is the same as a local run's)."""
    from quartz.distributed import run_tasks, session

    chunks = _chunks(groups, jobs)
    got: dict[int, list[Partition]] = {}
    with session(jobs, address):
        for i, res in run_tasks(_split_chunk, [(c, gates, timeout) for c in chunks],
                                describe=lambda a: f"a chunk of {len(a[0])} classes"):
            got[i] = res
            if bar is not None:
                bar.update(len(res))
    return [parts for i in range(len(chunks)) for parts in got[i]]


def _verify(groups: list[Group], gates: tuple[str, ...], jobs: int, timeout: float,
            progress: bool, address: str | None = None) -> list[list[ECC]]:
    """The proven classes of every group, in order: in this process, in a process pool when
    jobs > 1, or as Ray tasks with a Ray address (quartz.distributed). Workers get light
    circuits and return partitions; the ECCs are built here from this process's circuits."""
    from quartz.distributed import cluster_address
    from quartz.verifier.classes import ClassSplitter

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(groups), desc="verify", unit="ECC", file=sys.stderr, leave=False)
    out: list[list[ECC]] = []
    if cluster_address(address) is not None:
        parts = _verify_on_ray(groups, gates, jobs, timeout, address, bar)
        out = [_assemble(g, p, gates) for g, p in zip(groups, parts)]
    elif jobs <= 1 or len(groups) < 64:
        for nq, cs in groups:
            out.append(ClassSplitter([to_circuit(c, nq, gates) for c in cs], timeout).split())
            if bar is not None:
                bar.update(1)
    else:
        with worker_pool(jobs) as ex:  # an interrupt terminates the workers
            for res in ex.map(_split_chunk, [(c, gates, timeout) for c in _chunks(groups, jobs)]):
                for partition in res:  # built here while the workers prove the next chunks
                    out.append(_assemble(groups[len(out)], partition, gates))
                if bar is not None:
                    bar.update(len(res))
    if bar is not None:
        bar.close()
    return out


def _assemble(group: Group, partition: Partition, gates: tuple[str, ...]) -> list[ECC]:
    """The ECCs of a worker's partition of `group`, from circuits made in this process."""
    from quartz.verifier.classes import classes_from_partition

    nq, cs = group
    return classes_from_partition([to_circuit(c, nq, gates) for c in cs], partition)


def generate(gate_set: str | GateSet | Iterable[str], n: int, q: int, m: int, *,
             jobs: int | None = None, progress: bool = True, order: str = "type",
             timeout: float = 10.0, seed: int = 0,
             constants: dict[str, Iterable] | None = None,
             address: str | None = None) -> tuple[ECCSet, GenerationReport]:
    """Generate the proven, pruned ECC set of all circuits of up to n gates on q qubits with m
    symbolic parameters (each used at most once per circuit, plus sums of two of them).

    order="type" picks representatives by gate type first (Quartz's verified mode),
    order="qubit" by qubit first (Quartz's m=0 mode). jobs: worker processes for the proofs
    (default: all CPUs) and threads for the enumeration. constants: gate name -> angles in
    units of pi (Fractions) offered to that gate besides the symbols; None = the gate set's
    DEFAULT_CONSTANTS, {} = none. address: verify on Ray (quartz.distributed: the cluster at
    `address` or RAY_ADDRESS, 'local' for a Ray of `jobs` CPUs here), the same chunks as
    the local pool, so the ECC set is the same; the enumeration stays in this process."""
    gs = get_gate_set(gate_set)
    gates = tuple(gs.gates)
    if constants is None:
        constants = DEFAULT_CONSTANTS.get(gs.name, {})
    constants = {g: tuple(Fraction(a) for a in angles) for g, angles in constants.items()}
    for g in constants:
        if g not in gates:
            raise QuartzError(f"constants given for gate '{g}', which is not in the gate set")
        if _core.gate_info(g)[1] != 1:
            raise QuartzError(f"constants are only supported for one-angle gates, not '{g}'")
    check_arguments(gates, n, q, m, constants)
    if order not in ("type", "qubit"):
        raise QuartzError(f"order must be 'type' or 'qubit', got {order!r}")
    jobs = max(1, jobs if jobs is not None else available_cpus())
    report = GenerationReport(gate_set=gates, n=n, q=q, m=m, order=order)
    t0 = time.perf_counter()

    enum = enumerate_classes(gates, n, q, m, jobs=jobs, progress=progress, seed=seed, order=order,
                             constants=constants, collect=False)
    report.considered_per_round = enum.considered_per_round
    report.kept_per_round = enum.kept_per_round
    report.circuits_kept = enum.num_circuits
    report.classes_found = enum.num_classes
    t1 = time.perf_counter()
    report.seconds["enumerate"] = t1 - t0

    # Pruning runs in C++ on the generator's own classes (pruning.simplify is its reference).
    pruned, log = simplify_generated(enum.generator, gates)
    enum.generator = None  # every circuit RepGen kept: free it before the proofs
    report.before = PassCount("before pruning", log[0].classes, log[0].circuits)
    report.passes = log
    report.after_pruning = count(pruned, "after pruning")
    t2 = time.perf_counter()
    report.seconds["prune"] = t2 - t1

    split = _verify([(nq, list(cs)) for nq, cs in pruned], gates, jobs, timeout, progress, address)
    eccs: list[ECC] = []
    for parts in split:
        for e in parts:
            if len(e.circuits) >= 2:
                eccs.append(e)
            else:
                report.unproven_circuits += 1
    # A group that was not split has exactly one part; single leftovers that are the
    # representative of a split-off group are counted as unproven too (they give nothing).
    report.final = count([(0, e.circuits) for e in eccs], "proven")
    t3 = time.perf_counter()
    report.seconds["verify"] = t3 - t2
    report.seconds["total"] = t3 - t0

    meta = {"gate_set_name": gs.name, "generator": {"name": "quartz.generator",
                                                     "version": GENERATOR_VERSION,
                                                     "order": order, "seed": seed,
                                                     "symbol_values": enum.symbol_values,
                                                     "constants": {g: [str(a) for a in v] for g, v
                                                                   in constants.items()}},
            "report": report.to_json()}
    return ECCSet(gates, n, q, m, eccs, meta), report
