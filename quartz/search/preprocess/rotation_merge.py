"""Phase-polynomial rotation merging (Nam et al. 2018) with the negation bit tracked through X."""
from __future__ import annotations

from quartz import _core
from quartz.circuit import Circuit
from quartz.search.preprocess.styles import check_circuit, check_style, infer_style


def rotation_merge(circuit: Circuit, style: str | None = None, *, placement: str = "first") -> Circuit:
    """Merge diagonal rotations acting on the same wire parity; exact, global phase kept.

    Wires carry affine parities (a set of path variables plus a negation bit) through cx, x and
    swap; every other non-diagonal gate starts fresh variables on its qubits. rz(t) seen through
    a negated parity counts as rz(-t); p/u1/t/s/z gates count as rz plus a global phase. Each
    sum is written back once (as `style` gates: rz, p, u1, or t/s/z for "t"/"t_noz") at the
    first (or, with placement="last", the last) occurrence of its parity; sums that are the
    identity vanish, -I included (into the global phase).
    """
    check_circuit(circuit, "rotation_merge")
    style = check_style(style or infer_style(circuit))
    if placement not in ("first", "last"):
        raise ValueError(f"placement must be 'first' or 'last', got {placement!r}")
    out, _, _ = _core.preprocess.rotation_merge(circuit.native, style, placement == "last")
    return Circuit._wrap(out, circuit.name)
