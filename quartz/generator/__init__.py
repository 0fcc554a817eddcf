"""ECC generator (Quartz PLDI'22 RepGen): all circuits up to n gates, grouped into proven
equivalence classes and pruned.

>>> from quartz.generator import generate
>>> ecc_set, report = generate("nam", 2, 2, 2, jobs=1, progress=False)
>>> report.before.classes, report.before.circuits
(21, 49)
>>> len(ecc_set.classes), all(e.proven for e in ecc_set.classes)
(5, True)
"""
from quartz.generator.generate import GENERATOR_VERSION, check_arguments, generate
from quartz.generator.report import GenerationReport

__all__ = ["generate", "GenerationReport", "GENERATOR_VERSION", "check_arguments"]
