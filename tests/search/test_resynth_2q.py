"""Two-qubit block resynthesis (quartz.search.resynth_2q) and optimize(exact=False)."""
from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

import quartz
from quartz import Circuit
from quartz.errors import GateSetError, QuartzError
from quartz.gatesets import convert, get_gate_set
from quartz.search import resynth_2q
from quartz.search.costs import get_cost
from quartz.search.resynth_2q import (ResynthStats, collect_blocks, resynthesize,
                                      search_and_resynthesize, unsupported)

pytest.importorskip("qiskit")

GATE_SETS = ("nam", "ibm", "ibm_modern", "ibm_heron", "rigetti", "ionq")


def same(a: Circuit, b: Circuit, atol: float = 1e-9) -> bool:
    """Equal unitaries, global phase included."""
    return bool(np.max(np.abs(a.unitary() - b.unitary())) <= atol)


def random_circuit(n: int, gates: int, seed: int) -> Circuit:
    """h, x, rz (generic and pi/4 angles), sx and cx in both directions, a global phase."""
    rng = np.random.default_rng(seed)
    c = Circuit(n)
    for _ in range(gates):
        r = rng.random()
        q = int(rng.integers(n))
        if r < 0.3:
            a, b = (int(x) for x in rng.choice(n, 2, replace=False))
            c.cx(a, b)
        elif r < 0.45:
            c.h(q)
        elif r < 0.5:
            c.x(q)
        elif r < 0.55:
            c.sx(q)
        elif r < 0.75:
            c.rz(float(rng.uniform(-math.pi, math.pi)), q)
        else:
            c.rz(math.pi / 4 * int(rng.integers(1, 8)), q)
    c.global_phase = float(rng.uniform(-3, 3))
    return c


def one_cx_core() -> Circuit:
    """Three cx with one-qubit gates between them whose unitary needs only one cx."""
    return Circuit(2).cx(0, 1).h(0).cx(0, 1).rz(math.pi, 0).h(1).cx(1, 0)


def generic_local(c: Circuit, seed: int) -> Circuit:
    rng = np.random.default_rng(seed)
    for q in (0, 1):
        a, b, d = rng.uniform(-3, 3, size=3)
        c.rz(float(a), q).h(q).rz(float(b), q).h(q).rz(float(d), q)
    return c


