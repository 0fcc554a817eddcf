"""GateSet: built-in sets, aliases, custom sets, validation and check()."""
from __future__ import annotations

import pytest

from quartz import Circuit, GateSetError
from quartz.gatesets import GATE_SETS, GateSet, get_gate_set


def test_builtin_sets():
    assert get_gate_set("nam").gates == ("h", "x", "rz", "cx")
    assert set(get_gate_set("clifford_t").gates) == {"h", "s", "sdg", "t", "tdg", "x", "cx"}
    assert set(get_gate_set("ibm").gates) == {"u1", "u2", "u3", "cx"}
    assert set(get_gate_set("ibm_modern").gates) == {"rz", "sx", "x", "cx"}
    assert set(get_gate_set("rigetti").gates) == {"rx", "rz", "cz"}
    assert set(get_gate_set("ionq").gates) == {"rx", "ry", "rz", "rxx"}
    assert sorted(GATE_SETS) == ["clifford_t", "ibm", "ibm_heron", "ibm_modern", "ionq", "nam",
                                 "rigetti"]
    assert set(get_gate_set("heron").gates) == {"rz", "sx", "x", "cz"}


def test_aliases_and_custom_sets():
    assert get_gate_set("Clifford+T") is GATE_SETS["clifford_t"]
    assert get_gate_set(" NAM ") is GATE_SETS["nam"]
    assert get_gate_set("ibm-modern") is GATE_SETS["ibm_modern"]
    custom = get_gate_set("h, cx ,t")
    assert custom.name == "custom(h,cx,t)" and custom.gates == ("h", "cx", "t")
    assert get_gate_set(["rz", "cz"]).gates == ("rz", "cz")
    assert get_gate_set("h").gates == ("h",)
    assert get_gate_set(custom) is custom
    assert "cx" in custom and "rz" not in custom


def test_invalid_sets():
    with pytest.raises(GateSetError, match="unknown gate set 'nope'"):
        get_gate_set("nope")
    with pytest.raises(GateSetError, match="unknown gate 'foo'"):
        get_gate_set("h,foo")
    with pytest.raises(GateSetError, match="twice"):
        GateSet("dup", ("h", "h"))
    with pytest.raises(GateSetError, match="at least one gate"):
        GateSet("empty", ())


def test_check_names_the_first_outside_gate():
    nam = get_gate_set("nam")
    nam.check(Circuit(2).h(0).cx(0, 1).rz(0.1, 1))
    with pytest.raises(GateSetError, match=r"gate 't' \(gate 1\) is not in gate set 'nam'"):
        nam.check(Circuit(1).h(0).t(0))
