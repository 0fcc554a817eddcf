"""Circuits with measurements, resets and barriers: optimize() and `quartz optimize` work on the
unitary segments between them and keep the rest in place (quartz.segments)."""
import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator

import quartz
from quartz.cli import main
from quartz.segments import needs_segments, split


def unitary_ops(qc: QuantumCircuit) -> list[str]:
    return [i.operation.name for i in qc.data]


def test_split_keeps_order_and_qubits():
    qc = QuantumCircuit(2, 1)
    qc.h(1)
    qc.measure(1, 0)
    qc.cx(1, 0)
    qc.barrier()
    parts = split(qc)
    assert [type(p).__name__ for p in parts] == ["QuantumCircuit", "CircuitInstruction",
                                                 "QuantumCircuit", "CircuitInstruction",
                                                 "QuantumCircuit"]
    assert [(i.operation.name, [parts[0].find_bit(q).index for q in i.qubits]) for i in parts[0].data] == [("h", [1])]
    assert [(i.operation.name, [parts[2].find_bit(q).index for q in i.qubits]) for i in parts[2].data] == [("cx", [1, 0])]
    assert parts[4].size() == 0


def rebuilt(qc: QuantumCircuit) -> QuantumCircuit:
    out = qc.copy_empty_like()
    for p in split(qc):
        if isinstance(p, QuantumCircuit):
            out.compose(p, qubits=list(range(qc.num_qubits)), inplace=True)
        else:
            out.append(p)
    return out


def test_a_measurement_cuts_only_its_own_wires():
    """Gates on other qubits are one segment across a mid-circuit measurement (they commute
    with it), so the two h on qubit 1 meet and cancel."""
    qc = QuantumCircuit(2, 1)
    qc.h(1)
    qc.measure(0, 0)
    qc.h(1)
    parts = split(qc)
    assert [type(p).__name__ for p in parts] == ["QuantumCircuit", "CircuitInstruction", "QuantumCircuit"]
    assert unitary_ops(parts[0]) == ["h", "h"] and parts[2].size() == 0
    out = quartz.optimize(qc, "nam", timeout=2, seed=0)
    assert unitary_ops(out) == ["measure"]  # the whole-width split kept both h


def test_split_keeps_the_circuit_up_to_commuting_disjoint_instructions():
    """Seeded random circuits with mid-circuit measurements, resets and barriers: the parts put
    back together give the same DAG (Qiskit's DAG equality ignores the order of instructions
    on disjoint wires, nothing else)."""
    from qiskit.converters import circuit_to_dag

    rng = np.random.default_rng(7)
    for _ in range(40):
        qc = QuantumCircuit(4, 3)
        for _ in range(30):
            k = rng.integers(7)
            q = [int(x) for x in rng.choice(4, 2, replace=False)]
            if k == 0:
                qc.measure(q[0], int(rng.integers(3)))
            elif k == 1:
                qc.reset(q[0])
            elif k == 2 and rng.random() < 0.3:
                qc.barrier(*q)
            elif k == 3:
                qc.cx(*q)
            else:
                getattr(qc, ["h", "t", "x", "s"][int(rng.integers(4))])(q[0])
        assert circuit_to_dag(rebuilt(qc)) == circuit_to_dag(qc)
        segs = [p for p in split(qc) if isinstance(p, QuantumCircuit)]
        assert sum(p.size() for p in segs) == sum(1 for i in qc.data if i.operation.name not in ("measure", "reset", "barrier"))


def test_needs_segments():
    qc = QuantumCircuit(1, 1)
    qc.h(0)
    qc.barrier()
    assert not needs_segments(qc)  # barriers alone: read as before (dropped)
    qc.measure(0, 0)
    assert needs_segments(qc)
    r = QuantumCircuit(1)
    r.reset(0)
    assert needs_segments(r)


def measured_circuit() -> QuantumCircuit:
    qc = QuantumCircuit(2, 2)
    qc.h(0)
    qc.h(0)  # cancels
    qc.x(1)
    qc.measure(0, 0)  # mid-circuit
    qc.reset(1)
    qc.x(1)
    qc.x(1)  # cancels
    qc.cx(0, 1)
    qc.t(1)
    qc.tdg(1)  # cancels
    qc.measure([0, 1], [0, 1])
    return qc


