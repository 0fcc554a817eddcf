"""Benchmarking: run optimizers and baselines over a suite, check every output, write a report.

The suite (quartz.bench.suite), the runs (quartz.bench.runner), the baselines
(quartz.bench.baselines) and the report (quartz.bench.report). Every output is checked by
the bench's independent check, `quartz.check.check_equivalence`.
"""

__all__: list[str] = []
