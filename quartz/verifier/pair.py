"""verify_pair: exact fast path first, Z3 for what it cannot express, numeric counterexamples."""
from __future__ import annotations

import time

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.verifier import exact, numeric
from quartz.verifier.ring import Unsupported
from quartz.verifier.verdict import Verdict


def _check_circuit(c, what: str) -> None:
    if not isinstance(c, Circuit):
        raise QuartzError(f"verify_pair: {what} must be a quartz.Circuit, got {type(c).__name__}")


def refute(a: Circuit, b: Circuit, method: str, reason: str) -> Verdict:
    """A refuted verdict with the best numeric counterexample found."""
    found = numeric.find_counterexample(a, b, tries=16)
    if found is None:
        return Verdict("refuted", method, message=reason)
    vals, dist = found
    return Verdict("refuted", method, counterexample=vals,
                   message=f"{reason}; at the counterexample 1-|<Ua,Ub>|/d = {dist:.3g}")


def verify_pair(a: Circuit, b: Circuit, *, timeout: float = 10.0) -> Verdict:
    """Decide whether U_b = e^{i phase} U_a for all symbol values (phase returned when proven)."""
    _check_circuit(a, "a")
    _check_circuit(b, "b")
    found = numeric.find_counterexample(a, b, tries=2)
    if found is not None:
        vals, dist = found
        return Verdict("refuted", "numeric", counterexample=vals,
                       message=f"1-|<Ua,Ub>|/d = {dist:.3g} at the counterexample")
    deadline = time.monotonic() + timeout
    try:
        ctx = exact.Context([a, b])
        ua = exact.exact_unitary(ctx, a, deadline)
        ub = exact.exact_unitary(ctx, b, deadline)
    except Unsupported as e:
        return _z3_or_unknown(a, b, timeout, str(e))
    equal, mono = exact.compare(ctx, ua, ub)
    if not equal:
        if ctx.float_vars:  # a float constant was generalised: not a proof of difference
            return _z3_or_unknown(a, b, timeout, "not equal with float constants generalised")
        return refute(a, b, "exact", "exact normal forms differ")
    phase = exact.phase_of(ctx, *mono)
    if phase is None:
        return Verdict("unknown", "exact", message="the global phase depends on a float constant")
    return Verdict("proven", "exact", phase=phase)


def _z3_or_unknown(a: Circuit, b: Circuit, timeout: float, reason: str) -> Verdict:
    from quartz.verifier.z3_backend import verify_pair_z3

    v = verify_pair_z3(a, b, timeout=max(0.001, timeout))
    if v.status == "unknown" and not v.message:
        return Verdict("unknown", v.method, message=reason)
    return v
