"""The examples in the docstrings of the foundation modules run and give what they show; so
does the Python quick start of README.md."""
from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

MODULES = ["quartz", "quartz.angles", "quartz.circuit", "quartz.qasm", "quartz.qiskit_convert",
           "quartz.errors", "quartz.io_utils", "quartz.gatesets", "quartz.gatesets.gate_set",
           "quartz.gatesets.rules", "quartz.gatesets.convert", "quartz.qcec_check",
           "quartz.pathsum_check", "quartz.cli.options", "quartz.circuits"]
REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    if name in ("quartz", "quartz.angles", "quartz.circuit", "quartz.qasm", "quartz.gatesets",
                "quartz.gatesets.convert", "quartz.qiskit_convert"):
        assert result.attempted > 0, f"{name} has no doctest examples"


def test_readme_quick_start(tmp_path, monkeypatch):
    text = (REPO / "README.md").read_text()
    start = text.index("## Python API quick start: circuits, QASM, gate sets")
    block = re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)
    monkeypatch.chdir(REPO)
    block = block.replace('"/tmp/tof_3.qasm"', repr(str(tmp_path / "tof_3.qasm")))
    exec(compile(block, "README.md", "exec"), {})
    assert (tmp_path / "tof_3.qasm").exists()
