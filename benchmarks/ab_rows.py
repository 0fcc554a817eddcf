"""Shared pieces of the side-by-side optimize() benchmarks (bench_toffoli_gatesets,
bench_exact_1q): one optimize() run with a module attribute swapped, and the per-gate-set
summary of before/after rows."""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Iterator


@contextmanager
def swapped(module: Any, attr: str, value: Any) -> Iterator[None]:
    """`module.attr` is `value` inside the block, its own value again after it."""
    saved = getattr(module, attr)
    setattr(module, attr, value)
    try:
        yield
    finally:
        setattr(module, attr, saved)


def optimize_row(c, gate_set: str, timeout: float, seed: int, module: Any, attr: str,
                 value: Any) -> dict:
    """quartz.optimize with `module.attr` set to `value` for the call: gates, two-qubit
    gates and optimize()'s own final check (ok, proof, method)."""
    import quartz

    report: dict = {}
    with swapped(module, attr, value):
        out = quartz.optimize(c, gate_set, timeout=timeout, seed=seed, progress=False,
                              report=report)
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


def record(rows: list[dict], row: dict) -> None:
    """Keep `row` and print it as one JSON line (the run's log)."""
    rows.append(row)
    print(json.dumps(row), flush=True)


def finish(rows: list[dict], header: list[str], cells, before: str, after: str, what: str,
           json_path: str | None) -> None:
    """The markdown table (`header`, `cells(row)` per row), the per-gate-set summaries and,
    with `json_path`, the rows as JSON (written atomically)."""
    print()
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in cells(r)) + " |")
    for line in summaries(rows, before, after, what):
        print("\n" + line)
    if json_path:
        from quartz.io_utils import atomic_write_text

        atomic_write_text(json_path, json.dumps(rows, indent=1) + "\n")
