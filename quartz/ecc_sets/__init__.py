"""ECC sets: equivalent-circuit classes and the transformations they give.

An `ECCSet` is what the generator writes, the verifier proves, and the search and RL agent
apply. Each class lists circuits over symbols p0..p(m-1) that are equal up to a global phase;
`ECC.phases[i]` is the proven phase of circuit i relative to circuit 0 (the representative).

Files: `read(path)` (quartz's format or Quartz's, plain or gzip), `write(set, path, format=
"native"|"quartz")` (atomic), and `load("nam")` for the shipped default set of a gate set.
"""
from quartz.ecc_sets.files import dumps, loads, read, write
from quartz.ecc_sets.model import ECC, ECCSet, Phase, Transformation
from quartz.ecc_sets.numeric_check import class_error, spot_check
from quartz.ecc_sets.shipped import DEFAULTS, load, shipped_sets

__all__ = ["ECC", "ECCSet", "Phase", "Transformation", "read", "write", "loads", "dumps", "load",
           "shipped_sets", "DEFAULTS", "spot_check", "class_error"]
