"""Loading gf2^32_mult (13.6 k gates) takes well under a second once qiskit is imported."""
from __future__ import annotations

import time
from pathlib import Path

import qiskit.qasm2  # noqa: F401  (import cost is not part of the load time)

import quartz

GF2_32 = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks" / "nam" / "gf2^32_mult.qasm"


def test_gf2_32_loads_under_one_second():
    quartz.load(GF2_32.parent / "tof_3.qasm")  # warm-up
    best_cpu = best_wall = float("inf")
    for _ in range(3):
        w, c = time.perf_counter(), time.process_time()
        circ = quartz.load(GF2_32)
        best_wall = min(best_wall, time.perf_counter() - w)
        best_cpu = min(best_cpu, time.process_time() - c)
    assert len(circ) == 13593
    # CPU time is the criterion (wall time on a shared CI machine includes other jobs).
    assert best_cpu < 1.0, f"load took {best_cpu:.2f} s CPU"
    assert best_wall < 5.0, f"load took {best_wall:.2f} s wall"


def test_hash_is_fast():
    circ = quartz.load(GF2_32)
    c = time.process_time()
    for _ in range(10):
        circ.structural_hash()
    assert (time.process_time() - c) / 10 < 0.05  # > 270 k gates/s even on a slow machine
