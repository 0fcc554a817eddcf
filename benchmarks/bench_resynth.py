"""Two-qubit block resynthesis (`quartz.optimize(..., exact=False)`) next to pytket's
FullPeepholeOptimise.

Full run (about 26 x (T + ~10 s) for the suite plus 3 x T for the amplitude estimation):

    python benchmarks/bench_resynth.py --timeout 60 --exact --json benchmarks/results/resynth_60.json

Smoke run:

    python benchmarks/bench_resynth.py --timeout 5 tof_3 mod5_4

(a) Each circuit of the Nam suite (../shared/benchmarks/nam; positional names pick some),
converted exactly to the IBM gate set {u1, u2, u3, cx} (the basis of the Qiskit and TKET
columns in ../shared/reference/published-results.md; `--gate-set ibm_modern` for
{rz, sx, x, cx}), goes through
  - quartz: `quartz.optimize(c, gs, exact=False, timeout=T, patience=None, seed=S)`
    (search, block resynthesis, search again, ...: quartz.search.resynth_2q);
  - tket: `FullPeepholeOptimise(allow_swaps=False)` + AutoRebase + RemoveRedundancies
    (quartz.bench.baselines.tket_baseline, as in peer-baselines.md);
  - with --exact also `quartz.optimize(..., exact=True)` with the same budget.
(b) Amplitude estimation in Nam {h, x, rz, cx}: the MQT-Bench construction (Bernoulli A with
p = 0.2 on one qubit, `--ae-qubits - 1` evaluation qubits, controlled powers of Q, inverse QFT
without swaps), transpiled by Qiskit at optimization_level=0 (7 qubits: 152 gates, 42 cx;
pytket reaches 115 on it); the same three optimizers.

Every output is checked against its input by quartz.check.check_equivalence (path
sums, mqt.qcec, Qiskit's Operator up to 10 qubits; global phase included). Outputs with
floating-point angles (resynthesized blocks, pytket's TK1 angles) are equal to rounding, so
those verdicts are numeric. Cells are `total / 2q`; the table is printed as markdown.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's quartz, not an installed one
BENCH = ROOT.parent / "shared" / "benchmarks" / "nam"


def amplitude_estimation(num_qubits: int):
    """MQT-Bench-style amplitude estimation on `num_qubits` qubits, in {h, x, rz, cx}."""
    from qiskit import QuantumCircuit, transpile
    from qiskit.synthesis import synth_qft_full

    from quartz import Circuit

    m = num_qubits - 1
    theta = 2 * math.asin(math.sqrt(0.2))
    qc = QuantumCircuit(num_qubits)
    qc.ry(theta, m)                         # A
    qc.h(range(m))
    for j in range(m):                      # controlled Q^(2^j), Q = ry(2 theta)
        qc.cry(2 * 2**j * theta, j, m)
    qc.compose(synth_qft_full(m, do_swaps=False, inverse=True).reverse_bits(), range(m),
               inplace=True)
    c = Circuit.from_qiskit(transpile(qc, basis_gates=["h", "x", "rz", "cx"],
                                      optimization_level=0))
    c.name = f"ae_{num_qubits}"
    return c


def _inexact(c) -> bool:
    return any(not p.is_exact for g in c for p in g.params) or not c.global_phase.is_exact


def run_one(c, gate_set: str, timeout: float, seed: int, exact: bool, check_timeout: float) -> dict:
    """One circuit (already in `gate_set`) through quartz exact=False, pytket and optionally
    quartz exact=True; each output checked against `c`."""
    import quartz
    from quartz.bench.baselines import tket_baseline
    from quartz.check import check_equivalence

    row = {"circuit": c.name, "qubits": c.num_qubits, "original": len(c),
           "original_2q": c.two_qubit_count}

    def record(key: str, out, seconds: float, extra: dict | None = None) -> None:
        chk = check_equivalence(c, out, timeout=check_timeout)
        row.update({key: len(out), f"{key}_2q": out.two_qubit_count, f"{key}_s": round(seconds, 1),
                    f"{key}_check": chk.verdict, f"{key}_numeric": _inexact(out)})
        if extra:
            row.update({f"{key}_{k}": v for k, v in extra.items()})

    report: dict = {}
    t0 = time.monotonic()
    out = quartz.optimize(c, gate_set, exact=False, timeout=timeout, patience=None, seed=seed,
                          report=report)
    resynth = (report.get("search") or {}).get("resynth", {})
    record("quartz", out, time.monotonic() - t0,
           {"rewritten": resynth.get("rewritten", 0), "proof": report["check"]["proof"]})
    t0 = time.monotonic()
    tk = tket_baseline(c, gate_set)
    record("tket", tk, time.monotonic() - t0)
    if exact:
        t0 = time.monotonic()
        ex = quartz.optimize(c, gate_set, timeout=timeout, patience=None, seed=seed)
        record("exact", ex, time.monotonic() - t0)
    return row


def _cell(r: dict, key: str) -> str:
    mark = "" if r[f"{key}_check"] == "equivalent" else f" ({r[f'{key}_check']})"
    return f"{r[key]} / {r[f'{key}_2q']}{mark}"


def _reduction(rows: list[dict], key: str, suffix: str = "") -> float:
    pairs = [(r["original" + suffix], r[key + suffix]) for r in rows if r["original" + suffix]]
    return 100.0 * sum((o - n) / o for o, n in pairs) / len(pairs) if pairs else 0.0


def markdown(rows: list[dict], title: str, gate_set: str, timeout: float) -> str:
    keys = ["quartz", "tket"] + (["exact"] if rows and "exact" in rows[0] else [])
    names = {"quartz": f"quartz exact=False ({timeout:g} s)", "tket": "pytket FPO",
             "exact": f"quartz exact=True ({timeout:g} s)"}
    lines = [f"### {title} ({gate_set})", "",
             "| circuit | qubits | original | " + " | ".join(names[k] for k in keys)
             + " | blocks rewritten | quartz s | tket s |",
             "|---|---:|---:|" + "---:|" * len(keys) + "---:|---:|---:|"]
    for r in rows:
        cells = " | ".join(_cell(r, k) for k in keys)
        lines.append(f"| {r['circuit']} | {r['qubits']} | {r['original']} / {r['original_2q']} | "
                     f"{cells} | {r['quartz_rewritten']} | {r['quartz_s']} | {r['tket_s']} |")
    if len(rows) > 1:
        lines += ["", "| optimizer | avg total reduction % | avg 2q reduction % | "
                      "fewest total (ties count) | all equivalent |", "|---|---:|---:|---:|---|"]
        for k in keys:
            best = sum(r[k] == min(r[j] for j in keys) for r in rows)
            ok = sum(r[f"{k}_check"] == "equivalent" for r in rows)
            lines.append(f"| {names[k]} | {_reduction(rows, k):.2f} | "
                         f"{_reduction(rows, k, '_2q'):.2f} | {best} | {ok}/{len(rows)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("circuits", nargs="*", help="Nam-suite circuit names (default: all)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per quartz run")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gate-set", default="ibm", help="target of part (a) (default: ibm)")
    p.add_argument("--exact", action="store_true", help="also run quartz with exact=True")
    p.add_argument("--ae-qubits", type=int, default=7, help="qubits of part (b); 0 skips it")
    p.add_argument("--check-timeout", type=float, default=60.0)
    p.add_argument("--json", metavar="PATH", help="write the rows here")
    args = p.parse_args(argv)

    import quartz
    from quartz.gatesets import convert

    names = args.circuits or sorted((f.stem for f in BENCH.glob("*.qasm")),
                                    key=lambda n: len(quartz.load(str(BENCH / f"{n}.qasm"))))
    suite = []
    for name in names:
        c = convert(quartz.load(str(BENCH / f"{name}.qasm")), args.gate_set)
        c.name = name
        suite.append(run_one(c, args.gate_set, args.timeout, args.seed, args.exact,
                             args.check_timeout))
        print(f"{name}: {suite[-1]}", file=sys.stderr, flush=True)
    ae = []
    if args.ae_qubits:
        ae.append(run_one(amplitude_estimation(args.ae_qubits), "nam", args.timeout, args.seed,
                          args.exact, args.check_timeout))
        print(f"{ae[-1]['circuit']}: {ae[-1]}", file=sys.stderr, flush=True)
    parts = []
    if suite:
        parts.append(markdown(suite, "Nam suite", args.gate_set, args.timeout))
    if ae:
        parts.append(markdown(ae, "Amplitude estimation", "nam", args.timeout))
    print("\n\n".join(parts))
    if args.json:
        Path(args.json).write_text(json.dumps({"timeout": args.timeout, "seed": args.seed,
                                               "gate_set": args.gate_set, "suite": suite,
                                               "ae": ae}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
