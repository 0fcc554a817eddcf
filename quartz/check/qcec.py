"""Phase-exact equivalence of two Qiskit circuits on many qubits with mqt.qcec and mqt.core.

QCEC's alternating decision-diagram checker compares unitaries exactly but runs out of time on
large arithmetic circuits (gf2^16_mult, 48 qubits, is undecided after 120 s), while its ZX
checker proves those equal up to a global phase in seconds. So the check runs in three steps:

1. ZX checker: `U_a = c * U_b` for some unit scalar c (or no answer).
2. c from a simulation: both circuits, global phase written as gates, are applied to
   computational basis states with mqt.core's decision diagrams, gate by gate under the time
   budget; `<a x|b x>` equals c when step 1 proved proportionality, so c = 1 proves
   equality. A state overlap of modulus below 1 is a counterexample on its own.
3. Without a ZX proof (or without time for step 2), the alternating DD checker decides.

Verdicts: "equivalent", "equivalent_up_to_global_phase", "not_equivalent", "no_information",
"timeout", or "error: ...". Nothing here uses quartz's own simulator or verifier.

>>> from qiskit import QuantumCircuit
>>> a = QuantumCircuit(2); _ = a.h(0); _ = a.cx(0, 1)
>>> prove_equal(a, a.copy())[0]
'equivalent'
"""
from __future__ import annotations

import random
import time

EQUIVALENT = "equivalent"
UP_TO_PHASE = "equivalent_up_to_global_phase"
NOT_EQUIVALENT = "not_equivalent"
NO_INFORMATION = "no_information"

# |overlap - 1| below this is equality of the two states (decision diagrams are float64).
TOLERANCE = 1e-8
# Basis states simulated for the phase: all zeros, then seeded random ones.
PHASE_STATES = 2
# A simulation whose state DD grows past this many nodes is abandoned (it is not a product-
# like computation and the alternating checker is the better tool).
MAX_DD_NODES = 200_000


def qcec_missing() -> str | None:
    """None when mqt.qcec imports, else the missing package (an optional dependency: the bench
    extra); without it the checks go on without qcec."""
    try:
        import mqt.qcec  # noqa: F401
    except ImportError as e:
        return e.name or "mqt.qcec"
    return None


def phase_as_gates(qc):
    """A copy of `qc` whose `global_phase` is applied by gates on qubit 0 (p(a) x p(a) x)."""
    out = qc.copy()
    phase = float(out.global_phase)
    out.global_phase = 0.0
    if phase != 0.0 and out.num_qubits:
        out.p(phase, 0)
        out.x(0)
        out.p(phase, 0)
        out.x(0)
    return out


def _raw(result_equivalence) -> str:
    return str(result_equivalence).rsplit(".", 1)[-1]


def _zx(a, b, timeout: float) -> str:
    from mqt import qcec

    result = qcec.verify(a, b, run_alternating_checker=False, run_zx_checker=True,
                         run_simulation_checker=False, run_construction_checker=False,
                         timeout=float(max(0.05, timeout)))
    return _raw(result.equivalence)


def _simulate(package, qc, bits: list[bool], deadline: float):
    """The final state DD of `qc` on basis state `bits`, or None past the deadline/size cap."""
    state = package.computational_basis_state(len(bits), bits)
    package.inc_ref_vec(state)
    for i, op in enumerate(qc):
        state = package.apply_unitary_operation(state, op)
        if i % 64 == 63:
            if time.monotonic() > deadline or state.size() > MAX_DD_NODES:
                package.dec_ref_vec(state)
                return None
    return state


def basis_state_overlaps(a, b, deadline: float, states: int = PHASE_STATES, seed: int = 0):
    """`<a x|b x>` for `states` basis states x (all zeros first), or None when out of budget."""
    from mqt.core import load
    import mqt.core.dd as dd

    qa, qb = load(a), load(b)
    n = a.num_qubits
    package = dd.DDPackage(n)
    rng = random.Random(seed)
    overlaps = []
    for k in range(states):
        bits = [False] * n if k == 0 else [rng.random() < 0.5 for _ in range(n)]
        sa = _simulate(package, qa, bits, deadline)
        if sa is None:
            return None
        sb = _simulate(package, qb, bits, deadline)
        if sb is None:
            return None
        overlaps.append(complex(package.inner_product(sa, sb)))
        package.dec_ref_vec(sa)
        package.dec_ref_vec(sb)
        if abs(abs(overlaps[-1]) - 1) > TOLERANCE:
            break  # a counterexample: no need for more states
    return overlaps


def _alternating(a, b, timeout: float, hard_deadline: float | None) -> str:
    from mqt import qcec

    options = dict(run_alternating_checker=True, run_zx_checker=False,
                   run_simulation_checker=False, run_construction_checker=False,
                   numerical_tolerance=1e-10, timeout=float(max(0.05, timeout)))
    if hard_deadline is not None:
        return str(qcec.verify_with_hard_timeout(a, b, deadline=float(hard_deadline),
                                                 **options)["equivalence"]).rsplit(".", 1)[-1]
    return _raw(qcec.verify(a, b, **options).equivalence)


def prove_equal(a, b, timeout: float = 60.0, hard_deadline: float | None = None) -> tuple[str, str]:
    """(verdict, how) for QuantumCircuits `a`, `b`: whether they have the same unitary, phase included.

    `how` names the steps that decided: "zx+dd-phase", "dd-states" (a counterexample),
    "alternating", or "none". `hard_deadline` caps the alternating checker in a subprocess.
    """
    start = time.monotonic()
    end = start + timeout
    a, b = phase_as_gates(a), phase_as_gates(b)
    if a.num_qubits != b.num_qubits:
        return NOT_EQUIVALENT, "qubit counts"
    try:
        zx = _zx(a, b, 0.5 * timeout)
        overlaps = basis_state_overlaps(a, b, start + 0.75 * timeout)
    except Exception as e:  # a checker failure is an unknown verdict, never a pass
        return f"error: {type(e).__name__}: {_first_line(e)}", "none"
    if overlaps is not None:
        if any(abs(abs(o) - 1) > TOLERANCE for o in overlaps):
            return NOT_EQUIVALENT, "dd-states"
        if zx in (EQUIVALENT, UP_TO_PHASE):
            if all(abs(o - 1) <= TOLERANCE for o in overlaps):
                return EQUIVALENT, "zx+dd-phase"
            # Proportional unitaries: a state overlap e^{ic} != 1 is the global phase difference.
            return UP_TO_PHASE, "zx+dd-phase"
        if any(abs(o - 1) > TOLERANCE for o in overlaps):
            return NOT_EQUIVALENT, "dd-states"
    try:
        verdict = _alternating(a, b, end - time.monotonic(), hard_deadline)
    except TimeoutError:
        return "timeout", "alternating"
    except Exception as e:
        return f"error: {type(e).__name__}: {_first_line(e)}", "alternating"
    return verdict, "alternating"


def _first_line(e: Exception) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else ""


__all__ = ["prove_equal", "qcec_missing", "basis_state_overlaps", "phase_as_gates", "EQUIVALENT",
           "UP_TO_PHASE", "NOT_EQUIVALENT", "NO_INFORMATION"]
