"""Shortest-cx resynthesis of small {cx, x, rotation} blocks."""
from __future__ import annotations

from quartz import _core
from quartz.circuit import Circuit
from quartz.search.preprocess.styles import check_circuit, check_style, infer_style


def resynthesize_blocks(circuit: Circuit, style: str | None = None, *, max_qubits: int = 3) -> Circuit:
    """Rewrite convex {cx, x, diagonal rotation} blocks on <= max_qubits (2-4) qubits with the
    fewest cx.

    Each block is an affine map plus phase-polynomial terms over its inputs; a search over
    invertible bit matrices (a table for 2-3 qubits, a bounded A* for 4) finds the shortest
    cx sequence reaching the same map while showing every needed parity; rotations go where
    their parity first appears and x gates at the end. A block is replaced only when that
    saves gates. Exact, phase kept.
    """
    check_circuit(circuit, "resynthesize_blocks")
    style = check_style(style or infer_style(circuit))
    if isinstance(max_qubits, bool) or not isinstance(max_qubits, int) or max_qubits not in (2, 3, 4):
        raise ValueError(f"max_qubits must be 2, 3 or 4, got {max_qubits!r}")
    out, _ = _core.preprocess.resynthesize_blocks(circuit.native, style, max_qubits)
    return Circuit._wrap(out, circuit.name)
