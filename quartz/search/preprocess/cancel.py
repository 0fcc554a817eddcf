"""Cancellation of adjacent inverse gates and merging of same-axis rotations."""
from __future__ import annotations

from quartz import _core
from quartz.circuit import Circuit
from quartz.search.preprocess.styles import check_circuit


def cancel_inverses(circuit: Circuit, *, window: int = 64) -> Circuit:
    """Remove inverse pairs (h h, cx cx, s sdg, ...) and add up same-kind rotations, to a fixpoint.

    A gate may first be commuted forward past up to `window` gates on its wires when that is
    exact: on every shared qubit both gates act in the same basis (Z: diagonal gates and
    controls; X: x, rx, sx and cx targets; Y: y, ry, cy targets). Rotations that become the
    identity vanish (rz(2pi) = -I goes into the global phase).
    """
    check_circuit(circuit, "cancel_inverses")
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"window must be a positive int, got {window!r}")
    return Circuit._wrap(_core.preprocess.cancel_inverses(circuit.native, window), circuit.name)
