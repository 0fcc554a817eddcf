"""Benchmark the optimizer on the Nam suite next to published results.

    python benchmarks/bench_search.py                       # 26 circuits, 60 s each
    python benchmarks/bench_search.py --timeout 10 tof_3 mod5_4
    python benchmarks/bench_search.py --write BENCHMARKS.md --json results.json

Each circuit of ../shared/benchmarks/nam is optimised with `quartz.optimize` (preprocessing +
greedy + best-first/windowed search on two threads, shipped Nam (6,3) ECC set), then checked
against its input by quartz.check.check_equivalence (mqt.qcec with the global phase written as gates,
plus Qiskit's Operator up to 10 qubits). Prints a markdown table (circuit, original, ours, CX,
time) next to Nam'18 heavy, Quartz (6,3) 24 h, Quarl and Quartz 60 s measured on this machine
(../shared/reference/published-results.md and quartz-measured.md); --write replaces the
"## Optimizer" section of a markdown file.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT.parent / "shared" / "benchmarks" / "nam"

# circuit: (original, Nam'18 heavy, Quartz (6,3) 24 h, Quarl) from published-results.md Table 1.
PUBLISHED = {
    "adder_8": (900, 606, 724, 556), "barenco_tof_3": (58, 40, 38, 35),
    "barenco_tof_4": (114, 72, 68, 62), "barenco_tof_5": (170, 104, 98, 91),
    "barenco_tof_10": (450, 264, 262, 230), "csla_mux_3": (170, 155, 154, 140),
    "csum_mux_9": (420, 266, 272, 334), "gf2^4_mult": (225, 187, 177, 161),
    "gf2^5_mult": (347, 296, 277, 254), "gf2^6_mult": (495, 403, 391, 366),
    "gf2^7_mult": (669, 555, 531, 495), "gf2^8_mult": (883, 712, 703, 674),
    "gf2^9_mult": (1095, 891, 873, 857), "gf2^10_mult": (1347, 1070, 1058, 1048),
    "mod5_4": (63, 51, 26, 24), "mod_mult_55": (119, 91, 93, 96),
    "mod_red_21": (278, 180, 202, 193), "qcla_adder_10": (521, 399, 422, 382),
    "qcla_com_7": (443, 284, 292, 269), "qcla_mod_7": (884, 624, 719, 619),
    "rc_adder_6": (200, 140, 154, 164), "tof_3": (45, 35, 35, 33), "tof_4": (75, 55, 55, 51),
    "tof_5": (105, 75, 75, 69), "tof_10": (255, 175, 175, 169), "vbe_adder_3": (150, 89, 85, 71),
}
# Quartz v0.1.1 with its rotation-merging pre-pass, 60 s search, on this machine (quartz-measured.md).
QUARTZ_60S = {"tof_3": 35, "barenco_tof_3": 40, "mod5_4": 44, "tof_5": 75, "vbe_adder_3": 93,
              "adder_8": 652, "qcla_mod_7": 653}


def run_one(name: str, timeout: float, seed: int, algorithm: str = "anneal") -> dict:
    """Optimise one benchmark circuit with `algorithm` and check the result.

    The whole budget is used (patience=None) unless `algorithm` reads 'ALG@PATIENCE'
    ('anneal@auto': the default convergence rule; 'anneal@5': 5 s without improvement);
    'ALG+PROPOSAL' ('anneal+first') runs the anneal with that move proposal
    (quartz.search.driver.PROPOSALS) instead of the default; 'ALG/restart' and
    'ALG/norestart' turn the anneal's restarts (driver.DEFAULT_RESTARTS) on or off;
    'ALG:bN' sets the polish's block resynthesis to N qubits (driver.DEFAULT_BLOCK_QUBITS);
    a trailing '~once' drops the confirmation of a convergence (Patience.confirm = 0)."""
    from unittest import mock

    from quartz.search import driver
    from quartz.search.patience import as_patience
    import quartz
    from quartz.check import check_equivalence

    c = quartz.load(str(BENCH / f"{name}.qasm"))
    history: list = []
    t0 = time.monotonic()
    spec, _, once = algorithm.partition("~")
    if once not in ("", "once"):
        raise SystemExit(f"unknown tag ~{once} in {algorithm!r}")
    alg, _, pat = spec.partition("@")
    alg, _, blocks = alg.partition(":b")
    alg, _, restart = alg.partition("/")
    if restart not in ("", "restart", "norestart"):
        raise SystemExit(f"unknown restart tag {restart!r} in {algorithm!r}")
    alg, _, proposal = alg.partition("+")
    restarts = driver.DEFAULT_RESTARTS if not restart else restart == "restart"
    patience = None if not pat else as_patience(pat if pat == "auto" else float(pat))
    if once and patience is not None:
        patience = dataclasses.replace(patience, confirm=0)
    with mock.patch.object(driver, "DEFAULT_PROPOSAL", proposal or driver.DEFAULT_PROPOSAL), \
            mock.patch.object(driver, "DEFAULT_RESTARTS", restarts), \
            mock.patch.object(driver, "DEFAULT_BLOCK_QUBITS",
                              int(blocks) if blocks else driver.DEFAULT_BLOCK_QUBITS):
        out = quartz.optimize(c, "nam", timeout=timeout, seed=seed, algorithm=alg,
                              history=history, patience=patience)
    dt = time.monotonic() - t0
    chk = check_equivalence(c, out, timeout=120.0)
    return {"circuit": name, "qubits": c.num_qubits, "original": len(c), "original_cx": c.cx_count,
            "ours": len(out), "cx": out.cx_count, "seconds": round(dt, 1),
            "equivalence": chk.verdict, "algorithm": algorithm,
            "history": [[round(t, 3), v] for t, v in history]}


def geomean_reduction(pairs) -> float:
    """1 - geometric mean of new/original."""
    pairs = list(pairs)
    return 1 - math.exp(sum(math.log(n / o) for o, n in pairs) / len(pairs))


def markdown(rows: list[dict], timeout: float) -> str:
    """The "## Optimizer" section."""
    lines = [
        "## Optimizer",
        "",
        f"`python benchmarks/bench_search.py --timeout {timeout:g}`: `quartz.optimize(c, \"nam\", "
        f"timeout={timeout:g})` on each circuit of the Nam suite (decomposed inputs from "
        "../shared/benchmarks/nam), shipped Nam (6,3) ECC set; preprocessing (decomposed CCZs "
        "folded back, compute/uncompute Toffoli pairs as relative-phase Margolus gates, greedy "
        "polarity, rotation merging, cancellation), then greedy + best-first/windowed search on "
        "2 threads, one circuit at a time on the 2-core machine. Every output was checked against its input by "
        "mqt.qcec with the global phase included (column eq). Published columns: Nam'18 heavy, "
        "Quartz (6,3) 24 h and Quarl from reference/published-results.md; Quartz 60 s is Quartz "
        "v0.1.1 with its rotation-merging pre-pass built and run on this machine "
        "(reference/quartz-measured.md).",
        "",
        "| circuit | original | ours | CX (orig) | time s | eq | Nam'18 H | Quartz 24 h | Quarl | Quartz 60 s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        pub = PUBLISHED.get(r["circuit"], (None,) * 4)
        q60 = QUARTZ_60S.get(r["circuit"], "")
        eq = "yes" if r["equivalence"] == "equivalent" else r["equivalence"]
        lines.append(f"| {r['circuit']} | {r['original']} | {r['ours']} | {r['cx']} ({r['original_cx']}) | "
                     f"{r['seconds']} | {eq} | {pub[1]} | {pub[2]} | {pub[3]} | {q60} |")
    full = [r for r in rows if r["circuit"] in PUBLISHED]
    if full:
        ours = geomean_reduction((r["original"], r["ours"]) for r in full)
        cols = [geomean_reduction((PUBLISHED[r["circuit"]][0], PUBLISHED[r["circuit"]][k]) for r in full)
                for k in (1, 2, 3)]
        cx = geomean_reduction((r["original_cx"], r["cx"]) for r in full)
        lines.append(f"| **1 - geomean ({len(full)} circuits)** | | **{100 * ours:.1f} %** | "
                     f"{100 * cx:.1f} % | | | {100 * cols[0]:.1f} % | {100 * cols[1]:.1f} % | "
                     f"{100 * cols[2]:.1f} % | |")
    lines.append("")
    return "\n".join(lines) + "\n"


def replace_section(text: str, section: str) -> str:
    """`text` with its "## Optimizer" section replaced by (or appended as) `section`."""
    pat = re.compile(r"^## Optimizer\n.*?(?=^## |\Z)", re.S | re.M)
    if pat.search(text):
        return pat.sub(lambda _: section, text, count=1)
    return text.rstrip("\n") + "\n\n" + section


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("circuits", nargs="*", help="circuit names (default: the 26-circuit suite)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per circuit (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", metavar="MD", help="replace the '## Optimizer' section of this file")
    ap.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = ap.parse_args(argv)
    from quartz.io_utils import atomic_write_text

    names = args.circuits or list(PUBLISHED)
    for n in names:
        if not (BENCH / f"{n}.qasm").is_file():
            print(f"bench_search: no benchmark '{n}' in {BENCH}", file=sys.stderr)
            return 2
    rows = []
    for n in names:
        r = run_one(n, args.timeout, args.seed)
        rows.append(r)
        print(f"{n}: {r['original']} -> {r['ours']} gates, cx {r['original_cx']} -> {r['cx']}, "
              f"{r['seconds']} s, {r['equivalence']}", file=sys.stderr, flush=True)
        if args.json:
            atomic_write_text(args.json, json.dumps(rows, indent=1))
    section = markdown(rows, args.timeout)
    print(section)
    if args.write:
        path = Path(args.write)
        atomic_write_text(path, replace_section(path.read_text() if path.exists() else "", section))
    bad = [r["circuit"] for r in rows if r["equivalence"] != "equivalent"]
    if bad:
        print(f"bench_search: NOT proven equivalent: {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
