"""The Qiskit stage on small circuits: wall time and gate counts of `transpile(...,
optimization_method="quartz", optimization_level=3, num_processes=2)` with the stage's
convergence rule (also with num_processes=1), without it (QUARTZ_QISKIT_PATIENCE=none: the
whole 30 s per circuit), and Qiskit's plain level 3, side by side in one run; every output
checked equal to its input.

    python benchmarks/bench_plugin.py [--json out.json] [--no-full]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import time

from qiskit import QuantumCircuit, transpile
from qiskit.quantum_info import Operator
from qiskit.utils import should_run_in_parallel

BASIS = ["h", "x", "rz", "cx"]


def example(seed: int, qubits: int = 4, gates: int = 20) -> QuantumCircuit:
    """A seeded ~20-gate circuit of Clifford+T gates, Toffolis and rotations."""
    rng = random.Random(seed)
    qc = QuantumCircuit(qubits)
    for _ in range(gates):
        kind = rng.choice(["h", "x", "t", "tdg", "s", "rz", "cx", "cx", "ccx"])
        q = rng.sample(range(qubits), 3)
        if kind == "rz":
            qc.rz(rng.choice([0.25, 0.5, 1.0]) * rng.choice([1, -1]), q[0])
        elif kind == "cx":
            qc.cx(q[0], q[1])
        elif kind == "ccx":
            qc.ccx(q[0], q[1], q[2])
        else:
            getattr(qc, kind)(q[0])
    return qc


def run(qcs, method: str | None, patience: str | None,
        processes: int = 2, init: str | None = None) -> tuple[float, list[int]]:
    """(seconds, gate counts) of one transpile call over all circuits."""
    if patience is None:
        os.environ.pop("QUARTZ_QISKIT_PATIENCE", None)
    else:
        os.environ["QUARTZ_QISKIT_PATIENCE"] = patience
    kw = dict(basis_gates=BASIS, optimization_level=3, seed_transpiler=7)
    if method:
        kw["optimization_method"] = method
    if init:
        kw["init_method"] = init
    t = time.perf_counter()
    with should_run_in_parallel.override(processes > 1):
        outs = transpile(qcs, num_processes=processes, **kw)
    seconds = time.perf_counter() - t
    for qc, out in zip(qcs, outs):
        assert Operator(out).equiv(Operator(qc)), "output differs from its input"
    return seconds, [o.size() for o in outs]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--no-full", action="store_true", help="skip the whole-budget run (~60 s)")
    args = ap.parse_args()
    qcs = [example(s) for s in range(4)]
    rows = [("qiskit level 3", *run(qcs, None, None)),
            ("quartz, converged", *run(qcs, "quartz", None)),
            ("quartz, converged, 1 process", *run(qcs, "quartz", None, processes=1)),
            ("quartz init + quartz, converged", *run(qcs, "quartz", None, init="quartz"))]
    if not args.no_full:
        rows.append(("quartz, whole budget", *run(qcs, "quartz", "none")))
    print("| configuration | seconds | gates |\n|---|---:|---|")
    for name, sec, sizes in rows:
        print(f"| {name} | {sec:.2f} | {', '.join(map(str, sizes))} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([dict(config=n, seconds=s, gates=g) for n, s, g in rows], f, indent=1)


if __name__ == "__main__":
    main()
