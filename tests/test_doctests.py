"""The examples in the docstrings of the foundation modules run and give what they show (the
README's examples: test_readme.py)."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["quartz", "quartz.angles", "quartz.circuit", "quartz.qasm", "quartz.qiskit_convert",
           "quartz.errors", "quartz.io_utils", "quartz.gatesets", "quartz.gatesets.gate_set",
           "quartz.gatesets.rules", "quartz.gatesets.convert", "quartz.check",
           "quartz.check.policy", "quartz.check.unitary", "quartz.check.states",
           "quartz.check.qcec", "quartz.check.pathsum", "quartz.cli.options", "quartz.circuits",
           "quartz.segments",
           "quartz.qiskit_init", "quartz.search.shared_controls", "quartz.search.shared_target",
           "quartz.search.majority"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    if name in ("quartz", "quartz.angles", "quartz.circuit", "quartz.qasm", "quartz.gatesets",
                "quartz.gatesets.convert", "quartz.qiskit_convert", "quartz.segments"):
        assert result.attempted > 0, f"{name} has no doctest examples"

