"""The native simulator the randomized tests rely on agrees with Qiskit's Operator."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from qiskit.quantum_info import Operator

from tests.randomized.strategies import GATE_SETS, circuits
from tests.randomized.test_preprocess_random import _settings


@pytest.mark.parametrize("gate_set", GATE_SETS)
def test_native_unitary_matches_qiskit_operator(gate_set):
    @_settings(10)
    @given(circuits(gate_set, extra=("ccz", "ccx") if gate_set == "nam" else ()))
    def run(c):
        assert np.allclose(c.unitary(), Operator(c.to_qiskit()).data, atol=1e-9, rtol=0)

    run()
