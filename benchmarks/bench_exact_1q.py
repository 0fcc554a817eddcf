"""The polish's exact merging of rx/rz runs (`exact_1q`) on and off, side by side.

    python benchmarks/bench_exact_1q.py --timeout 10 \
        --json benchmarks/results/exact_1q_10.json

For each gate set (default rigetti and ionq, the built-in sets with rx) and each circuit of
the chosen suites (default: the Rigetti suite as given, ../shared/benchmarks/rigetti, and the
nam-ccz files), `quartz.optimize(c, G, timeout=T, seed=S)` runs twice, one after the other,
with the search's `exact_1q` forced off and then on (quartz.search.driver.search wrapped);
optimize's own choice is on for sets with rx and no ry (quartz.pipeline.polish.exact_1q_for). Exact
moves only either way; every output carries optimize()'s own final check, and the table says
whether both passed and were proofs.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's quartz, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab_rows import finish, optimize_row, record  # noqa: E402
SHARED = ROOT.parent / "shared" / "benchmarks"
DEFAULT = ["tof_3", "barenco_tof_4", "mod5_4", "vbe_adder_3", "mod_red_21", "rc_adder_6",
           "csla_mux_3", "qcla_com_7"]


def run_one(c, gs: str, timeout: float, seed: int, exact_1q: bool) -> dict:
    """optimize() with the polish's exact_1q forced on or off (quartz.search.driver.search
    wrapped): gates, two-qubit gates, the check."""
    import quartz.search.driver as driver

    search = driver.search
    return optimize_row(c, gs, timeout, seed, driver, "search",
                        lambda *a, **k: search(*a, **{**k, "exact_1q": exact_1q}))


def main(argv: list[str] | None = None) -> int:
    import quartz

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=DEFAULT)
    ap.add_argument("--gate-sets", default="rigetti,ionq")
    ap.add_argument("--suites", default="rigetti,nam-ccz")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    rows: list[dict] = []
    for gs in args.gate_sets.split(","):
        for suite in args.suites.split(","):
            for name in args.names:
                c = quartz.load(str(SHARED / suite / f"{name}.qasm"))
                record(rows, {"gate_set": gs, "suite": suite, "circuit": name, "original": len(c),
                              "off": run_one(c, gs, args.timeout, args.seed, False),
                              "on": run_one(c, gs, args.timeout, args.seed, True)})

    def cells(r: dict) -> list:
        a, b = r["off"], r["on"]
        ok = "yes" if a["checked"] and b["checked"] else "NO"
        proofs = "proofs" if a["proof"] and b["proof"] else "not both proofs"
        return [r["gate_set"], r["suite"], r["circuit"], r["original"],
                f"{a['gates']} / {a['2q']}", f"{b['gates']} / {b['2q']}", f"{ok} ({proofs})"]

    finish(rows, ["gate set", "suite", "circuit", "original", "exact_1q off: gates / 2q",
                  "on: gates / 2q", "both checked (proofs)"], cells, "off", "on",
           "with exact_1q", args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
