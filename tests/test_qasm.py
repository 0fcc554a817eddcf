"""QASM I/O: every benchmark file loads, counts, round-trips and matches qiskit; bad input is
one QasmError naming the line (and the gate)."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from qiskit import qasm2
from qiskit.circuit.library import CCZGate, RXGate
from qiskit.quantum_info import Operator, Statevector

import quartz
from quartz import Circuit, Param, QasmError, QuartzError

BENCHMARKS = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks"
SUITES = ("nam", "nam-ccz", "clifford-t", "rigetti")

FILES = sorted(p for s in SUITES for p in (BENCHMARKS / s).glob("*.qasm"))
IDS = [f"{p.parent.name}/{p.stem}" for p in FILES]
_HEADER = re.compile(r"^\s*(OPENQASM|include|qreg|creg|//)")
# Full Operator comparison when gates * 4^n is at most this; otherwise sampled columns.
FULL_OPERATOR_BUDGET = 3e7


def _gate_lines(path: Path) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.strip() and not _HEADER.match(line))


def _num_qubits(path: Path) -> int:
    return int(re.search(r"qreg\s+\w+\[(\d+)\]", path.read_text()).group(1))


def _qiskit_reference(path: Path):
    """The file as plain qiskit reads it (rx1 = Rx(pi/2) as in Quartz), independent of quartz."""
    custom = list(qasm2.LEGACY_CUSTOM_INSTRUCTIONS) + [
        qasm2.CustomInstruction("ccz", 0, 3, CCZGate, builtin=True),
        qasm2.CustomInstruction("rx1", 0, 1, lambda: RXGate(math.pi / 2), builtin=True),
    ]
    return qasm2.loads(path.read_text(), custom_instructions=custom)


def test_all_suites_present():
    assert len(FILES) >= 120
    assert {p.parent.name for p in FILES} == set(SUITES)


@pytest.fixture(scope="module")
def loaded():
    return {p: quartz.load(p) for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_benchmark_loads_counts_and_round_trips(path, loaded):
    c = loaded[path]
    assert c.name == path.stem
    assert len(c) == _gate_lines(path)
    assert c.num_qubits == _num_qubits(path)
    again = quartz.loads(quartz.dumps(c))
    assert again == c and again.structural_hash() == c.structural_hash()
    assert list(again) == list(c)  # same order too, not only the same DAG
    if len(c) <= 3000:  # qiskit object construction is slow; the big ones add nothing new
        assert Circuit.from_qiskit(c.to_qiskit()) == c


def test_known_gate_counts(loaded):
    by_name = {f"{p.parent.name}/{p.stem}": c for p, c in loaded.items()}
    assert len(by_name["nam/tof_3"]) == 45
    assert len(by_name["nam/adder_8"]) == 900
    assert len(by_name["nam/gf2^32_mult"]) == 13593
    assert by_name["nam/tof_3"].count_ops() == {"cx": 18, "rz": 21, "h": 6}
    assert by_name["nam-ccz/tof_3"].count_ops() == {"h": 6, "ccz": 3}
    assert by_name["rigetti/tof_3"].count_ops() == {"rz": 71, "rx": 28, "x": 28, "cz": 14}
    rz = [g for g in by_name["nam/tof_3"] if g.name == "rz"]
    assert {p for g in rz for p in g.params} == {Param.pi(1, 4), Param.pi(-1, 4)}


SMALL = [p for p in FILES if _num_qubits(p) <= 10]


@pytest.mark.parametrize("path", SMALL, ids=[f"{p.parent.name}/{p.stem}" for p in SMALL])
def test_benchmark_unitary_equals_qiskit(path, loaded):
    c = loaded[path]
    qc = _qiskit_reference(path)
    n = c.num_qubits
    u = c.unitary()
    if len(c) * 4 ** n <= FULL_OPERATOR_BUDGET:
        assert np.allclose(u, Operator(qc).data, atol=1e-8)
    else:  # columns j of qiskit's Operator are its evolution of |j>
        for j in np.random.default_rng(0).choice(2 ** n, size=3, replace=False):
            col = Statevector.from_int(int(j), 2 ** n).evolve(qc).data
            assert np.allclose(u[:, j], col, atol=1e-8)


@pytest.mark.slow
@pytest.mark.parametrize("path", SMALL, ids=[f"{p.parent.name}/{p.stem}" for p in SMALL])
def test_benchmark_full_operator_slow(path, loaded):
    assert np.allclose(loaded[path].unitary(), Operator(_qiskit_reference(path)).data, atol=1e-8)


H = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\n'
H3 = 'OPENQASM 3.0;\ninclude "stdgates.inc";\nqubit[2] q;\n'


@pytest.mark.parametrize("text,line,pattern", [
    (H + "h q[0];\nfoo q[1];\n", 5, "'foo' is not defined"),
    (H + "cx q[0];\n", 4, "'cx' takes 2 quantum arguments"),
    (H + "h q[0],q[1];\n", 4, "'h' takes 1 quantum argument"),
    (H + "rz q[0];\n", 4, "gate 'rz' takes 1 angle"),
    (H + "rz(0.1,0.2) q[0];\n", 4, "'rz'"),
    (H + "rz(pi*) q[0];\n", 4, "gate 'rz'"),
    (H + "rz(abc) q[0];\n", 4, "'abc'.*gate 'rz'"),
    (H + "rz(1/0) q[0];\n", 4, "divide by zero.*gate 'rz'"),
    (H + "rz(1e400) q[0];\n", 4, "bad angle of gate 'rz'.*not finite"),
    (H + "h q[0];\ncx q[0],", 5, "end-of-file.*gate 'cx'"),
    ('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[', 3, "end-of-file"),
    (H + "h q[0];\ncx q[0],q[5];\n", 5, "out-of-range.*gate 'cx'"),
    (H + "cx q[1],q[1];\n", 4, "duplicate qubits.*gate 'cx'"),
    (H + "creg c[1];\nh q[0];\nmeasure q[0] -> c[0];\n", 6, "unsupported instruction 'measure'"),
    (H + "reset q[0];\n", 4, "unsupported instruction 'reset'"),
    (H3 + "h q[0];\nfoo q[1];\n", 5, "gate 'foo' is not defined"),
    (H3 + "rz(1,2) q[1];\n", 4, "gate 'rz' takes 1 angle"),
    (H3 + "h q[0];\ncx q[0];\n", 5, "gate 'cx' takes 2 qubit"),
    (H3 + "h q[0];\ncx q[0], q[7];\n", 5, "q\\[7\\] is out of range.*size 2"),
    (H3 + "h q[0];\ncx q[0],", 5, "gate 'cx'"),
    (H3 + "rz(pi/0) q[0];\n", 4, "bad angle 'pi/0' of gate 'rz'"),
    (H3 + "rz(theta) q[0];\n", 4, "'theta'"),
    (H3 + "rz(1,2 q[1];\n", 4, "gate 'rz'"),
])
def test_malformed_qasm(text, line, pattern):
    with pytest.raises(QasmError) as info:
        quartz.loads(text)
    err = info.value
    assert err.line == line, str(err)
    assert f"line {line}:" in str(err)
    assert re.search(pattern, str(err)), str(err)


@pytest.mark.parametrize("text", ["", "   \n\n", "// only a comment\n"])
def test_empty_input(text):
    with pytest.raises(QasmError, match="empty input|OPENQASM|expected"):
        quartz.loads(text)


def test_error_names_the_file(tmp_path):
    bad = tmp_path / "bad.qasm"
    bad.write_text(H + "h q[0];\nfoo q[1];\n")
    with pytest.raises(QasmError, match=r"bad\.qasm, line 5: 'foo'"):
        quartz.load(bad)
    with pytest.raises(QuartzError, match="cannot read"):
        quartz.load(tmp_path / "missing.qasm")


def test_qasm3_input():
    c = quartz.loads(H3 + "h q[0];\ncx q[0], q[1];\nrz(-pi/4) q[1];\n")
    assert [g.name for g in c] == ["h", "cx", "rz"] and c[2].params[0] == Param.pi(-1, 4)
    sym = quartz.loads('OPENQASM 3.0;\ninclude "stdgates.inc";\ninput float theta;\nqubit[1] q;\n'
                       "rz(theta) q[0];\nrx(-2*theta) q[0];\n")
    assert [g.params[0] for g in sym] == [Param.symbol(0), Param.symbol(0, -2)]


def test_custom_gates_barriers_and_registers():
    text = (H + "qreg r[1];\ngate my(t) a, b { cx a, b; rz(t/2) b; }\n"
            "barrier q;\nmy(pi) q[0], r[0];\nrx1 q[1];\nrx3 q[1];\nccz q[0],q[1],r[0];\n")
    c = quartz.loads(text)
    assert [(g.name, g.qubits) for g in c] == [("cx", (0, 2)), ("rz", (2,)), ("rx", (1,)),
                                             ("rx", (1,)), ("ccz", (0, 1, 2))]
    assert [g.params for g in c][1:4] == [(Param.pi(1, 2),), (Param.pi(1, 2),), (Param.pi(3, 2),)]


def test_global_phase_comment_round_trip():
    c = Circuit(2).h(0).cx(0, 1)
    c.global_phase = Param.pi(3, 4)
    text = quartz.dumps(c)
    assert "// quartz: global_phase = 3*pi/4" in text
    assert quartz.loads(text) == c
    with pytest.raises(QasmError, match="line 3: bad global phase"):
        quartz.loads(text.replace("3*pi/4", "3*pi/"))


def test_dump_is_atomic(tmp_path):
    c = Circuit(1).t(0)
    out = tmp_path / "t.qasm"
    quartz.dump(c, out)
    assert quartz.load(out) == c
    with pytest.raises(QuartzError, match="cannot write"):
        quartz.dump(c, tmp_path / "no" / "such" / "dir.qasm")
    with pytest.raises(ValueError, match="symbolic"):
        quartz.dump(Circuit(1).rz(Param.symbol(0), 0), tmp_path / "sym.qasm")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.qasm"]


def test_every_gate_type_round_trips():
    from quartz._core import gate_info
    from quartz.circuit import GATE_NAMES

    rng = np.random.default_rng(0)
    c = Circuit(3)
    for name in GATE_NAMES:
        nq, npar, _, _ = gate_info(name)
        c.append(name, [int(q) for q in rng.permutation(3)[:nq]],
                 [float(x) for x in rng.uniform(-4, 4, npar)])
    back = quartz.loads(quartz.dumps(c))
    assert list(back) == list(c) and back.name is None
    assert np.allclose(back.unitary(), c.unitary())
    empty = quartz.loads(quartz.dumps(Circuit(0)))
    assert empty.num_qubits == 0 and len(empty) == 0


def test_circuit_qasm_methods_and_atomic_bytes(tmp_path):
    from quartz.io_utils import atomic_write_bytes

    c = Circuit(2).h(0).cx(0, 1).rz("pi/8", 1)
    assert Circuit.from_qasm(c.to_qasm()) == c
    path = tmp_path / "c.qasm"
    path.write_text(c.to_qasm())
    assert Circuit.from_qasm(str(path)) == c and Circuit.from_qasm(str(path)).name == "c"
    atomic_write_bytes(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    with pytest.raises(QuartzError, match="cannot write"):
        atomic_write_bytes(tmp_path / "missing" / "b.bin", b"")


def test_atomic_write_gives_umask_permissions(tmp_path):
    """Regression: files came out 0600 (mkstemp's mode) instead of following the umask."""
    import os
    import stat

    from quartz.io_utils import atomic_write_text

    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "out.qasm", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "out.qasm").st_mode) == 0o644