def test_optimize_qiskit_circuit_with_measurements():
    qc = measured_circuit()
    report = {}
    out = quartz.optimize(qc, "nam", timeout=4, seed=1, report=report)
    assert isinstance(out, QuantumCircuit)
    assert unitary_ops(out) == ["x", "measure", "reset", "cx", "measure", "measure"]
    assert [[out.find_bit(b).index for b in i.clbits] for i in out.data if i.operation.name == "measure"] == [[0], [0], [1]]
    assert report["check"]["ok"] is True and report["check"]["method"] == "unitary segments"
    assert len(report["segments"]) == 2 and report["returned"] == "optimized"
    assert report["seed"] == 1


def test_segments_keep_each_unitary_and_the_global_phase():
    qc = QuantumCircuit(2, 1)
    qc.h(0)
    qc.t(0)
    qc.cx(0, 1)
    qc.t(0)
    qc.s(1)
    qc.measure(0, 0)
    qc.rz(0.25, 0)
    qc.rz(0.5, 0)
    out = quartz.optimize(qc, "nam", timeout=3, seed=0)
    a, b = split(qc), split(out)  # segments carry no phase: the circuit's global phase does
    assert len(a) == len(b) == 3
    for x, y in ((a[0], b[0]), (a[2], b[2])):
        assert Operator(x).equiv(Operator(y))  # each segment the same up to a phase
    whole_in = Operator(a[0]).compose(Operator(a[2])).data * np.exp(1j * float(qc.global_phase))
    whole_out = Operator(b[0]).compose(Operator(b[2])).data * np.exp(1j * float(out.global_phase))
    assert np.allclose(whole_in, whole_out, atol=1e-9)  # and the phases add up exactly
    assert b[2].size() == 1  # the two rz merged


def test_optimize_qasm_text_with_measurements_returns_qasm():
    text = ('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\n'
            "h q[0];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;\n")
    out = quartz.optimize(text, "nam", timeout=2, seed=0)
    assert isinstance(out, str)
    body = [ln for ln in out.splitlines() if ln and not ln.startswith(("OPENQASM", "include", "qreg", "creg"))]
    assert body == ["cx q[0],q[1];", "measure q[0] -> c[0];", "measure q[1] -> c[1];"]


def test_cli_optimizes_a_file_with_measurements(tmp_path, capsys):
    src = tmp_path / "m.qasm"
    src.write_text('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\n'
                   "x q[1];\nx q[1];\nh q[0];\nbarrier q;\nmeasure q -> c;\n")
    dst = tmp_path / "out.qasm"
    assert main(["optimize", str(src), "-o", str(dst), "--timeout", "2", "--seed", "0",
                 "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "equivalent by unitary segments" in err
    assert "before: 3 gates" in err and "after:  1 gates" in err
    out = QuantumCircuit.from_qasm_file(str(dst))
    assert unitary_ops(out) == ["h", "barrier", "measure", "measure"]


def test_plain_load_still_refuses_measurements():
    with pytest.raises(quartz.QasmError, match="unsupported instruction 'measure'"):
        quartz.load('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\ncreg c[1];\nmeasure q[0] -> c[0];\n')


def test_an_interrupted_segment_leaves_the_rest_unchanged():
    """Ctrl-C ends the whole call: after a segment whose search was interrupted, the other
    segments are copied, not searched."""
    from quartz.segments import optimize_segments

    qc = measured_circuit()
    calls = []

    def one(seg, seconds, r):
        calls.append(seg.size())
        r["search"] = {"interrupted": True}
        r["check"] = {"ok": True, "proof": True, "seconds": 0.0}
        return seg

    out = optimize_segments(qc, one, 10.0, {})
    assert calls == [3]  # only the first segment was searched
    assert unitary_ops(out) == unitary_ops(qc)


def test_openqasm3_with_a_condition_comes_back_as_openqasm3():
    text = ('OPENQASM 3.0;\ninclude "stdgates.inc";\nqubit[2] q;\nbit[2] c;\n'
            "h q[0];\nh q[0];\nx q[1];\nc[0] = measure q[0];\nif (c[0]) { x q[1]; }\n"
            "c[1] = measure q[1];\n")
    out = quartz.optimize(text, "nam", timeout=2, seed=0)
    assert out.startswith("OPENQASM 3")
    from qiskit import qasm3

    back = qasm3.loads(out)
    assert [i.operation.name for i in back.data] == ["x", "measure", "if_else", "measure"]
