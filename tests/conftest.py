"""Shared test fixtures: paths to the benchmark suites in ../shared/benchmarks."""
from __future__ import annotations

import atexit
import os
import shutil
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
