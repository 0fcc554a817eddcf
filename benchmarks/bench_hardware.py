"""Level 3 against level 3 + the quartz optimization stage on a routed heavy-hex device, side by
side at the same seed: two-qubit gates, gates, estimated success probability (ESP: the product
of 1 - error over the gates, errors from the backend's target) and seconds per circuit.

    python benchmarks/bench_hardware.py --basis cz,rz,sx,x --timeout 5
    QUARTZ_QISKIT_COST=gates python benchmarks/bench_hardware.py --basis cx,rz,sx,x

The device: Qiskit's GenericBackendV2 on CouplingMap.from_heavy_hex(3) (19 qubits, seed 7) in
`--basis`. The circuits: Qiskit circuit-library algorithms at 4-8 qubits (below). The stage's
cost is QUARTZ_QISKIT_COST (default: the stage's own, two-qubit gates first).
"""
from __future__ import annotations

import argparse
import math
import os
import time


def circuits() -> dict:
    """Name -> an algorithm-level QuantumCircuit (bound, so level 3 sees numbers)."""
    import numpy as np
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import (DraperQFTAdder, GraphStateGate, HRSCumulativeMultiplier,
                                        QFTGate, efficient_su2, real_amplitudes)
    from qiskit.circuit.random import random_circuit

    def gate(g, n):
        qc = QuantumCircuit(n)
        qc.append(g, range(n))
        return qc

    def bound(qc, seed):
        return qc.assign_parameters(np.random.default_rng(seed).uniform(-3, 3, qc.num_parameters))

    tof = QuantumCircuit(5)
    for i in range(4):
        tof.ccx(i, (i + 2) % 5, (i + 4) % 5)
    grover = QuantumCircuit(4)
    grover.h(range(4))
    for _ in range(2):
        grover.mcx([0, 1, 2], 3)
        grover.h(range(3))
        grover.x(range(3))
        grover.h(2)
        grover.ccx(0, 1, 2)
        grover.h(2)
        grover.x(range(3))
        grover.h(range(3))
    adj = np.ones((6, 6)) - np.eye(6)
    return {
        "qft5": gate(QFTGate(5), 5), "qft7": gate(QFTGate(7), 7),
        "adder3": gate(DraperQFTAdder(3), 6), "mult2": gate(HRSCumulativeMultiplier(2), 9),
        "su2_6": bound(efficient_su2(6, reps=2, entanglement="linear"), 1),
        "ra_6": bound(real_amplitudes(6, reps=3, entanglement="full"), 2),
        "graph6": gate(GraphStateGate(adj), 6), "rand6": random_circuit(6, 8, max_operands=2, seed=3),
        "tof5": tof, "grover4": grover,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--basis", default="cz,rz,sx,x")
    ap.add_argument("--timeout", type=float, default=5.0, help="QUARTZ_QISKIT_TIMEOUT")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.environ["QUARTZ_QISKIT_TIMEOUT"] = str(args.timeout)
    from qiskit import transpile
    from qiskit.providers.fake_provider import GenericBackendV2
    from qiskit.transpiler import CouplingMap

    be = GenericBackendV2(19, basis_gates=args.basis.split(","),
                          coupling_map=CouplingMap.from_heavy_hex(3), seed=7)

    def esp(qc) -> float:
        p = 1.0
        for inst in qc.data:
            qargs = tuple(qc.find_bit(q).index for q in inst.qubits)
            props = be.target[inst.operation.name].get(qargs) if inst.operation.name in be.target else None
            if props is not None and props.error is not None:
                p *= 1 - props.error
        return p

    print(f"basis {args.basis}, heavy-hex(3), QUARTZ_QISKIT_TIMEOUT={args.timeout}, cost "
          f"{os.environ.get('QUARTZ_QISKIT_COST', 'default')}, seed {args.seed}")
    print("| circuit | 2q L3 | 2q +quartz | gates L3 | gates +quartz | ESP L3 | ESP +quartz | s L3 | s +quartz |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios, worse = [], 0
    for name, qc in circuits().items():
        row = []
        for kw in ({}, {"optimization_method": "quartz"}):
            t = time.perf_counter()
            out = transpile(qc, backend=be, optimization_level=3, seed_transpiler=args.seed, **kw)
            row.append((sum(1 for i in out.data if len(i.qubits) == 2), out.size(), esp(out),
                        time.perf_counter() - t))
        (a2, ag, ae, at), (b2, bg, be_, bt) = row
        ratios.append(b2 / a2 if a2 else 1.0)
        worse += b2 > a2 or be_ < ae - 1e-12
        print(f"| {name} | {a2} | {b2} | {ag} | {bg} | {ae:.4f} | {be_:.4f} | {at:.1f} | {bt:.1f} |",
              flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\n2q +quartz / level 3 (geomean) {geo:.3f}; worse than level 3 (2q or ESP) on {worse}")


if __name__ == "__main__":
    main()
