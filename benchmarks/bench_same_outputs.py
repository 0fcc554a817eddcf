"""Whether two trees of quartz optimize the same circuits to the same outputs: each circuit
through `quartz.optimize` at a fixed work budget and seed on one thread (so the result does not
depend on the machine's speed), its output QASM written to a folder; then two folders compared.

    python benchmarks/bench_same_outputs.py run OUT_BEFORE --work 10000000   # in the old tree
    python benchmarks/bench_same_outputs.py run OUT_AFTER --work 10000000    # in the new tree
    python benchmarks/bench_same_outputs.py compare OUT_BEFORE OUT_AFTER

`run` takes the 26-circuit Nam suite (../shared/benchmarks/nam) in the Nam gate set by default;
`--suite`, `--gateset` and `--circuits` pick others (`--suite nam-ccz`: Toffolis kept, so the
Toffoli trial runs; IonQ races two starts on them; Clifford+T has its own preprocessing). The timeout is large, so the work budget (not the clock) ends each search and
the Toffoli trial ends by itself; each run writes NAME.qasm and summary.json (gates, check).
`compare` prints one row per circuit and exits 1 when any output differs.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import BENCH, PUBLISHED  # noqa: E402


def run(out: Path, suite: Path, gate_set: str, names: list[str], work: int, seed: int,
        timeout: float) -> None:
    import quartz

    out.mkdir(parents=True, exist_ok=True)
    summary = {}
    for name in names:
        c = quartz.Circuit.from_qasm(suite / f"{name}.qasm")
        report: dict = {}
        t0 = time.perf_counter()
        got = quartz.optimize(c, gate_set, timeout=timeout, seed=seed, threads=1, work=work,
                              report=report)
        seconds = time.perf_counter() - t0
        (out / f"{name}.qasm").write_text(got.to_qasm())
        summary[name] = dict(gates=len(got), seconds=round(seconds, 2),
                             check=report["check"]["method"], ok=report["check"]["ok"],
                             cut=(report.get("search") or {}).get("cut"))
        print(f"{name:16s} {len(c):6d} -> {len(got):6d}  {seconds:6.1f} s  "
              f"{report['check']['method']}", flush=True)
    (out / "summary.json").write_text(json.dumps(dict(
        gate_set=gate_set, work=work, seed=seed, timeout=timeout, circuits=summary), indent=1))


def compare(a: Path, b: Path) -> int:
    names = sorted(p.stem for p in a.glob("*.qasm"))
    if names != sorted(p.stem for p in b.glob("*.qasm")):
        print(f"the two folders hold different circuits: {a} {b}")
        return 1
    differ = 0
    print("| circuit | gates A | gates B | same output |\n|---|---:|---:|---|")
    for n in names:
        ta, tb = (a / f"{n}.qasm").read_text(), (b / f"{n}.qasm").read_text()
        same = ta == tb
        differ += not same
        ga, gb = (sum(1 for line in t.splitlines() if line and not line.startswith(
            ("OPENQASM", "include", "qreg", "creg", "//"))) for t in (ta, tb))
        print(f"| {n} | {ga} | {gb} | {'yes' if same else '**no**'} |")
    print(f"\n{len(names) - differ} of {len(names)} outputs identical")
    return 1 if differ else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="optimize the circuits and write their outputs to OUT")
    r.add_argument("out", type=Path)
    r.add_argument("--suite", default="nam", help="a folder of ../shared/benchmarks")
    r.add_argument("--gateset", default="nam")
    r.add_argument("--circuits", default=",".join(PUBLISHED), help="comma list of Nam circuits")
    r.add_argument("--work", type=float, default=1e7, help="work units per search chain")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--timeout", type=float, default=3600.0)
    c = sub.add_parser("compare", help="compare two output folders")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "run":
        run(args.out, BENCH.parent / args.suite, args.gateset, args.circuits.split(","), int(args.work), args.seed,
            args.timeout)
    else:
        sys.exit(compare(args.a, args.b))


if __name__ == "__main__":
    main()
