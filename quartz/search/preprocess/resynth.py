"""Shortest-cx resynthesis of small {cx, x, rotation} blocks."""
from __future__ import annotations

from quartz import _core
from quartz.circuit import Circuit
from quartz.search.preprocess.styles import check_circuit, check_style, infer_style


def resynthesize_blocks(circuit: Circuit, style: str | None = None) -> Circuit:
    """Rewrite convex {cx, x, diagonal rotation} blocks on <= 3 qubits with the fewest cx.

    Each block is an affine map plus phase-polynomial terms over its inputs; a breadth-first
    search over invertible bit matrices finds the shortest cx sequence reaching the same map
    while showing every needed parity; rotations go where their parity first appears and x
    gates at the end. A block is replaced only when that saves gates. Exact, phase kept.
    """
    check_circuit(circuit, "resynthesize_blocks")
    style = check_style(style or infer_style(circuit))
    out, _ = _core.preprocess.resynthesize_blocks(circuit.native, style)
    return Circuit._wrap(out, circuit.name)
