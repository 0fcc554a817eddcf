"""Threads default to the CPUs this process may use, everywhere."""
from __future__ import annotations

import inspect
import os

import pytest

from quartz import cpus
from quartz.errors import QuartzError


def test_available_cpus_follows_the_affinity_mask(monkeypatch):
    if hasattr(os, "process_cpu_count"):
        monkeypatch.setattr(os, "process_cpu_count", lambda: 3)
    else:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 5, 7})
    assert cpus.available_cpus() == 3
    assert cpus.resolve_threads(None) == 3


def test_resolve_threads_keeps_a_valid_count_and_rejects_others():
    assert cpus.resolve_threads(4) == 4
    for bad in (0, -2, 1.5, True, "2"):
        with pytest.raises(QuartzError, match="threads must be a whole number >= 1"):
            cpus.resolve_threads(bad)


def test_threads_default_to_none_in_the_api_and_search():
    import quartz
    from quartz.search.driver import search

    for fn in (quartz.optimize, search):
        assert inspect.signature(fn).parameters["threads"].default is None


def test_cli_threads_default_is_the_machine(capsys):
    from quartz.cli import build_parser

    args = build_parser().parse_args(["optimize", "x.qasm"])
    assert args.threads is None and args.patience == "auto"


def test_worker_defaults_follow_the_affinity_mask(monkeypatch):
    from quartz.bench.runner import default_jobs
    from quartz.rl.train import _default_workers

    monkeypatch.setattr(cpus, "available_cpus", lambda: 1)
    import quartz.bench.runner as runner
    import quartz.rl.train as train

    monkeypatch.setattr(runner, "available_cpus", lambda: 6)
    monkeypatch.setattr(train, "available_cpus", lambda: 1)
    assert default_jobs() == 3  # each search uses two threads
    assert _default_workers() == 1
