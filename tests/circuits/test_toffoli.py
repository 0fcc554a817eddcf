"""tof_n and barenco_tof_n implement target ^= AND(controls), with the benchmark gate counts."""
import itertools

import numpy as np
import pytest

from _circuits_ref import BENCH, assert_maps, file_gate_count
from quartz.circuits.toffoli import barenco_tof_n, tof_n
from quartz.errors import QuartzError


def _expected(x: int, n: int) -> int:
    controls = all((x >> q) & 1 for q in range(n))
    return x ^ (1 << (2 * n - 2)) if controls else x


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_tof_n_on_clean_ancillas(n):
    c = tof_n(n)
    assert c.num_qubits == 2 * n - 1 and set(c.count_ops()) <= {"h", "x", "rz", "cx"}
    for ctl, tgt in itertools.product(range(1 << n), range(2)):
        x = ctl | (tgt << (2 * n - 2))
        assert_maps(c, x, _expected(x, n))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_barenco_tof_n_on_every_basis_state(n):
    c = barenco_tof_n(n)
    u = c.unitary()
    perm = np.zeros_like(u)
    for x in range(2 ** c.num_qubits):
        perm[_expected(x, n), x] = 1
    assert np.allclose(u, perm, atol=1e-9)


@pytest.mark.parametrize("gate_set", ["ccz", "nam", "clifford_t"])
def test_gate_sets_give_the_same_unitary(gate_set):
    ref = tof_n(3, gate_set="ccz").unitary()
    assert np.allclose(tof_n(3, gate_set=gate_set).unitary(), ref, atol=1e-9)
    assert np.allclose(barenco_tof_n(3, gate_set=gate_set).unitary(),
                       barenco_tof_n(3, gate_set="ccz").unitary(), atol=1e-9)


def test_clifford_t_uses_only_its_gates():
    assert set(tof_n(4, gate_set="clifford_t").count_ops()) <= {"h", "s", "sdg", "t", "tdg", "x", "cx"}


@pytest.mark.parametrize("n", [3, 4, 5, 10])
def test_counts_match_the_benchmark_files(n):
    assert len(tof_n(n)) == file_gate_count(BENCH / "nam" / f"tof_{n}.qasm")
    assert len(barenco_tof_n(n)) == file_gate_count(BENCH / "nam" / f"barenco_tof_{n}.qasm")
    for gen, stem in ((tof_n, "tof"), (barenco_tof_n, "barenco_tof")):
        ours = gen(n, gate_set="ccz").count_ops()
        import quartz

        theirs = quartz.load(BENCH / "nam-ccz" / f"{stem}_{n}.qasm").count_ops()
        assert ours == theirs


def test_tof_3_names_and_bad_sizes():
    assert tof_n(3).name == "tof_3" and barenco_tof_n(4).name == "barenco_tof_4"
    with pytest.raises(QuartzError, match="n >= 2"):
        tof_n(1)
    with pytest.raises(QuartzError, match="n >= 3"):
        barenco_tof_n(2)
