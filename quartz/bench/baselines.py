"""Baseline optimizers for `quartz bench`: Qiskit's transpile(optimization_level=3) and pytket's
FullPeepholeOptimise + rebase, both targeting the suite's gate set (optional extras).

>>> import quartz
>>> from quartz.bench.baselines import run_baseline
>>> run_baseline("qiskit", quartz.Circuit(1).h(0).h(0), "nam").gate_count
0
"""
from __future__ import annotations

import math
from typing import Callable

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.gatesets import get_gate_set

# quartz gate -> pytket OpType name; angles are radians here and half-turns in pytket.
_TKET_OPS = {
    "h": "H", "x": "X", "y": "Y", "z": "Z", "s": "S", "sdg": "Sdg", "t": "T", "tdg": "Tdg",
    "sx": "SX", "sxdg": "SXdg", "rx": "Rx", "ry": "Ry", "rz": "Rz", "p": "U1", "u1": "U1",
    "u2": "U2", "u3": "U3", "cx": "CX", "cy": "CY", "cz": "CZ", "ch": "CH", "cp": "CU1",
    "swap": "SWAP", "rxx": "XXPhase", "ryy": "YYPhase", "rzz": "ZZPhase", "ccx": "CCX",
    "ccz": "CnZ",
}
# pytket OpType name -> quartz gate, for reading results back (U1 reads back as u1 or p).
_FROM_TKET = {v: k for k, v in _TKET_OPS.items() if k not in ("p",)}


def _require(module: str, baseline: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise QuartzError(f"baseline '{baseline}' needs the '{module.split('.')[0]}' package: "
                          "pip install 'quartz-superopt[bench]'") from None


def qiskit_baseline(circuit: Circuit, gate_set: str) -> Circuit:
    """Qiskit transpile(optimization_level=3) into the gate set's basis (no coupling map)."""
    _require("qiskit", "qiskit")
    from qiskit import transpile

    gs = get_gate_set(gate_set)
    out = transpile(circuit.to_qiskit(), basis_gates=list(gs.gates), optimization_level=3,
                    seed_transpiler=0)
    perm = out.layout.final_index_layout() if out.layout is not None else None
    if perm is not None and perm != list(range(len(perm))):
        # Levels 2-3 elide swap gates into a final qubit permutation; make it explicit gates
        # so that the output is the same unitary on the same wires.
        from qiskit import QuantumCircuit
        from qiskit.circuit.library import PermutationGate

        fixed = QuantumCircuit(out.num_qubits, global_phase=out.global_phase)
        for inst in out.data:
            fixed.append(inst.operation, [out.find_bit(q).index for q in inst.qubits])
        fixed.append(PermutationGate(perm), range(out.num_qubits))
        out = transpile(fixed, basis_gates=list(gs.gates), optimization_level=1)
    return Circuit.from_qiskit(out)


def to_tket(circuit: Circuit):
    """A pytket Circuit with the same unitary (global phase included)."""
    from pytket.circuit import Circuit as TkCircuit, OpType

    tk = TkCircuit(circuit.num_qubits)
    for g in circuit:
        op = getattr(OpType, _TKET_OPS[g.name])
        tk.add_gate(op, [float(p) / math.pi for p in g.params], list(g.qubits))
    tk.add_phase(float(circuit.global_phase) / math.pi)
    return tk


def from_tket(tk, gate_set: str | None = None) -> Circuit:
    """A quartz Circuit from a pytket Circuit of gates that quartz knows."""
    gs = get_gate_set(gate_set) if gate_set else None
    index = {q: i for i, q in enumerate(tk.qubits)}
    circ = Circuit(tk.n_qubits)
    for cmd in tk.get_commands():
        name = _FROM_TKET.get(cmd.op.type.name)
        if name == "u1" and gs is not None and "u1" not in gs and "p" in gs:
            name = "p"
        if name is None:
            raise QuartzError(f"pytket returned gate {cmd.op.type.name}, which quartz cannot read")
        circ.append(name, [index[q] for q in cmd.qubits],
                    [float(a) * math.pi for a in cmd.op.params])
    circ.global_phase = float(tk.phase) * math.pi
    return circ


def tket_baseline(circuit: Circuit, gate_set: str) -> Circuit:
    """pytket FullPeepholeOptimise (no implicit swaps), rebase to the gate set, redundancy removal."""
    _require("pytket", "tket")
    from pytket.circuit import OpType
    from pytket.passes import AutoRebase, FullPeepholeOptimise, RemoveRedundancies

    gs = get_gate_set(gate_set)
    target = {getattr(OpType, _TKET_OPS[g]) for g in gs.gates}
    tk = to_tket(circuit)
    FullPeepholeOptimise(allow_swaps=False).apply(tk)
    try:
        rebase = AutoRebase(target)
    except RuntimeError as e:
        raise QuartzError(f"pytket cannot rebase to gate set '{gs.name}': {e}") from None
    rebase.apply(tk)
    RemoveRedundancies().apply(tk)
    rebase.apply(tk)
    return from_tket(tk, gs.name)


BASELINES: dict[str, Callable[[Circuit, str], Circuit]] = {
    "qiskit": qiskit_baseline,
    "tket": tket_baseline,
}
_MODULES = {"qiskit": "qiskit", "tket": "pytket"}


def available_baselines() -> list[str]:
    """The baselines whose package is installed."""
    import importlib.util

    return [b for b in BASELINES if importlib.util.find_spec(_MODULES[b]) is not None]


def check_baselines(names: list[str]) -> None:
    """Raise QuartzError for an unknown baseline or one whose extra is not installed."""
    for b in names:
        if b not in BASELINES:
            raise QuartzError(f"unknown baseline '{b}'; baselines: {', '.join(BASELINES)}")
        _require(_MODULES[b], b)


def run_baseline(name: str, circuit: Circuit, gate_set: str) -> Circuit:
    """Run baseline `name` ('qiskit' or 'tket') on a circuit, targeting `gate_set`."""
    check_baselines([name])
    return BASELINES[name](circuit, gate_set)


__all__ = ["BASELINES", "run_baseline", "available_baselines", "check_baselines",
           "qiskit_baseline", "tket_baseline", "to_tket", "from_tket"]
