"""Every gate's matrix equals qiskit's Operator of the same gate, global phase included."""
from __future__ import annotations

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.circuit.library import get_standard_gate_name_mapping
from qiskit.quantum_info import Operator

from quartz import Circuit, QuartzError, _core
from quartz.circuit import GATE_NAMES

MAPPING = get_standard_gate_name_mapping()


def _qiskit_gate(name, params):
    return type(MAPPING[name])(*params)


def test_gate_names_and_info():
    assert set(GATE_NAMES) == {"h", "x", "y", "z", "s", "sdg", "t", "tdg", "sx", "sxdg", "rx",
                               "ry", "rz", "p", "u1", "u2", "u3", "cx", "cy", "cz", "ch", "cp",
                               "swap", "rxx", "ryy", "rzz", "ccx", "ccz"}
    for name in GATE_NAMES:
        nq, npar, symmetric, diagonal = _core.gate_info(name)
        gate = MAPPING[name]
        assert (nq, npar) == (gate.num_qubits, len(gate.params)), name
        m = _core.gate_matrix(name, [0.37] * npar)
        assert diagonal == bool(np.allclose(m, np.diag(np.diag(m))))
        if symmetric:  # invariant under reversing the qubits
            rev = Operator(_qiskit_gate(name, [0.37] * npar)).reverse_qargs().data
            assert np.allclose(rev, m)


@pytest.mark.parametrize("name", GATE_NAMES)
def test_gate_matrix_equals_qiskit(name):
    npar = _core.gate_info(name)[1]
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    angle_sets = [[0.0] * npar, [np.pi / 4] * npar] + [list(rng.uniform(-7, 7, npar)) for _ in range(4)]
    for params in angle_sets:
        ours = _core.gate_matrix(name, [float(p) for p in params])
        ref = Operator(_qiskit_gate(name, params)).data
        assert np.allclose(ours, ref, atol=1e-12), (name, params)
        assert np.allclose(ours @ ours.conj().T, np.eye(len(ours)), atol=1e-12)


@pytest.mark.parametrize("name", GATE_NAMES)
def test_circuit_unitary_equals_qiskit_on_permuted_qubits(name):
    nq, npar, _, _ = _core.gate_info(name)
    rng = np.random.default_rng(5)
    for _ in range(3):
        qubits = [int(q) for q in rng.permutation(4)[:nq]]
        params = [float(x) for x in rng.uniform(-4, 4, npar)]
        c = Circuit(4).h(0).append(name, qubits, params)
        c.global_phase = 0.25
        qc = QuantumCircuit(4, global_phase=0.25)
        qc.h(0)
        qc.append(_qiskit_gate(name, params), qubits)
        assert np.allclose(c.unitary(), Operator(qc).data, atol=1e-12)
        assert np.allclose(Operator(c.to_qiskit()).data, Operator(qc).data, atol=1e-12)


def test_gate_matrix_errors():
    with pytest.raises(ValueError, match="unknown gate 'foo'"):
        _core.gate_matrix("foo", [])
    with pytest.raises(ValueError, match="takes 1 parameter"):
        _core.gate_matrix("rz", [])


def test_apply_matches_unitary():
    rng = np.random.default_rng(3)
    c = Circuit(3).h(0).ccx(0, 1, 2).ryy(0.4, 2, 0).cp(1.1, 1, 2).u3(0.1, 0.2, 0.3, 1)
    c.global_phase = 0.9
    state = rng.normal(size=8) + 1j * rng.normal(size=8)
    assert np.allclose(c.apply(state), c.unitary() @ state)
    assert np.allclose(c.apply(state, include_global_phase=False),
                       c.unitary(include_global_phase=False) @ state)
    with pytest.raises(QuartzError, match="wrong dimension"):
        c.apply(np.ones(4))


def test_unitary_qubit_limit():
    with pytest.raises(QuartzError, match="too many qubits"):
        Circuit(13).unitary()
