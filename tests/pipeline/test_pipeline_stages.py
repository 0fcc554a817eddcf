"""The optimizer's pipeline (quartz.pipeline): options checked once, the stage list each call
runs, a new stage placed in the list, the parts (measured circuits) and the import layering."""
from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz import Circuit
from quartz.errors import QuartzError
from quartz.pipeline import PARTITIONED, RL, SEARCH, Clock, Options, State, run_stages, stages_for
from quartz.pipeline.convert import convert
from quartz.pipeline.final_check import final_check
from quartz.pipeline.preprocess import preprocess
from quartz.pipeline.search_stage import search_stage

PKG = Path(quartz.__file__).resolve().parent


def test_options_checked_resolves_and_refuses():
    o = Options.checked(seed=None, threads=None, work=1000)
    assert isinstance(o.seed, int) and o.threads >= 1 and o.work == 1000
    assert o.patience is None  # 'auto' reads the wall clock: off with a work budget
    assert Options.checked(patience=3.0, work=10).patience == 3.0
    assert Options.checked().patience == "auto"
    for kw, msg in [(dict(method="magic"), "unknown method 'magic'"),
                    (dict(timeout=-1), "timeout must be a non-negative number"),
                    (dict(seed=1.5), "seed must be an int or None"),
                    (dict(threads=0), "threads must be a whole number >= 1"),
                    (dict(exact=False, method="rl"), "exact=False (block resynthesis) needs"),
                    (dict(work=10, algorithm="best_first"), "work (a budget in work units) needs"),
                    (dict(work=-3), "work must be a non-negative number of work units"),
                    (dict(check_timeout="x"), "check_timeout must be a non-negative number")]:
        with pytest.raises(QuartzError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            Options.checked(**kw)


def test_clock_keeps_the_check_share_out_of_the_search():
    clock = Clock(10.0)
    assert 0.0 <= clock.elapsed() < 1.0 and 9.0 < clock.left() <= 10.0
    assert 8.0 < clock.search_seconds() <= 9.0  # CHECK_SHARE (0.1) of 10 s kept for the check
    assert Clock(1.0, start=clock.start - 5.0).search_seconds() == 0.0


def test_stages_for_picks_the_pipeline():
    assert stages_for(Options.checked()) is SEARCH
    assert stages_for(Options.checked(method="rl")) is RL
    assert stages_for(Options.checked(workers=2)) is PARTITIONED
    assert [s.__name__ for s in SEARCH] == ["convert", "placement", "preprocess", "toffoli",
                                            "search_stage", "final_check"]
    with pytest.raises(QuartzError, match="workers must be at least 1, got 0"):
        stages_for(Options.checked(workers=0))
    with pytest.raises(QuartzError, match="does not apply to partitioned"):
        stages_for(Options.checked(workers=2, work=100))
    with pytest.raises(QuartzError, match=r"needs method='search'"):
        stages_for(Options.checked(workers=2, method="rl"))


def test_run_stages_hands_one_state_through_and_takes_a_new_stage():
    # A stage is a function of the State: one placed before the search sees the
    # preprocessed start, and the result is still checked against the input.
    c = Circuit(2).h(0).h(0).cx(0, 1).rz(math.pi / 4, 1).rz(math.pi / 4, 1).x(0).x(0)
    seen: list[tuple[int, int]] = []

    def note(state: State) -> None:
        seen.append((len(state.original), len(state.current)))

    report: dict = {}
    state = run_stages(c, "nam", Options.checked(timeout=2, seed=0, threads=1),
                       (convert, preprocess, note, search_stage, final_check), report)
    assert seen == [(len(c), 2)]  # the preprocessor left cx and one rz
    assert state.returned == "optimized" and state.result is not None
    assert [g.name for g in state.result] == ["cx", "rz"]
    assert report["check"]["ok"] and report["check"]["method"] == "unitary"
    assert report["seed"] == 0 and report["search"]["moves"] >= 0
    np.testing.assert_allclose(state.result.unitary(), c.unitary(), atol=1e-9)


def test_optimize_measured_runs_the_pipeline_on_each_unitary_segment():
    from qiskit import QuantumCircuit

    from quartz.pipeline.measured import optimize_measured

    qc = QuantumCircuit(2, 2)
    qc.h(0)
    qc.h(0)
    qc.cx(0, 1)
    qc.measure(0, 0)
    qc.x(0)  # after the measurement on its wire: the second segment
    qc.x(0)
    qc.h(1)  # no boundary on its wire yet: joins the first segment
    qc.measure(1, 1)
    report: dict = {}
    out = optimize_measured(qc, "nam", Options.checked(timeout=4, seed=3, threads=1), report)
    assert sorted(i.operation.name for i in out.data) == ["cx", "h", "measure", "measure"]
    assert report["seed"] == 3 and len(report["segments"]) == 2
    assert report["check"]["ok"] and report["returned"] == "optimized"


def test_optimize_reads_as_the_list_of_its_stages():
    """optimize() adapts the caller's types and runs the pipeline: its code (the docstring
    aside) stays short, and api.py is well under half of its old 689 lines."""
    tree = ast.parse((PKG / "api.py").read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "optimize")
    body = fn.body[1:]  # after the docstring
    assert body[-1].end_lineno - body[0].lineno + 1 <= 30
    assert len((PKG / "api.py").read_text().splitlines()) < 689 // 2


def _imports(path: Path) -> set[str]:
    """The quartz modules a file imports anywhere in it (function-level imports included)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in out if m.startswith("quartz")}


def _module(path: Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_imports_flow_one_way_api_pipeline_search():
    """The adapter (quartz.api) imports the pipeline, the pipeline the search and the rest;
    never back, and the pipeline's modules import one another without a circle."""
    above = ("quartz", "quartz.api", "quartz.cli", "quartz.bench", "quartz.qiskit_plugin",
             "quartz.qiskit_init", "quartz.pipeline", "quartz.demo", "quartz.__main__")
    for path in PKG.rglob("*.py"):
        mod = _module(path)
        names = _imports(path)
        if mod.startswith("quartz.pipeline"):
            assert not any(n == "quartz.api" or n.startswith("quartz.api.") for n in names), mod
        elif not any(mod == a or mod.startswith(a + ".") for a in above):
            assert not any(n.startswith(("quartz.api", "quartz.pipeline")) for n in names), mod
    graph = {_module(p): {n for n in _imports(p) if n.startswith("quartz.pipeline.")}
             for p in (PKG / "pipeline").glob("*.py")}
    graph = {m: {n for n in deps if n in graph and n != m} for m, deps in graph.items()}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, " -> ".join(path + (m,))
        if m in done:
            return
        for n in graph[m]:
            visit(n, path + (m,))
        done.add(m)

    for m in graph:
        visit(m, ())


@pytest.mark.parametrize("name", ["quartz.api", "quartz.pipeline.run", "quartz.pipeline.partition"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0, name
