"""Report files of `quartz bench`: results.csv, results.md (tables) and per-output QASM, all
written atomically (a failed run never leaves a partial file)."""
from __future__ import annotations

import csv
import io
import statistics
from pathlib import Path

from quartz.bench.runner import CircuitResult, Outcome
from quartz.io_utils import atomic_write_text

CSV_COLUMNS = ["circuit", "qubits", "orig_gates", "orig_cx", "orig_t", "optimizer", "kind",
               "status", "gates", "cx", "t", "depth", "seconds", "reduction_pct", "equivalence",
               "qcec", "operator", "path_sum", "check_seconds", "cut", "error"]


def reduction(orig: int, new: int | None) -> float | None:
    """Percent fewer gates than the original (negative when larger)."""
    if new is None or orig == 0:
        return None
    return 100.0 * (orig - new) / orig


def optimizers(results: list[CircuitResult]) -> list[tuple[str, str]]:
    """(name, kind) of every optimizer that appears, ours first, in order of appearance."""
    seen: dict[str, str] = {}
    for r in results:
        for o in r.outcomes:
            seen.setdefault(o.optimizer, o.kind)
    return sorted(seen.items(), key=lambda nk: nk[1] != "ours")


def _fmt(x, digits: int = 2) -> str:
    if x is None:
        return ""
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def csv_text(results: list[CircuitResult]) -> str:
    """One row per (circuit, optimizer)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in results:
        for o in r.outcomes:
            w.writerow([r.circuit, r.qubits, r.gates, r.cx, r.t, o.optimizer, o.kind, o.status,
                        _fmt(o.gates), _fmt(o.cx), _fmt(o.t), _fmt(o.depth), _fmt(o.seconds, 3),
                        _fmt(reduction(r.gates, o.gates)), o.equivalence, o.qcec, o.operator,
                        o.path_sum, _fmt(o.check_seconds, 3), "yes" if o.cut else "",
                        o.error.splitlines()[0] if o.error else ""])
    return buf.getvalue()


def _cell(o: Outcome | None) -> str:
    if o is None:
        return ""
    if o.status == "error":
        return "error"
    mark = "" if o.verified else f" ({o.equivalence or 'unchecked'})"
    return (f"{o.gates}{mark}" + {"off_target": " (off target)",
                                  "interrupted": " (interrupted)"}.get(o.status, "")
            + (" (cut)" if o.cut else ""))


def _summary_rows(results: list[CircuitResult], names: list[tuple[str, str]]) -> list[str]:
    rows = ["| optimizer | circuits | mean gate reduction % | mean 2q reduction % | "
            "best or tied best | equivalent | not equivalent | unknown | errors | "
            "median s | max s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, _ in names:
        outs = [(r, r.outcome(name)) for r in results if r.outcome(name) is not None]
        ok = [(r, o) for r, o in outs if o.status != "error"]
        red = [reduction(r.gates, o.gates) for r, o in ok if r.gates]
        red2 = [reduction(r.cx, o.cx) for r, o in ok if r.cx]
        best = 0
        for r, o in ok:
            others = [x.gates for x in r.outcomes if x.status != "error" and x.gates is not None]
            best += o.gates == min(others)
        secs = [o.seconds for _, o in ok if o.seconds is not None]
        count = lambda v: sum(o.equivalence == v for _, o in ok)  # noqa: E731
        mean = lambda xs: f"{statistics.mean(xs):.2f}" if xs else ""  # noqa: E731
        rows.append(f"| {name} | {len(ok)} | {mean(red)} | {mean(red2)} | {best} | "
                    f"{count('equivalent')} | {count('not_equivalent')} | {count('unknown')} | "
                    f"{len(outs) - len(ok)} | {_fmt(statistics.median(secs) if secs else None)} | "
                    f"{_fmt(max(secs) if secs else None)} |")
    return rows


def markdown_text(results: list[CircuitResult], *, title: str, command: str,
                  notes: list[str] = ()) -> str:
    """The results table (one row per circuit) and a per-optimizer summary, in Markdown."""
    names = optimizers(results)
    ours = [n for n, k in names if k == "ours"]
    lines = [f"# {title}", "", f"Command: `{command}`", ""]
    lines += [f"{n}" for n in notes]
    if notes:
        lines.append("")
    lines.append("Gate counts; `2q` = two-qubit gates (CX in Nam, CZ in Rigetti). Every output is "
                 "checked independently (path sums, mqt.qcec, and Qiskit's Operator for <= 10 "
                 "qubits), global phase included; a count followed by a verdict in brackets was "
                 "not proven equivalent.")
    lines.append("")
    head = (["circuit", "qubits", "original"] + [n for n, _ in names]
            + [f"2q (orig → {m})" for m in ours] + [f"T (orig → {m})" for m in ours]
            + [f"time {m} (s)" for m in ours] + ["equivalence"])
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|---|" + "---:|" * (len(head) - 2) + "---|")
    for r in results:
        cells = [r.circuit, str(r.qubits), str(r.gates)]
        cells += [_cell(r.outcome(n)) for n, _ in names]
        for attr, orig in (("cx", r.cx), ("t", r.t)):
            for m in ours:
                o = r.outcome(m)
                val = getattr(o, attr) if o is not None else None
                cells.append(f"{orig} → {val}" if val is not None else "")
        for m in ours:
            o = r.outcome(m)
            cells.append(_fmt(o.seconds, 1) if o is not None else "")
        outs = [o for o in r.outcomes if o.status != "error"]
        bad = [f"{o.optimizer}: {o.equivalence}" for o in outs if not o.verified]
        cells.append("; ".join(bad) if bad else f"all {len(outs)} equivalent")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## Summary", ""] + _summary_rows(results, names)
    cut = [f"{r.circuit} ({o.optimizer})" for r in results for o in r.outcomes if o.cut]
    if cut:
        lines += ["", f"(cut): the timeout ended the search before its --work was done, so "
                  f"this count depends on the machine's speed and load: {', '.join(cut)}."]
    errors = [(r.circuit, o) for r in results for o in r.outcomes if o.status == "error"]
    if errors:
        lines += ["", "## Errors", ""]
        lines += [f"- {c} ({o.optimizer}): {o.error.splitlines()[0]}" for c, o in errors]
    return "\n".join(lines) + "\n"


def write_report(results: list[CircuitResult], folder: str | Path, *, title: str,
                 command: str, notes: list[str] = (), qasm: bool = True) -> list[Path]:
    """Write results.csv, results.md and qasm/<circuit>.<optimizer>.qasm under `folder`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "results.csv", folder / "results.md"]
    atomic_write_text(written[0], csv_text(results))
    atomic_write_text(written[1], markdown_text(results, title=title, command=command, notes=notes))
    if qasm:
        (folder / "qasm").mkdir(exist_ok=True)
        for r in results:
            for o in r.outcomes:
                if o.qasm:
                    p = folder / "qasm" / f"{r.circuit}.{o.optimizer}.qasm"
                    atomic_write_text(p, o.qasm)
    return written


__all__ = ["csv_text", "markdown_text", "write_report", "reduction", "optimizers", "CSV_COLUMNS"]
