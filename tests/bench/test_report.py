"""Report files: CSV rows, Markdown table and summary, PNG plots, atomic writes."""
from __future__ import annotations

import csv

import quartz
from quartz.bench.plots import plot_cost_over_time, plot_reduction
from quartz.bench.report import CSV_COLUMNS, markdown_text, reduction, write_report
from quartz.bench.runner import CircuitResult, Outcome, bench_circuit

PNG = b"\x89PNG\r\n\x1a\n"


def _results():
    c = quartz.load("OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[2];\nh q[0];\nh q[0];\n"
                    "cx q[0],q[1];\nrz(pi/4) q[1];\nrz(pi/4) q[1];\n")
    c.name = "toy"
    return [bench_circuit("toy", c, "nam", {}, ["qiskit", "tket"], 1.0)]


def test_reduction_percent():
    assert reduction(200, 150) == 25.0 and reduction(100, 120) == -20.0
    assert reduction(0, 0) is None and reduction(10, None) is None


def test_write_report_files(tmp_path):
    results = _results()
    written = write_report(results, tmp_path / "rep", title="t", command="quartz bench x")
    assert [p.name for p in written] == ["results.csv", "results.md"]
    rows = list(csv.DictReader(open(tmp_path / "rep" / "results.csv")))
    assert list(rows[0]) == CSV_COLUMNS
    assert [(r["optimizer"], r["orig_gates"], r["equivalence"]) for r in rows] == [
        ("qiskit", "5", "equivalent"), ("tket", "5", "equivalent")]
    assert int(rows[0]["gates"]) < 5
    md = (tmp_path / "rep" / "results.md").read_text()
    assert "Command: `quartz bench x`" in md and "| toy | 2 | 5 |" in md
    assert "all 2 equivalent" in md and "## Summary" in md
    qasm = tmp_path / "rep" / "qasm" / "toy.qiskit.qasm"
    assert quartz.load(qasm).gate_count == int(rows[0]["gates"])
    # No temporary files are left behind by the atomic writes.
    assert not [p for p in (tmp_path / "rep").rglob(".*.tmp")]


def test_markdown_marks_unverified_and_errors():
    r = CircuitResult("c1", 2, 10, 4, 2, [
        Outcome("search", "ours", gates=8, cx=3, t=2, seconds=1.5, equivalence="not_equivalent"),
        Outcome("qiskit", "baseline", status="error", error="boom\ntrace")])
    md = markdown_text([r], title="T", command="cmd")
    assert "| c1 | 2 | 10 | 8 (not_equivalent) | error | 4 → 3 | 2 → 2 | 1.5 | search: not_equivalent |" in md
    assert "- c1 (qiskit): boom" in md


def test_plots_are_png(tmp_path):
    results = _results()
    p = plot_reduction(results, tmp_path / "r.png")
    assert p.read_bytes().startswith(PNG)
    assert plot_cost_over_time(results, tmp_path / "c.png") is None  # no trace: no plot
    results[0].outcomes.append(Outcome("search", "ours", gates=3, trace=[(0.0, 5.0), (0.5, 4.0),
                                                                          (1.0, 3.0)]))
    p = plot_cost_over_time(results, tmp_path / "c.png")
    assert p.read_bytes().startswith(PNG)
