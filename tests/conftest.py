"""Shared test fixtures: paths to the benchmark suites in ../shared/benchmarks, and SIGINT for
the tests that send it to themselves."""
from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO.parent / "shared" / "benchmarks"
SUITES = ("nam", "nam-ccz", "clifford-t", "rigetti")

# Load-time ECC verdicts go to a private folder (subprocesses inherit it), never ~/.cache.
os.environ["QUARTZ_CACHE_DIR"] = tempfile.mkdtemp(prefix="quartz-test-cache-")
atexit.register(shutil.rmtree, os.environ["QUARTZ_CACHE_DIR"], True)


@pytest.fixture(scope="session")
def benchmarks_dir() -> Path:
    """The shared benchmark folder (CI has ../shared beside the repository)."""
    return BENCHMARKS


@pytest.fixture
def sigint_raises():
    """Python's own SIGINT handler (SIGINT raises KeyboardInterrupt) for the test, the previous
    one back afterwards: for tests that send SIGINT to their own process. A suite started with
    SIGINT ignored (a background job of a non-interactive shell, as POSIX shells start those)
    would otherwise wait for an interrupt that never comes."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler not set from Python, cannot be restored
            signal.signal(signal.SIGINT, previous)
