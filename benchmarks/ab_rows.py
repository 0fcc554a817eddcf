"""Shared pieces of the side-by-side optimize() benchmarks (bench_toffoli_gatesets,
bench_exact_1q): one optimize() run with a module attribute swapped, and the per-gate-set
summary of before/after rows."""
from __future__ import annotations

from typing import Any


def optimize_row(c, gate_set: str, timeout: float, seed: int, module: Any, attr: str,
                 value: Any) -> dict:
    """quartz.optimize with `module.attr` set to `value` for the call: gates, two-qubit
    gates and optimize()'s own final check (ok, proof, method)."""
    import quartz

    saved = getattr(module, attr)
    setattr(module, attr, value)
    try:
        report: dict = {}
        out = quartz.optimize(c, gate_set, timeout=timeout, seed=seed, progress=False,
                              report=report)
    finally:
        setattr(module, attr, saved)
    check = report.get("check", {})
    return {"gates": len(out), "2q": sum(1 for g in out if len(g.qubits) >= 2),
            "checked": bool(check.get("ok")), "proof": bool(check.get("proof")),
            "check": check.get("method")}


def summaries(rows: list[dict], before: str, after: str, what: str) -> list[str]:
    """One line per gate set: on how many rows `after` has fewer/more gates, and the totals."""
    lines = []
    for gs in dict.fromkeys(r["gate_set"] for r in rows):
        sub = [r for r in rows if r["gate_set"] == gs]
        fewer = sum(r[after]["gates"] < r[before]["gates"] for r in sub)
        more = sum(r[after]["gates"] > r[before]["gates"] for r in sub)
        lines.append(f"{gs}: fewer gates {what} on {fewer}, more on {more} of {len(sub)}; "
                     f"total {sum(r[before]['gates'] for r in sub)} -> "
                     f"{sum(r[after]['gates'] for r in sub)}")
    return lines
