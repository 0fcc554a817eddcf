"""Verifier: proves that two circuits are equal up to a global phase for all symbol values.

Exact fast path (Laurent polynomials in e^{i theta/2} over cyclotomic integers, see ring.py and
exact.py), Z3 for what it cannot express (z3_backend.py), numeric counterexamples (numeric.py).
"""
from quartz.verifier.classes import split_class
from quartz.verifier.ecc_set import verify_ecc_set
from quartz.verifier.pair import verify_pair
from quartz.verifier.verdict import ClassOutcome, Verdict, VerifyReport

__all__ = ["verify_pair", "split_class", "verify_ecc_set", "Verdict", "VerifyReport", "ClassOutcome"]
