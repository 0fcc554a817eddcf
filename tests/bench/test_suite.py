"""Suites: folders of QASM files (gate set inferred) and circuit families."""
from __future__ import annotations

import pytest

from quartz.bench.suite import load_suite
from quartz.errors import QuartzError


@pytest.mark.parametrize("folder, gate_set, count", [
    ("nam", "nam", 34), ("nam-ccz", "nam", 38), ("clifford-t", "clifford_t", 28),
    ("rigetti", "rigetti", 26)])
def test_shared_suites_load_with_their_gate_set(benchmarks_dir, folder, gate_set, count):
    s = load_suite(str(benchmarks_dir / folder))
    assert (s.name, s.gate_set, len(s.circuits)) == (folder, gate_set, count)
    sizes = [len(c) for _, c in s.circuits]
    assert sizes == sorted(sizes)  # smallest first
    assert dict(s.circuits)["tof_3"].num_qubits == 5


def test_max_gates_filters_a_folder(benchmarks_dir):
    s = load_suite(str(benchmarks_dir / "nam"), max_gates=60)
    assert [n for n, _ in s.circuits] == ["tof_3", "barenco_tof_3"]


def test_gate_set_inferred_from_gates(tmp_path, benchmarks_dir):
    (tmp_path / "a.qasm").write_text((benchmarks_dir / "rigetti" / "tof_3.qasm").read_text())
    assert load_suite(str(tmp_path)).gate_set == "rigetti"
    assert load_suite(str(tmp_path), gate_set="nam").gate_set == "nam"


def test_family_with_sizes_and_gate_set():
    s = load_suite("barenco_tof:3,4", gate_set="rigetti")
    assert s.gate_set == "rigetti" and [n for n, _ in s.circuits] == ["barenco_tof_3",
                                                                      "barenco_tof_4"]
    assert {g.name for _, c in s.circuits for g in c} <= {"rx", "rz", "cz"}
    assert [n for n, _ in load_suite("qft", sizes="4").circuits] == ["qft_4"]


@pytest.mark.parametrize("spec, message", [
    ("no_such_family", "neither a folder nor a circuit family; families: tof"),
    ("./missing/dir", "not a folder of QASM files (no such folder)"),
])
def test_bad_suite_names_are_clear(spec, message):
    with pytest.raises(QuartzError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_suite(spec)


def test_empty_folder_and_sizes_on_folder(tmp_path, benchmarks_dir):
    with pytest.raises(QuartzError, match="no .qasm files"):
        load_suite(str(tmp_path))
    with pytest.raises(QuartzError, match="--sizes applies to circuit families"):
        load_suite(str(benchmarks_dir / "nam"), sizes="3")
