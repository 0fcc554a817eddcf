"""Equivalence checking: one policy (quartz.check.policy) that picks among the methods, each in a
module of its own (unitary, pathsum, states, qcec), and reports method, proof and time.

Three entry points, all in quartz.check.policy: `check_equivalent`, the check every optimizer
result passes (the first method that concludes: unitary, path sum, random states, qcec);
`check_equivalence`, the bench's independent check (path sums, qcec and Qiskit's Operator, all
run, one combined verdict; no quartz simulator); and `check_block`, the Qiskit stage's check of
a block's result on random states.

>>> import quartz
>>> from quartz.check import check_equivalence, check_equivalent
>>> check_equivalence(quartz.Circuit(1).h(0).h(0), quartz.Circuit(1)).verdict
'equivalent'
>>> check_equivalent(quartz.Circuit(1).h(0).h(0), quartz.Circuit(1)).summary()[:31]
'equivalent by unitary (proof; m'
"""
from quartz.check.policy import (Check, EquivalenceResult, as_numeric, assert_equivalent,
                                 check_block, check_equivalence, check_equivalent, describe,
                                 qcec_missing)

__all__ = ["Check", "check_equivalent", "describe", "as_numeric", "EquivalenceResult",
           "check_equivalence", "assert_equivalent", "check_block", "qcec_missing"]
