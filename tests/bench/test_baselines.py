"""Baselines: Qiskit level 3 and pytket FullPeepholeOptimise, in each gate set, checked."""
from __future__ import annotations

import builtins

import pytest

import quartz
from quartz.bench.baselines import (available_baselines, check_baselines, from_tket, run_baseline,
                                    to_tket)
from quartz.check import check_equivalence
from quartz.errors import QuartzError
from quartz.gatesets import get_gate_set


def _every_gate() -> quartz.Circuit:
    c = quartz.Circuit(3)
    c.h(0).x(1).y(2).z(0).s(1).sdg(2).t(0).tdg(1).sx(2).sxdg(0).rx(0.3, 1).ry(0.4, 2)
    c.rz(0.5, 0).p(0.6, 1).u1(0.7, 2).u2(0.1, 0.2, 0).u3(0.3, 0.4, 0.5, 1).cx(0, 1).cy(1, 2)
    c.cz(0, 2).ch(1, 0).cp(0.8, 2, 1).swap(0, 2).rxx(0.9, 0, 1).ryy(1.1, 1, 2).rzz(1.2, 0, 2)
    c.ccx(0, 1, 2).ccz(2, 0, 1)
    c.global_phase = 0.25
    return c


def test_tket_conversion_round_trip_keeps_unitary_and_phase():
    c = _every_gate()
    assert check_equivalence(c, from_tket(to_tket(c))).ok


@pytest.mark.parametrize("baseline", ["qiskit", "tket"])
@pytest.mark.parametrize("gate_set", ["nam", "ibm", "ibm_modern", "rigetti", "ionq"])
def test_baseline_output_is_equivalent_and_in_gate_set(baseline, gate_set):
    # The swap gate checks that Qiskit's elided swaps come back as explicit gates.
    c = _every_gate()
    out = run_baseline(baseline, c, gate_set)
    assert {g.name for g in out} <= set(get_gate_set(gate_set).gates)
    assert check_equivalence(c, out).ok


def test_baselines_reduce_a_benchmark(benchmarks_dir):
    c = quartz.load(benchmarks_dir / "nam" / "tof_3.qasm")
    for b in ("qiskit", "tket"):
        out = run_baseline(b, c, "nam")
        assert len(out) == 43 and out.cx_count == 18  # as in the peer-baseline measurements


def test_tket_cannot_target_clifford_t_clearly(benchmarks_dir):
    c = quartz.load(benchmarks_dir / "clifford-t" / "tof_3.qasm")
    with pytest.raises(QuartzError, match="pytket cannot rebase to gate set 'clifford_t'"):
        run_baseline("tket", c, "clifford_t")
    assert run_baseline("qiskit", c, "clifford_t").t_count <= c.t_count


def test_unknown_and_missing_baselines(monkeypatch):
    with pytest.raises(QuartzError, match="unknown baseline 'pyzx'; baselines: qiskit, tket"):
        check_baselines(["pyzx"])
    assert available_baselines() == ["qiskit", "tket"]
    real_import = builtins.__import__

    def no_pytket(name, *args, **kwargs):
        if name.split(".")[0] == "pytket":
            raise ImportError("No module named 'pytket'")
        return real_import(name, *args, **kwargs)

    import importlib

    monkeypatch.setattr(importlib, "import_module",
                        lambda name, *a: no_pytket(name) if name.startswith("pytket")
                        else real_import(name))
    with pytest.raises(QuartzError, match=r"baseline 'tket' needs the 'pytket' package: pip "
                                          r"install 'quartz-superopt\[bench\]'"):
        check_baselines(["tket"])
