"""Exact conversion between `quartz.Circuit` and `qiskit.QuantumCircuit`.

>>> from qiskit import QuantumCircuit
>>> from quartz.qiskit_convert import from_qiskit, to_qiskit
>>> qc = QuantumCircuit(2, global_phase=0.5); _ = qc.h(0); _ = qc.cx(0, 1)
>>> c = from_qiskit(qc); c.summary()
'2 qubits, 2 gates, 1 cx, 0 T, depth 2 [cx:1 h:1]'
>>> to_qiskit(c).global_phase
0.5
"""
from __future__ import annotations


import numpy as np

from quartz._core import Param
from quartz.angles import to_param
from quartz.circuit import GATE_NAMES, Circuit
from quartz.errors import QuartzError

# Qiskit instruction names that are one of our gate types under another name.
_ALIASES = {"u": "u3", "cu1": "cp", "cnot": "cx", "toffoli": "ccx", "phase": "p"}
# Instructions that act as the identity on the state and are dropped.
_IDENTITIES = {"id", "i"}


class UnsupportedInstruction(QuartzError):
    """A Qiskit instruction (measure, barrier, a custom gate...) with no quartz gate type."""

    def __init__(self, name: str, index: int):
        self.instruction = name
        self.index = index
        super().__init__(f"instruction '{name}' (operation {index}) is not a quartz gate; "
                         f"supported gates: {', '.join(GATE_NAMES)}")


def _param_from_qiskit(value, symbols: dict) -> Param:
    from qiskit.circuit import ParameterExpression

    if not isinstance(value, ParameterExpression) or not value.parameters:
        try:
            return to_param(float(value))
        except (ValueError, OverflowError) as e:
            raise QuartzError(f"bad angle {value}: {e}") from None
    # A linear expression in Parameters: read off integer coefficients and check linearity.
    params = sorted(value.parameters, key=lambda p: p.name)
    for p in params:
        symbols.setdefault(p, len(symbols))
    zero = {p: 0.0 for p in params}
    const = float(value.bind(zero))
    result = to_param(const)
    for p in params:
        at = dict(zero)
        at[p] = 1.0
        coef = float(value.bind(at)) - const
        k = round(coef)
        if abs(coef - k) > 1e-9:
            raise QuartzError(f"angle {value} is not an integer-linear combination of parameters")
        if k:
            result = result + Param.symbol(symbols[p], k)
    rng = np.random.default_rng(0)
    probe = {p: float(rng.uniform(-3, 3)) for p in params}
    sym_vals = [0.0] * len(symbols)
    for p, v in probe.items():
        sym_vals[symbols[p]] = v
    if abs(float(value.bind(probe)) - result.value(sym_vals)) > 1e-9:
        raise QuartzError(f"angle {value} is not linear in its parameters")
    return result


def from_qiskit(qc, name: str | None = None) -> Circuit:
    """Convert a QuantumCircuit (gates only; measure/barrier/reset raise) into a Circuit."""
    symbols: dict = {}
    circ = Circuit(qc.num_qubits, name=name if name is not None else qc.name)
    index = {q: i for i, q in enumerate(qc.qubits)}
    for pos, inst in enumerate(qc.data):
        op = inst.operation
        gname = _ALIASES.get(op.name, op.name)
        if gname in _IDENTITIES:
            continue
        if gname not in GATE_NAMES or getattr(op, "condition", None) is not None or inst.clbits:
            raise UnsupportedInstruction(op.name, pos)
        qubits = [index[q] for q in inst.qubits]
        params = [_param_from_qiskit(p, symbols) for p in op.params]
        circ.append(gname, qubits, params)
    circ.global_phase = _param_from_qiskit(qc.global_phase, symbols) if not _is_zero(qc.global_phase) else 0.0
    return circ


def _is_zero(x) -> bool:
    try:
        return float(x) == 0.0
    except TypeError:
        return False


def _param_to_qiskit(p: Param, symbols: list):
    if not p.is_symbolic:
        return float(p)
    from qiskit.circuit import Parameter

    expr = float(p.constant_part())
    for s, k in p.terms:
        while len(symbols) <= s:
            symbols.append(Parameter(f"p{len(symbols)}"))
        expr = expr + k * symbols[s]
    return expr


def to_qiskit(circ: Circuit):
    """Convert a Circuit into a QuantumCircuit with the same unitary, global phase included."""
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import get_standard_gate_name_mapping

    mapping = get_standard_gate_name_mapping()
    qc = QuantumCircuit(circ.num_qubits, name=circ.name or None)
    symbols: list = []
    for g in circ:
        gate_cls = type(mapping[g.name])
        params = [_param_to_qiskit(p, symbols) for p in g.params]
        qc.append(gate_cls(*params), list(g.qubits), copy=False)
    qc.global_phase = float(circ.global_phase)
    return qc


__all__ = ["from_qiskit", "to_qiskit", "UnsupportedInstruction"]
