"""Which gates merged diagonal rotations are written as ("rotation style")."""
from __future__ import annotations

from quartz.circuit import Circuit
from quartz.errors import QuartzError

STYLES = ("rz", "p", "u1", "t", "t_noz")
_PHASE_GATES = {"p", "u1", "t", "tdg", "s", "sdg", "z"}


def check_circuit(circuit: object, what: str) -> Circuit:
    """Return `circuit` if it is a quartz Circuit, else raise a QuartzError naming `what`."""
    if not isinstance(circuit, Circuit):
        raise QuartzError(f"{what} expects a quartz.Circuit, got {type(circuit).__name__}")
    return circuit


def check_style(style: str) -> str:
    """Validate a rotation style name."""
    if style not in STYLES:
        raise QuartzError(f"unknown rotation style {style!r}; choose one of {', '.join(STYLES)}")
    return style


def infer_style(circuit: Circuit) -> str:
    """The style matching the diagonal gates a circuit already uses (rz unless it has none)."""
    names = set(circuit.count_ops())
    if "rz" in names or not names & _PHASE_GATES:
        return "rz"
    if "u1" in names:
        return "u1"
    if "p" in names:
        return "p"
    return "t"


def style_for_gate_set(gate_set) -> str | None:
    """The style whose gates lie in `gate_set`, or None when it has no diagonal rotation gate."""
    from quartz.gatesets import get_gate_set

    gates = set(get_gate_set(gate_set).gates)
    for name in ("rz", "u1", "p"):
        if name in gates:
            return name
    if {"t", "tdg", "s", "sdg"} <= gates:
        return "t" if "z" in gates else "t_noz"
    return None
