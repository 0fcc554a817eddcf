"""The Qiskit stages side by side: level 3 alone, + the quartz optimization stage, and + the
quartz init stage as well, on a suite of QASM files (the Nam suite, or nam-ccz with ccz).

    QUARTZ_QISKIT_TIMEOUT=10 python benchmarks/bench_plugin_init.py ../shared/benchmarks/nam \
        --max-gates 2000 --json benchmarks/results/plugin_init_nam.json

Prints one markdown row per circuit (gates and cx of each, seconds of the two quartz runs, the
equivalence verdict of both quartz outputs against the input by quartz.check.check_equivalence) and
a total row. Every transpile call uses seed_transpiler=0 and basis {h, x, rz, cx}.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time

BASIS = ["h", "x", "rz", "cx"]


def run(name: str, qc) -> dict:
    """The three transpile results for one circuit (a QuantumCircuit)."""
    from qiskit import transpile

    from quartz.check import check_equivalence

    row: dict = {"circuit": name, "original": qc.size()}
    plain = transpile(qc, basis_gates=BASIS, optimization_level=3, seed_transpiler=0)
    row["level3"] = plain.size()
    for key, init in (("opt", "default"), ("init_opt", "quartz")):
        t = time.perf_counter()
        out = transpile(qc, basis_gates=BASIS, optimization_level=3, seed_transpiler=0,
                        init_method=init, optimization_method="quartz")
        row[key] = out.size()
        row[key + "_cx"] = out.num_nonlocal_gates()
        row[key + "_s"] = round(time.perf_counter() - t, 1)
        row[key + "_eq"] = check_equivalence(qc, out, timeout=60).verdict
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("suite")
    ap.add_argument("--max-gates", type=int, default=2000)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    import quartz

    rows = []
    print("| circuit | original | level 3 | + quartz opt | + quartz init + opt | cx (opt / init + opt) "
          "| s (opt / init + opt) | equivalent (opt / init + opt) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for path in sorted(glob.glob(os.path.join(args.suite, "*.qasm"))):
        c = quartz.load(path)
        if len(c) > args.max_gates:
            continue
        r = run(os.path.basename(path)[:-5], c.to_qiskit())
        rows.append(r)
        print(f"| {r['circuit']} | {r['original']} | {r['level3']} | {r['opt']} | {r['init_opt']} | "
              f"{r['opt_cx']} / {r['init_opt_cx']} | {r['opt_s']} / {r['init_opt_s']} | "
              f"{r['opt_eq']} / {r['init_opt_eq']} |", flush=True)
    tot = {k: sum(r[k] for r in rows) for k in ("original", "level3", "opt", "init_opt", "opt_cx",
                                                "init_opt_cx")}
    print(f"| **total ({len(rows)})** | {tot['original']} | {tot['level3']} | {tot['opt']} | "
          f"{tot['init_opt']} | {tot['opt_cx']} / {tot['init_opt_cx']} | | |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"timeout_env": os.environ.get("QUARTZ_QISKIT_TIMEOUT"), "rows": rows}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
