"""Circuits with measurements, resets or classical control: the pipeline over each unitary
segment between them (quartz.segments), the rest kept in place."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quartz.circuit import Circuit
from quartz.pipeline.dispatch import optimize_circuit

if TYPE_CHECKING:  # pragma: no cover
    from qiskit import QuantumCircuit

    from quartz.gatesets import GateSet
    from quartz.pipeline.options import Options


def optimize_measured(qc: QuantumCircuit, gate_set: str | GateSet, options: Options,
                      report: dict[str, Any] | None = None) -> QuantumCircuit:
    """`qc` with each unitary segment through optimize_circuit (checked on its own; a segment
    whose result was not kept stays as it was), the segments sharing options.timeout."""
    from quartz.segments import optimize_segments

    def one(seg: QuantumCircuit, seconds: float, r: dict[str, Any]) -> QuantumCircuit:
        state = optimize_circuit(Circuit.from_qiskit(seg), gate_set,
                                 options.with_timeout(seconds), r)
        if state.returned == "input":
            return seg
        assert state.result is not None
        return state.result.to_qiskit()

    out = optimize_segments(qc, one, options.timeout, report)
    if report is not None:
        report["seed"] = options.seed
    return out
