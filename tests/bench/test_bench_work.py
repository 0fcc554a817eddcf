"""`quartz bench --work`: the search's budget in work units, so a suite gives the same gates
with one job or two, and a run the timeout cut is marked in the report."""
from __future__ import annotations

import argparse
import csv

import pytest

from quartz.bench.report import markdown_text, write_report
from quartz.bench.runner import quartz_method, run_suite
from quartz.bench.suite import load_suite
from quartz.cli import build_parser, main
from quartz.cli.bench_cmd import command_line
from quartz.cli.work_option import work_units
from quartz.errors import QuartzError


def _gates(results):
    return [(r.circuit, r.outcome("search").gates, r.outcome("search").qasm) for r in results]


def test_one_job_and_two_give_the_same_circuits():
    suite = load_suite("tof:3,4,5")
    one = run_suite(suite.circuits, "nam", methods=["search"], timeout=120, progress=False,
                    work=2_000_000)
    two = run_suite(suite.circuits, "nam", methods=["search"], timeout=120, progress=False,
                    work=2_000_000, jobs=2)
    assert _gates(one) == _gates(two)
    assert all(r.outcome("search").verified and not r.outcome("search").cut for r in one + two)
    assert all(r.outcome("search").gates < r.gates for r in one)


def test_work_defaults_each_search_to_one_thread(monkeypatch):
    import quartz.api as api

    seen = []
    real = api.optimize

    def spy(*a, **k):
        seen.append((k.get("threads"), k.get("work"), k.get("patience", "auto")))
        return real(*a, **k)

    monkeypatch.setattr(api, "optimize", spy)
    suite = load_suite("tof:3")
    run_suite(suite.circuits, "nam", methods=["search"], timeout=60, progress=False,
              work=500_000)
    run_suite(suite.circuits, "nam", methods=["search"], timeout=60, progress=False,
              work=500_000, threads=2)
    assert seen == [(1, 500_000, None), (2, 500_000, None)]


def test_a_cut_run_is_marked_in_the_csv_and_the_markdown(tmp_path):
    suite = load_suite("tof:3")
    (r,) = run_suite(suite.circuits, "nam", methods=["search"], timeout=1.0, progress=False,
                     work=10**12)
    o = r.outcome("search")
    assert o.cut and o.verified
    write_report([r], tmp_path, title="t", command="c", qasm=False)
    (row,) = csv.DictReader(open(tmp_path / "results.csv"))
    assert row["cut"] == "yes"
    md = markdown_text([r], title="t", command="c")
    assert f"{o.gates} (cut)" in md and "before its --work was done" in md and "tof_3 (search)" in md


def test_work_is_for_the_search_only_and_checked():
    with pytest.raises(QuartzError, match="--work applies to the search method only"):
        quartz_method("rl", work=10)
    suite = load_suite("tof:3")
    with pytest.raises(QuartzError, match="--work applies to the search method only"):
        run_suite(suite.circuits, "nam", methods=["search", "rl"], progress=False, work=10)
    for bad in (-1, 2.5, True):
        with pytest.raises(QuartzError, match="--work must be a non-negative number"):
            run_suite(suite.circuits, "nam", methods=["search"], progress=False, work=bad)


def test_cli_work_values(tmp_path, capsys):
    assert work_units("4e7") == 40_000_000 and work_units("123") == 123
    for bad in ("-5", "1.5", "lots", "1e30", "nan", "inf"):
        with pytest.raises(argparse.ArgumentTypeError):
            work_units(bad)
    rc = main(["bench", "tof:3", "--methods", "rl", "--work", "1e6", "--baselines", "none",
               "-o", str(tmp_path / "r"), "--no-progress"])
    assert rc != 0 and "--work applies to the search method only" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_the_report_command_keeps_threads_and_work():
    # --threads was left out of the command a report names, so it did not reproduce the run
    args = build_parser().parse_args(["bench", "tof", "--threads", "1", "--work", "4e7"])
    assert command_line(args) == "quartz bench tof --timeout 60 --threads 1 --work 40000000"


def test_cli_bench_with_work_writes_the_budget_in_the_notes(tmp_path):
    out = tmp_path / "rep"
    rc = main(["bench", "tof:3", "--work", "1e6", "--timeout", "60", "--baselines", "none",
               "--no-plots", "-o", str(out), "--no-progress"])
    assert rc == 0
    md = (out / "results.md").read_text()
    assert "search budget 1,000,000 work units per thread (1 thread(s))" in md
    assert "--work 1000000" in md
