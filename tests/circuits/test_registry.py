"""circuits.FAMILIES and circuits.family(): every family builds in Nam with its display name."""
import pytest

from quartz import circuits
from quartz.circuits._build import Builder, cancel_h_pairs, to_gate_set
from quartz import Circuit
from quartz.errors import GateSetError, QuartzError


def test_every_family_builds_with_default_sizes():
    for name in circuits.FAMILIES:
        out = list(circuits.family(name, gate_set="nam"))
        assert len(out) == len(circuits.DEFAULT_SIZES[name])
        for label, c in out:
            assert label == c.name and len(c) > 0
            assert set(c.count_ops()) <= {"h", "x", "rz", "cx"}


def test_family_names_and_sizes():
    assert [n for n, _ in circuits.family("tof", "3-5")] == ["tof_3", "tof_4", "tof_5"]
    assert [n for n, _ in circuits.family("gf2_mult", [4])] == ["gf2^4_mult"]
    assert [n for n, _ in circuits.family("Barenco-Tof", 3)] == ["barenco_tof_3"]
    assert circuits.parse_sizes("3,5-6", "tof") == [3, 5, 6]
    with pytest.raises(QuartzError, match="unknown circuit family 'nope'"):
        list(circuits.family("nope"))
    with pytest.raises(QuartzError, match="bad sizes"):
        circuits.parse_sizes("a-b", "tof")


def test_builder_and_h_cancellation():
    gates = [("h", (0,), ()), ("ccz", (0, 1, 2), ()), ("h", (2,), ()), ("h", (2,), ()),
             ("h", (0,), ())]
    assert cancel_h_pairs(gates) == gates[:2] + gates[4:]
    b = Builder(2)
    b.h(0).h(0).cx(0, 1)
    assert b.circuit().count_ops() == {"cx": 1}
    assert b.circuit(cancel_h=False).count_ops() == {"h": 2, "cx": 1}
    with pytest.raises(QuartzError, match="at least one qubit"):
        Builder(0)


def test_to_gate_set_errors_and_native():
    c = Circuit(1).t(0)
    assert to_gate_set(c, "ccz") is c
    with pytest.raises(GateSetError):
        to_gate_set(Circuit(1).rz(0.3, 0), "clifford_t")


@pytest.mark.parametrize("gate_set", ["ibm_modern", "ibm", "rigetti", "ionq", "clifford_t"])
def test_families_in_other_gate_sets_keep_the_unitary(gate_set):
    from quartz.gatesets import get_gate_set
    import numpy as np

    allowed = set(get_gate_set(gate_set).gates)
    for name in ("tof", "barenco_tof", "vbe_adder", "cuccaro_adder", "gf2_mult", "grover"):
        n = {"vbe_adder": 1, "cuccaro_adder": 1, "gf2_mult": 2, "grover": 3}.get(name, 3)
        c = circuits.FAMILIES[name](n, gate_set=gate_set)
        ref = circuits.FAMILIES[name](n, gate_set="ccz")
        assert set(c.count_ops()) <= allowed, (name, c.count_ops())
        assert np.allclose(c.unitary(), ref.unitary(), atol=1e-9), name
    if gate_set != "clifford_t":
        assert np.allclose(circuits.qft(3, gate_set=gate_set).unitary(),
                           circuits.qft(3, gate_set="ccz").unitary(), atol=1e-9)
