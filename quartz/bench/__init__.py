"""Benchmarking: run optimizers and baselines over a suite, check every output, write a report.

>>> from quartz.bench import check_equivalence
>>> import quartz
>>> check_equivalence(quartz.Circuit(1).h(0).h(0), quartz.Circuit(1)).verdict
'equivalent'
"""
from quartz.bench.equivalence import EquivalenceResult, assert_equivalent, check_equivalence

__all__ = ["EquivalenceResult", "check_equivalence", "assert_equivalent"]
