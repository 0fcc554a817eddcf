"""Toffoli circuits optimized into gate sets without h or cx, with and without the Nam route.

    python benchmarks/bench_toffoli_gatesets.py --timeout 10 \
        --json benchmarks/results/toffoli_gatesets_10.json tof_3 barenco_tof_4 ...

Each circuit is read from ../shared/benchmarks/nam-ccz (h, x, cx, ccz: Toffolis as written by
the circuit's author) and handed to `quartz.optimize(c, G, timeout=T, seed=S)` for every gate
set G, twice per circuit, one after the other: "before" with the Nam route switched off
(quartz.pipeline.preprocess.via_nam returning None: the gate set's own preprocessing, which for a set without
h or cx cannot fold, pair or pick the polarity of Toffolis and converts them as written), and
"after" as shipped (the better of that and: preprocess in Nam, convert, preprocess in G). The
preprocessed counts of both routes are printed too. Every output carries optimize()'s own
final check; the table says whether both passed.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's quartz, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab_rows import finish, optimize_row, record, swapped  # noqa: E402
CCZ = ROOT.parent / "shared" / "benchmarks" / "nam-ccz"
DEFAULT = ["tof_3", "barenco_tof_4", "mod5_4", "vbe_adder_3", "mod_red_21", "rc_adder_6",
           "csla_mux_3", "qcla_com_7"]


def run_one(c, gs: str, timeout: float, seed: int, nam_route: bool) -> dict:
    """optimize() with or without the Nam route; gates, two-qubit gates and the check."""
    import quartz.pipeline.preprocess as pre

    route = pre.via_nam if nam_route else (lambda original, g: None)
    return optimize_row(c, gs, timeout, seed, pre, "via_nam", route)


def main(argv: list[str] | None = None) -> int:
    import quartz
    import quartz.pipeline.preprocess as pre
    from quartz.gatesets import get_gate_set
    from quartz.pipeline.convert import to_gate_set

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=DEFAULT)
    ap.add_argument("--gate-sets", default="ibm,ibm_modern,rigetti,ionq")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    rows: list[dict] = []
    for gs_name in args.gate_sets.split(","):
        gs = get_gate_set(gs_name)
        for name in args.names:
            c = quartz.load(str(CCZ / f"{name}.qasm"))
            work = to_gate_set(c, gs)
            with swapped(pre, "via_nam", lambda original, g: None):
                direct = pre.preprocessed(c, work, gs)
            via = pre.via_nam(c, gs)
            record(rows, {"gate_set": gs_name, "circuit": name, "original": len(c),
                          "converted": len(work),
                          "pre_direct": None if direct is None else len(direct),
                          "pre_via_nam": None if via is None else len(via),
                          "before": run_one(c, gs_name, args.timeout, args.seed, False),
                          "after": run_one(c, gs_name, args.timeout, args.seed, True)})

    def cells(r: dict) -> list:
        b, a = r["before"], r["after"]
        return [r["gate_set"], r["circuit"], r["converted"],
                f"{r['pre_direct']} / {r['pre_via_nam']}", f"{b['gates']} / {b['2q']}",
                f"{a['gates']} / {a['2q']}", "yes" if a["checked"] and b["checked"] else "NO"]

    finish(rows, ["gate set", "circuit", "converted", "preprocessed (own / via Nam)",
                  "before: gates / 2q", "after: gates / 2q", "both checked"], cells,
           "before", "after", "after", args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
