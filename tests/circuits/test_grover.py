"""grover(n) equals the ideal Grover iteration on the search register; mcx is multi-controlled X."""
import math

import numpy as np
import pytest

from quartz.circuits.grover import grover
from quartz.circuits.mcx import mcx
from quartz.errors import QuartzError


def _ideal(n: int, marked: int, k: int) -> np.ndarray:
    N = 1 << n
    s = np.full(N, 1 / math.sqrt(N))
    oracle = np.eye(N)
    oracle[marked, marked] = -1
    diffusion = np.eye(N) - 2 * np.outer(s, s)
    state = s.astype(complex)
    for _ in range(k):
        state = diffusion @ (oracle @ state)
    return state


@pytest.mark.parametrize("n,marked,k", [(2, 3, 1), (3, 5, 2), (4, 15, 3), (4, 6, 1), (5, 9, 2)])
def test_grover_state(n, marked, k):
    c = grover(n, marked=marked, iterations=k)
    state = np.zeros(2 ** c.num_qubits, dtype=complex)
    state[0] = 1
    out = c.apply(state)
    ideal = _ideal(n, marked, k)
    assert np.allclose(out[: 1 << n], ideal, atol=1e-9)  # ancillas back in |0>, phase exact
    assert np.isclose(np.linalg.norm(out[: 1 << n]), 1)


def test_grover_defaults_find_the_marked_state():
    c = grover(4)
    assert c.num_qubits == 5 and c.name == "grover_4"
    state = np.zeros(32, dtype=complex)
    state[0] = 1
    probs = np.abs(c.apply(state)) ** 2
    assert probs[15] > 0.9


def test_grover_errors():
    with pytest.raises(QuartzError, match="does not fit"):
        grover(3, marked=8)
    with pytest.raises(QuartzError, match="n >= 2"):
        grover(1)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_mcx_is_multi_controlled_x(n):
    u = mcx(n).unitary()
    N = 1 << (n + 1)
    perm = np.zeros((N, N))
    for x in range(N):
        y = x ^ (1 << n) if (x & ((1 << n) - 1)) == (1 << n) - 1 else x
        perm[y, x] = 1
    assert np.allclose(u, perm, atol=1e-9)


def test_mcx_gate_sets_and_errors():
    assert set(mcx(2, gate_set="clifford_t").count_ops()) <= {"h", "t", "tdg", "cx", "s", "sdg", "x"}
    with pytest.raises(QuartzError, match="pi/4"):
        mcx(3, gate_set="clifford_t")
    with pytest.raises(QuartzError, match="n >= 1"):
        mcx(0)
