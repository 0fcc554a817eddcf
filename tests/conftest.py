"""Shared test fixtures: paths to the benchmark suites in ../shared/benchmarks."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO.parent / "shared" / "benchmarks"
SUITES = ("nam", "nam-ccz", "clifford-t", "rigetti")


@pytest.fixture(scope="session")
def benchmarks_dir() -> Path:
    """The shared benchmark folder (CI has ../shared beside the repository)."""
    return BENCHMARKS
