"""The docstring examples of quartz.search.preprocess and its modules run and give what they show."""
import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["quartz.search.preprocess", "quartz.search.preprocess.recognize",
                                  "quartz.search.preprocess.relative_phase",
                                  "quartz.search.preprocess.hadamard"])
def test_module_doctests(name):
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.attempted > 0 and result.failed == 0
