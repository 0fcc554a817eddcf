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

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from quartz import _core
from quartz._core import Param
from quartz.angles import to_param
from quartz.circuit import FORMATS, GATE_NAMES, Circuit
from quartz.errors import QuartzError

if TYPE_CHECKING:  # pragma: no cover
    from qiskit import QuantumCircuit
    from qiskit.circuit import Parameter, ParameterExpression

# Qiskit instruction names that are one of our gate types under another name.
_ALIASES = {"u": "u3", "cu1": "cp", "cnot": "cx", "toffoli": "ccx", "phase": "p"}
# Instructions that act as the identity on the state and are dropped.
_IDENTITIES = {"id", "i", "barrier", "delay"}
# Instructions that are not unitary gates: never inlined through a definition.
_NON_UNITARY = {"measure", "reset", "initialize", "store"}


class UnsupportedInstruction(QuartzError):
    """A Qiskit instruction (measure, reset, a gate without definition...) with no quartz gate."""

    def __init__(self, name: str, index: int):
        self.instruction = name
        self.index = index
        super().__init__(f"instruction '{name}' (operation {index}) is not a quartz gate; "
                         f"supported gates: {', '.join(GATE_NAMES)}")


class BadAngle(QuartzError):
    """An angle of a Qiskit instruction that quartz cannot represent (not finite, nonlinear)."""

    def __init__(self, name: str, index: int, reason: str):
        self.instruction = name
        self.index = index
        super().__init__(f"gate '{name}' (operation {index}): {reason}")


@lru_cache(maxsize=1 << 14)
def _float_param(x: float) -> Param:
    return to_param(x)


def _param_from_qiskit(value: Any, symbols: dict[Parameter, int]) -> Param:
    from qiskit.circuit import ParameterExpression

    if not isinstance(value, ParameterExpression):
        return _float_param(float(value))
    if not value.parameters:
        return _float_param(float(value))
    # A linear expression in Parameters: read off integer coefficients and check linearity.
    params = sorted(value.parameters, key=lambda p: p.name)
    for p in params:
        symbols.setdefault(p, max(symbols.values(), default=-1) + 1)
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


def _append_qiskit(native: _core.Circuit, qc: QuantumCircuit, qubit_map: list[int],
                   symbols: dict[Parameter, int], top: int | None,
                   depth: int = 0) -> Param:
    """Append qc's gates to `native` (qubits through qubit_map); returns the phase to add."""
    index = {q: i for i, q in enumerate(qc.qubits)}
    phase = Param()
    for pos, inst in enumerate(qc.data):
        where = pos if top is None else top
        op = inst.operation
        gname = _ALIASES.get(op.name, op.name)
        if gname in _IDENTITIES:
            continue
        if inst.clbits or getattr(op, "condition", None) is not None or gname in _NON_UNITARY:
            raise UnsupportedInstruction(op.name, where)
        qubits = [qubit_map[index[q]] for q in inst.qubits]
        if gname not in GATE_NAMES:
            definition = getattr(op, "definition", None)
            if definition is None or depth > 32:
                raise UnsupportedInstruction(op.name, where)
            phase = phase + _append_qiskit(native, definition, qubits, symbols, where, depth + 1)
            continue
        try:
            params = [_param_from_qiskit(p, symbols) for p in op.params]
        except (ValueError, TypeError, OverflowError) as e:
            raise BadAngle(op.name, where, str(e)) from None
        try:
            native.add_gate(gname, qubits, params)
        except (ValueError, TypeError, IndexError, OverflowError) as e:
            raise QuartzError(f"gate '{op.name}' (operation {where}): {e}") from None
    if not _is_zero(qc.global_phase):
        try:
            phase = phase + _param_from_qiskit(qc.global_phase, symbols)
        except (ValueError, TypeError, OverflowError) as e:
            raise QuartzError(f"global phase: {e}") from None
    return phase


def _symbol_indices(qc: QuantumCircuit) -> dict[Parameter, int]:
    """Parameter -> symbol index: p<k> is symbol k when every name has that form (so that
    to_qiskit/from_qiskit round-trip), otherwise the circuit's sorted parameter order."""
    params = list(qc.parameters)
    nums = [re.fullmatch(r"p(\d+)", p.name) for p in params]
    if all(m is not None for m in nums):
        return {p: int(m.group(1)) for p, m in zip(params, nums) if m is not None}
    return {p: i for i, p in enumerate(params)}


def from_qiskit(qc: QuantumCircuit, name: str | None = None) -> Circuit:
    """Convert a QuantumCircuit into a Circuit; custom gates are inlined through their
    definitions, barriers and identities dropped, measure/reset/conditionals raise."""
    symbols = _symbol_indices(qc)
    if name is None and not re.fullmatch(r"circuit-\d+", qc.name or ""):
        name = qc.name  # keep a real name, not qiskit's automatic "circuit-<n>"
    circ = Circuit(qc.num_qubits, name=name)
    phase = _append_qiskit(circ.native, qc, list(range(qc.num_qubits)), symbols, None)
    if phase.is_symbolic:
        raise QuartzError(f"global phase {phase} depends on parameters; quartz needs a constant")
    circ.global_phase = phase
    return circ


def _is_zero(x: Any) -> bool:
    try:
        return float(x) == 0.0
    except TypeError:
        return False


def _param_to_qiskit(p: Param, symbols: list[Parameter]) -> float | ParameterExpression:
    if not p.is_symbolic:
        return float(p)
    from qiskit.circuit import Parameter

    expr = float(p.constant_part())
    for s, k in p.terms:
        while len(symbols) <= s:
            symbols.append(Parameter(f"p{len(symbols)}"))
        expr = expr + k * symbols[s]
    return expr


def to_qiskit(circ: Circuit) -> QuantumCircuit:
    """Convert a Circuit into a QuantumCircuit with the same unitary, global phase included."""
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import get_standard_gate_name_mapping

    mapping = get_standard_gate_name_mapping()
    qc = QuantumCircuit(circ.num_qubits, name=circ.name or None)
    symbols: list[Parameter] = []
    for g in circ:
        gate_cls = type(mapping[g.name])
        params = [_param_to_qiskit(p, symbols) for p in g.params]
        qc.append(gate_cls(*params), list(g.qubits), copy=False)
    qc.global_phase = float(circ.global_phase)
    return qc


__all__ = ["from_qiskit", "to_qiskit", "UnsupportedInstruction", "BadAngle"]


FORMATS.from_qiskit, FORMATS.to_qiskit = from_qiskit, to_qiskit  # Circuit.from_qiskit, .to_qiskit
