"""ECC sets: equivalent-circuit classes and the transformations they give.

An `ECCSet` is what the generator writes, the verifier proves, and the search and RL agent
apply. Each class lists circuits over symbols p0..p(m-1) that are equal up to a global phase;
`ECC.phases[i]` is the proven phase of circuit i relative to circuit 0 (the representative).
"""
from quartz.ecc_sets.model import ECC, ECCSet, Phase, Transformation

__all__ = ["ECC", "ECCSet", "Phase", "Transformation"]
