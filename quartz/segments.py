"""Circuits with measurements, resets, barriers or classically controlled gates: the unitary
segments between them are optimized one by one, everything else stays in place. A boundary
cuts only its own wires, so gates on the other qubits join one segment across it.

>>> from qiskit import QuantumCircuit
>>> qc = QuantumCircuit(2, 2)
>>> _ = qc.h(0); _ = qc.h(0); _ = qc.cx(0, 1); _ = qc.measure([0, 1], [0, 1])
>>> parts = split(qc)
>>> [type(p).__name__ for p in parts]
['QuantumCircuit', 'CircuitInstruction', 'CircuitInstruction', 'QuantumCircuit']
>>> parts[0].size(), parts[3].size()
(3, 0)
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from qiskit import QuantumCircuit
    from qiskit.circuit import CircuitInstruction

# Instructions that end a unitary segment even without classical bits.
BOUNDARY_NAMES = frozenset({"measure", "reset", "barrier", "initialize", "store", "delay"})


def is_boundary(inst: CircuitInstruction) -> bool:
    """True for what no unitary rewrite may cross: measurements, resets, barriers, anything on
    classical bits or classically controlled, control flow."""
    op = inst.operation
    return (bool(inst.clbits) or op.name in BOUNDARY_NAMES
            or getattr(op, "condition", None) is not None or bool(getattr(op, "blocks", ())))


def needs_segments(qc: QuantumCircuit) -> bool:
    """True when `qc` holds a measurement, reset or classically controlled instruction (a
    circuit with barriers only is unitary: quartz reads it as before, barriers dropped)."""
    return any(is_boundary(inst) and inst.operation.name != "barrier" for inst in qc.data)


def _whole_width(inst: CircuitInstruction) -> bool:
    """True for a boundary whose classical inputs its bits may not list (a condition, control
    flow, a store): it orders against every wire, as all boundaries used to."""
    op = inst.operation
    return (getattr(op, "condition", None) is not None or bool(getattr(op, "blocks", ()))
            or op.name == "store")


def split(qc: QuantumCircuit) -> list[QuantumCircuit | CircuitInstruction]:
    """`qc` as unitary segments (QuantumCircuits on all of its qubits, no classical bits) and
    the boundary instructions between them: segment 0, the boundaries that follow it,
    segment 1, ..., the last segment (segments may be empty). Boundaries cut only their own
    wires: a gate goes into the first segment after every boundary on its qubits, so gates
    on other qubits are optimized together across a mid-circuit measurement (they commute
    with it). Conditions, control flow and stores cut every wire."""
    from qiskit import QuantumCircuit

    n = qc.num_qubits
    qindex = {q: i for i, q in enumerate(qc.qubits)}
    cindex = {c: n + i for i, c in enumerate(qc.clbits)}
    every = range(n + len(qc.clbits))
    # level[w]: the first segment an instruction on wire w may join (boundary group level-1
    # is the last one on it)
    level = [0] * len(every)
    segments: list[list[tuple[Any, list[int]]]] = [[]]
    groups: list[list[CircuitInstruction]] = []
    for inst in qc.data:
        qs = [qindex[q] for q in inst.qubits]
        if is_boundary(inst):
            wires = every if _whole_width(inst) else qs + [cindex[c] for c in inst.clbits]
            t = max((level[w] for w in wires), default=0)
            while len(groups) <= t:
                groups.append([])
                segments.append([])
            groups[t].append(inst)
            for w in wires:
                level[w] = t + 1
        else:
            s = max((level[q] for q in qs), default=0)
            segments[s].append((inst.operation, qs))
            for q in qs:
                level[q] = s
    out: list[QuantumCircuit | CircuitInstruction] = []
    for k, ops in enumerate(segments):
        seg = QuantumCircuit(n)
        for op, qs in ops:
            seg.append(op, qs)
        out.append(seg)
        if k < len(groups):
            out.extend(groups[k])
    return out


def optimize_segments(qc: QuantumCircuit,
                      optimize_one: Callable[[QuantumCircuit, float, dict[str, Any]], QuantumCircuit],
                      timeout: float, report: dict[str, Any] | None = None) -> QuantumCircuit:
    """`qc` with every non-empty unitary segment replaced by optimize_one(segment, seconds,
    its report); the segments share `timeout` in proportion to their gates, and after one whose
    search was interrupted (Ctrl-C) the rest are kept as they were. `report` gets
    "segments" (each segment's report) and an overall "check": ok True when every segment's
    check proved it, None when one did not conclude; "returned": "optimized" or "input"."""
    from qiskit import QuantumCircuit

    parts = split(qc)
    total = sum(p.size() for p in parts if isinstance(p, QuantumCircuit)) or 1
    wires = list(range(qc.num_qubits))
    start = time.monotonic()
    out = qc.copy_empty_like()
    reports: list[dict[str, Any]] = []
    done = 0
    interrupted = False
    for p in parts:
        if not isinstance(p, QuantumCircuit):  # a boundary instruction, on qc's own bits
            out.append(p)
            continue
        if p.size() == 0:
            continue
        if interrupted:  # Ctrl-C ended an earlier segment's search: the rest stays as it was
            out.compose(p, qubits=wires, inplace=True)
            continue
        done += p.size()
        # This segment's share, plus whatever the earlier ones left unused.
        share = max(0.0, start + timeout * done / total - time.monotonic())
        r: dict[str, Any] = {}
        got = optimize_one(p, share, r)
        out.compose(got, qubits=wires, inplace=True)
        reports.append(r)
        interrupted = bool((r.get("search") or {}).get("interrupted"))
    if report is not None:
        checks = [r.get("check") or {} for r in reports]
        ok = True if all(c.get("ok") is True for c in checks) else None
        report.clear()
        report["segments"] = reports
        report["check"] = {
            "ok": ok, "method": "unitary segments",
            "proof": all(c.get("proof", False) for c in checks),
            "seconds": sum(c.get("seconds", 0.0) for c in checks),
            "detail": f"{len(reports)} unitary segment(s) between measurements, resets, barriers "
                      f"or classical control, each checked against itself",
        }
        report["returned"] = ("optimized" if any(r.get("returned") != "input" for r in reports)
                              else "input")
    return out


def to_qasm_text(qc: QuantumCircuit) -> str:
    """OpenQASM 2 text of `qc` when OpenQASM 2 can say it, else OpenQASM 3 (control flow,
    conditions on single bits)."""
    from qiskit import qasm2, qasm3

    try:
        text: str = qasm2.dumps(qc)
    except qasm2.QASM2ExportError:
        text = qasm3.dumps(qc)
    return text + "\n"


__all__ = ["BOUNDARY_NAMES", "is_boundary", "needs_segments", "split", "optimize_segments",
           "to_qasm_text"]
