"""convert(circuit, gate_set): every gate type into every built-in set, exact up to nothing."""
from __future__ import annotations

import numpy as np
import pytest

from quartz import Circuit, GateSetError, Param, load, to_param
from quartz._core import gate_info
from quartz.circuit import GATE_NAMES
from quartz.gatesets import GATE_SETS, convert, convertible, get_gate_set

SETS = sorted(GATE_SETS)


def _one_gate(name, params, n=3, order=(0, 1, 2)):
    nq = gate_info(name)[0]
    return Circuit(n).append(name, list(order[:nq]), params)


def _check(circ, gs_name):
    out = convert(circ, gs_name)
    gs = get_gate_set(gs_name)
    assert all(g.name in gs for g in out), out.count_ops()
    assert np.allclose(out.unitary(), circ.unitary(), atol=1e-9)
    return out


@pytest.mark.parametrize("gs_name", SETS)
@pytest.mark.parametrize("name", GATE_NAMES)
def test_every_gate_into_every_set(name, gs_name):
    npar = gate_info(name)[1]
    rng = np.random.default_rng(abs(hash((name, gs_name))) % 2**32)
    den = 2 if (name == "cp" and gs_name == "clifford_t") else 4  # cp(l) needs p(l/2)
    trials = [[Param.pi(int(k), den) for k in rng.integers(-9, 10, npar)] for _ in range(3)]
    if gs_name != "clifford_t":
        trials += [[to_param(float(x)) for x in rng.uniform(-7, 7, npar)] for _ in range(3)]
    for params in trials:
        for order in ((0, 1, 2), (2, 0, 1)):
            c = _one_gate(name, params, order=order)
            c.global_phase = Param.pi(1, 3)
            _check(c, gs_name)


@pytest.mark.parametrize("gs_name", SETS)
def test_mixed_circuit_into_every_set(gs_name):
    c = Circuit(4)
    rng = np.random.default_rng(7)
    for _ in range(40):
        name = GATE_NAMES[rng.integers(len(GATE_NAMES))]
        nq, npar, _, _ = gate_info(name)
        c.append(name, [int(q) for q in rng.permutation(4)[:nq]],
                 [Param.pi(int(k), 2 if name == "cp" else 4) for k in rng.integers(-8, 9, npar)])
    out = _check(c, gs_name)
    assert convert(out, gs_name) == out  # already in the set: unchanged


def test_ccz_to_nam_is_the_standard_decomposition():
    out = _check(Circuit(3).ccz(0, 1, 2), "nam")
    assert len(out) == 13 and out.cx_count == 6 and out.count_ops()["rz"] == 7
    assert {abs(p.pi_fraction[0]) for g in out if g.name == "rz" for p in g.params} == {1}
    assert out.global_phase == Param.pi(1, 8)
    assert out.t_count == 7


def test_ccz_to_clifford_t_uses_t_gates_without_phase():
    out = _check(Circuit(3).ccz(2, 0, 1), "clifford_t")
    assert out.count_ops() == {"cx": 6, "t": 4, "tdg": 3}
    assert out.global_phase == Param()


def test_h_to_rigetti_is_rz_rx_rz():
    out = _check(Circuit(1).h(0), "rigetti")
    assert [g.name for g in out] == ["rz", "rx", "rz"]
    assert all(g.params[0] == Param.pi(1, 2) for g in out)
    assert out.global_phase == Param.pi(1, 2)


def test_x_to_rigetti_keeps_phase():
    out = _check(Circuit(1).x(0), "rigetti")
    assert [(g.name, g.params) for g in out] == [("rx", (Param.pi(1, 1),))]
    assert out.global_phase == Param.pi(1, 2)


def test_cx_to_rigetti_and_ionq():
    rig = _check(Circuit(2).cx(1, 0), "rigetti")
    assert rig.count_ops()["cz"] == 1 and rig.two_qubit_count == 1
    ionq = _check(Circuit(2).cx(1, 0), "ionq")
    assert ionq.count_ops()["rxx"] == 1 and len(ionq) == 5
    assert ionq.global_phase == Param.pi(-1, 4)


def test_clifford_t_rejects_other_angles():
    with pytest.raises(GateSetError, match=r"rz\(0.3\) \(gate 1\).*clifford_t.*not a multiple of pi/4"):
        convert(Circuit(1).h(0).rz(0.3, 0), "clifford_t")
    with pytest.raises(GateSetError, match="not a multiple of pi/4"):
        convert(Circuit(2).cp("pi/4", 0, 1), "clifford_t")  # needs pi/8 rotations
    with pytest.raises(GateSetError, match="symbolic"):
        convert(Circuit(1).rz(Param.symbol(0), 0), "clifford_t")
    out = _check(Circuit(1).rz("3*pi/4", 0).rx("-pi/2", 0), "clifford_t")
    assert set(out.count_ops()) <= {"s", "t", "sdg", "tdg", "h"}


def test_symbolic_angles():
    c = Circuit(2).rx(Param.symbol(0), 0).rzz(Param.symbol(1, 2), 0, 1)
    for gs in ("nam", "rigetti", "ionq", "ibm", "ibm_modern"):
        out = convert(c, gs)
        for vals in ([0.3, -1.1], [2.0, 0.7]):
            assert np.allclose(out.unitary(vals), c.unitary(vals), atol=1e-9)
    with pytest.raises(GateSetError, match="cannot be converted exactly"):
        convert(Circuit(2).cp(Param.symbol(0), 0, 1), "nam")  # needs p0/2


def test_custom_and_impossible_sets():
    out = _check(Circuit(2).s(0).cz(0, 1).z(1), "h,cx,t")
    assert set(out.count_ops()) == {"h", "cx", "t"}
    with pytest.raises(GateSetError, match=r"gate cx \(gate 0\) cannot be expressed in gate set 'custom\(h,t\)'"):
        convert(Circuit(2).cx(0, 1), "h,t")
    assert convertible("ccz", "nam") and not convertible("cx", "h,t")
    with pytest.raises(GateSetError, match="unknown gate set"):
        convert(Circuit(1), "nope")


def test_benchmark_ccz_to_nam(benchmarks_dir):
    src = load(benchmarks_dir / "nam-ccz" / "tof_4.qasm")
    out = _check(src, "nam")
    assert out.cx_count == src.cx_count + 6 * src.count_ops()["ccz"]
    rig = _check(load(benchmarks_dir / "nam" / "tof_3.qasm"), "rigetti")
    assert rig.count_ops().keys() <= {"rx", "rz", "cz"}


@pytest.mark.parametrize("gs_name", [s for s in SETS if s != "clifford_t"])
def test_random_float_circuits_into_every_set(gs_name):
    rng = np.random.default_rng(len(gs_name))
    for _ in range(5):
        c = Circuit(3)
        for _ in range(25):
            name = GATE_NAMES[rng.integers(len(GATE_NAMES))]
            nq, npar, _, _ = gate_info(name)
            c.append(name, [int(q) for q in rng.permutation(3)[:nq]],
                     [float(x) for x in rng.uniform(-7, 7, npar)])
        c.global_phase = float(rng.uniform(-3, 3))
        out = _check(c, gs_name)
        assert -np.pi < float(out.global_phase) <= np.pi
