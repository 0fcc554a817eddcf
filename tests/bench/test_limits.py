"""Limits: optimize's timeout is honoured within 10 %, and peak memory on gf2^32_mult is bounded."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import quartz

REPO = Path(__file__).resolve().parents[2]


def test_timeout_is_honoured_within_ten_percent(benchmarks_dir):
    c = quartz.load(benchmarks_dir / "nam" / "barenco_tof_10.qasm")  # 450 gates
    # Load the ECC set and the checkers first: the limit is about the steady state.
    quartz.optimize(quartz.load(benchmarks_dir / "nam" / "tof_10.qasm"), "nam", timeout=0.5)
    start = time.perf_counter()
    out = quartz.optimize(c, "nam", timeout=2.0, seed=0)
    elapsed = time.perf_counter() - start
    assert elapsed <= 2.2, f"optimize(timeout=2) took {elapsed:.2f} s"
    assert len(out) < len(c)


def test_peak_memory_on_gf2_32_mult(benchmarks_dir):
    # In a fresh process, so that ru_maxrss is this optimization's peak alone.
    path = benchmarks_dir / "nam" / "gf2^32_mult.qasm"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "peak_memory.py"), str(path),
                           "--timeout", "1"], capture_output=True, text=True, env=env,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    assert info["gates_in"] == 13593 and info["gates_out"] <= 13593
    assert 0 < info["peak_rss_mib"] < 4096, info