def test_module_doctest():
    result = doctest.testmod(resynth_2q, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("gate_set", GATE_SETS)
def test_random_circuits_keep_the_unitary_and_never_grow(gate_set):
    cost = get_cost("gates")
    rewritten = 0
    for seed in range(6):
        c = convert(random_circuit(2 + seed % 2, 40, seed), gate_set)
        stats = ResynthStats()
        out = resynthesize(c, gate_set, stats=stats)
        assert same(out, c), (gate_set, seed)
        assert cost.search_value(out) <= cost.search_value(c)
        assert not {g.name for g in out} - set(get_gate_set(gate_set).gates)
        assert stats.saved == cost.search_value(c) - cost.search_value(out)
        rewritten += stats.rewritten
    if gate_set != "nam":  # generic one-qubit runs cost 5 gates in nam: rewrites are rare there
        assert rewritten > 0


def test_a_three_cx_block_equal_to_one_cx_up_to_locals():
    core = one_cx_core()
    ibm = convert(core, "ibm")
    out = resynthesize(ibm, "ibm")
    assert out.cx_count == 1 and len(out) < len(ibm) and same(out, ibm)
    # In nam a generic one-qubit unitary costs 5 gates; with generic gates around the core
    # the whole 26-gate block still becomes one cx and four local unitaries.
    c = generic_local(Circuit(2), 1) + core
    c = generic_local(c, 2)
    out = resynthesize(c, "nam")
    assert c.cx_count == 3 and out.cx_count == 1 and len(out) < len(c) and same(out, c)


def test_a_swap_and_one_more_cx_become_two():
    c = convert(Circuit(2).cx(0, 1).cx(1, 0).cx(0, 1).cx(1, 0), "rigetti")
    out = resynthesize(c, "rigetti")
    assert (c.two_qubit_count, out.two_qubit_count) == (4, 2) and same(out, c)
    # rx keeps Rigetti's native angles (multiples of pi/2).
    fractions = [g.params[0].pi_fraction for g in out if g.name == "rx"]
    assert fractions and all(f is not None and 2 * f[0] % f[1] == 0 for f in fractions)


def test_blocks_are_convex_and_break_at_three_qubit_gates():
    c = Circuit(3).h(0).cx(0, 1).rz(0.3, 1).cx(0, 1).ccz(0, 1, 2).x(2).cx(1, 2).h(1).cx(0, 1)
    # The h joins the first block, the ccz belongs to none, x(2) joins the (1, 2) block, and
    # the last cx closes that block: its h(1) cannot move past the cx.
    assert [(b.qubits, b.gates) for b in collect_blocks(c)] == [
        ((0, 1), [0, 1, 2, 3]), ((1, 2), [5, 6, 7]), ((0, 1), [8])]


def test_global_phase_is_kept_exactly_where_it_can_be():
    c = convert(one_cx_core(), "ibm")
    c.global_phase = 0.7
    out = resynthesize(c, "ibm")
    assert same(out, c, atol=1e-12)
    assert abs(np.linalg.norm(out.unitary() - c.unitary(), 2)) <= 1e-10


def test_candidates_off_by_more_than_the_tolerance_are_rejected():
    c = convert(one_cx_core(), "ibm")
    stats = ResynthStats()
    out = resynthesize(c, "ibm", tolerance=1e-300, stats=stats)
    assert out == c and stats.rewritten == 0 and stats.rejected > 0


def test_clifford_t_is_not_resynthesized(monkeypatch):
    assert "no continuous rotation" in unsupported("clifford_t")
    assert unsupported("nam") is None and unsupported("ionq") is None
    with pytest.raises(QuartzError, match="cannot resynthesize blocks: gate set 'clifford_t'"):
        resynthesize(Circuit(2).h(0).cx(0, 1), "clifford_t")
    c = Circuit(2).h(0).t(0).cx(0, 1).h(0).h(0)
    report: dict = {}
    out = quartz.optimize(c, "clifford_t", timeout=1, exact=False, report=report, seed=0)
    assert same(out, c) and len(out) < len(c)
    assert report["search"]["resynth"]["skipped"].startswith("gate set 'clifford_t'")
    assert report["check"]["proof"] is True and report["check"]["numeric"] is False


def test_bad_input_is_refused_with_a_clear_message():
    with pytest.raises(QuartzError, match="resynthesize needs a quartz.Circuit, got str"):
        resynthesize("h q[0];", "nam")
    sym = Circuit(1)
    sym.append("rz", [0], [quartz.Param.symbol(0)])
    with pytest.raises(QuartzError, match="symbolic angles"):
        resynthesize(sym, "nam")
    with pytest.raises(QuartzError, match="tolerance must be a number"):
        resynthesize(Circuit(1), "nam", tolerance=0.5)
    with pytest.raises(GateSetError, match="unknown gate set 'namm'"):
        resynthesize(Circuit(1), "namm")
    with pytest.raises(QuartzError, match="no cx, cz or rxx"):
        resynthesize(Circuit(1), "h,rz")
    with pytest.raises(QuartzError, match="exact=False .* needs method='search'"):
        quartz.optimize(Circuit(1), method="rl", exact=False)


def test_exact_true_never_produces_inexact_angles():
    c = Circuit(3)
    for q in range(3):
        c.h(q).t(q)
    c.cx(0, 1).rz(math.pi / 4, 1).cx(1, 2).cx(0, 1).h(0).cx(0, 1).rz(math.pi, 0).h(1).cx(1, 0)
    for gate_set in ("nam", "ibm"):
        report: dict = {}
        out = quartz.optimize(c, gate_set, timeout=1, seed=0, report=report)
        assert same(out, c)
        assert all(p.is_exact for g in out for p in g.params) and out.global_phase.is_exact
        assert report["check"]["proof"] and not report["check"]["numeric"]
        assert "resynth" not in report["search"]


def amplitude_estimation(eval_qubits: int) -> Circuit:
    """MQT-Bench-style amplitude estimation (Bernoulli A, p = 0.2) in {h, x, rz, cx}."""
    from qiskit import QuantumCircuit, transpile
    from qiskit.synthesis import synth_qft_full

    m = eval_qubits
    theta = 2 * math.asin(math.sqrt(0.2))
    qc = QuantumCircuit(m + 1)
    qc.ry(theta, m)
    qc.h(range(m))
    for j in range(m):
        qc.cry(2 * 2**j * theta, j, m)
    qc.compose(synth_qft_full(m, do_swaps=False, inverse=True).reverse_bits(), range(m),
               inplace=True)
    return Circuit.from_qiskit(transpile(qc, basis_gates=["h", "x", "rz", "cx"],
                                         optimization_level=0))


def test_exact_false_reduces_a_generic_angle_circuit():
    c = convert(amplitude_estimation(3), "ibm")
    report: dict = {}
    out = quartz.optimize(c, "ibm", timeout=4, exact=False, seed=1, report=report)
    assert same(out, c) and len(out) < len(c)
    info = report["search"]["resynth"]
    assert info["rounds"] >= 1 and info["blocks"] > 0
    chk = report["check"]
    assert chk["ok"] is True
    if info["numeric"]:  # a resynthesized block survived: evidence, not proof
        assert chk["numeric"] is True and chk["proof"] is False
        assert "not an exact proof" in chk["detail"]
        assert "evidence, not a proof" in quartz.check.describe(chk)
    # Without rules only resynthesis changes the circuit: the check is then always numeric.
    report = {}
    out = quartz.optimize(c, "ibm", ecc_set=[], preprocess=False, timeout=1, exact=False,
                          report=report)
    assert same(out, c) and len(out) < len(c) and report["search"]["resynth"]["numeric"]
    chk = report["check"]
    assert chk["ok"] is True and chk["numeric"] is True and chk["proof"] is False
    assert "evidence, not a proof" in quartz.check.describe(chk)
    assert quartz.optimize(c, "ibm", ecc_set=[], preprocess=False, timeout=0, exact=False) == c


def test_search_and_resynthesize_rewrites_between_searches():
    # No rules at all: only resynthesis can lower the cost.
    c = convert(generic_local(generic_local(Circuit(2), 3) + one_cx_core(), 4), "ibm")
    found = search_and_resynthesize(c, [], "ibm", timeout=1.5, seed=0, progress=False,
                                    threads=1, patience=None)
    assert same(found.circuit, c) and found.circuit.cx_count == 1
    assert found.resynth["rewritten"] >= 1 and found.resynth["numeric"] is True
    assert found.final_cost < found.initial_cost == len(c)
    assert found.history and found.history[-1][1] == found.final_cost


def test_cli_inexact(tmp_path, capsys):
    from quartz.cli import main

    c = convert(generic_local(Circuit(2), 5) + one_cx_core(), "ibm")
    src, dst = tmp_path / "in.qasm", tmp_path / "out.qasm"
    quartz.dump(c, str(src))
    assert main(["optimize", str(src), "-o", str(dst), "--gateset", "ibm", "--timeout", "2",
                 "--seed", "0", "--inexact", "--no-progress"]) == 0
    out = quartz.load(str(dst))
    assert same(out, c, atol=1e-8) and len(out) < len(c)
    assert "check: equivalent" in capsys.readouterr().err
