"""What the distribution installs: only the `quartz` package and its sub-packages (the benchmark
families are `quartz.circuits`, not a generic top-level `circuits`)."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())


def packages_setuptools_finds() -> list[str]:
    """The packages `pip install .` would install, found as setuptools finds them from
    pyproject's [tool.setuptools.packages.find]."""
    import setuptools

    cfg = PYPROJECT["tool"]["setuptools"]["packages"]["find"]
    find = (setuptools.find_namespace_packages if cfg.get("namespaces", True)
            else setuptools.find_packages)
    return find(where=str(REPO / cfg.get("where", ["."])[0]), include=cfg.get("include", ["*"]),
                exclude=cfg.get("exclude", ()))


def test_only_quartz_is_a_top_level_package():
    found = packages_setuptools_finds()
    assert {p.split(".")[0] for p in found} == {"quartz"}, sorted(found)
    assert "quartz.circuits" in found and "circuits" not in found


def test_the_repository_root_has_no_circuits_package(tmp_path):
    # With the checkout's root on sys.path (as in a development install), `import circuits`
    # finds nothing: the families live at quartz/circuits.
    code = "import importlib.util, sys; print(importlib.util.find_spec('circuits'))"
    r = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True,
                       text=True, timeout=60, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "None"
    assert (REPO / "quartz" / "circuits" / "__init__.py").is_file()


def test_installed_distribution_of_this_checkout_has_no_circuits():
    try:
        dist = metadata.distribution(PYPROJECT["project"]["name"])
    except metadata.PackageNotFoundError:
        pytest.skip("quartz-superopt is not installed")
    url = json.loads(dist.read_text("direct_url.json") or "{}").get("url", "")
    here = Path(str(dist.locate_file(""))).resolve() == REPO  # this checkout's egg-info
    if url.removeprefix("file://") != str(REPO) and not here:
        pytest.skip(f"the installed distribution is another checkout's ({url})")
    top = (dist.read_text("top_level.txt") or "").split()
    assert "circuits" not in top
    assert not any(str(f).startswith("circuits/") for f in dist.files or [])


def test_families_are_quartz_circuits():
    from quartz import circuits
    from quartz.bench.suite import circuits_package

    assert circuits_package() is circuits
    assert [n for n, _ in circuits.family("tof", [3])] == ["tof_3"]
