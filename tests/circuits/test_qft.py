"""qft(n) is exactly the DFT matrix in Qiskit's qubit order, global phase included."""
import numpy as np
import pytest

from quartz.circuits.qft import qft
from quartz.errors import QuartzError


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_qft_is_the_dft(n):
    N = 1 << n
    y, x = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
    dft = np.exp(2j * np.pi * x * y / N) / np.sqrt(N)
    assert np.allclose(qft(n).unitary(), dft, atol=1e-9)
    assert np.allclose(qft(n, gate_set="ccz").unitary(), dft, atol=1e-9)


def test_qft_matches_qiskit():
    from qiskit.circuit.library import QFTGate
    from qiskit.quantum_info import Operator

    assert np.allclose(qft(4).unitary(), Operator(QFTGate(4)).data, atol=1e-9)


def test_qft_gates_and_errors():
    c = qft(4)
    assert set(c.count_ops()) <= {"h", "x", "rz", "cx"} and c.name == "qft_4"
    assert qft(3, gate_set="ccz", swaps=False).count_ops() == {"cp": 3, "h": 3}
    with pytest.raises(QuartzError, match="n >= 1"):
        qft(0)
