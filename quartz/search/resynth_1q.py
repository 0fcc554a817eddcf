"""One-qubit run resynthesis: an inexact move for `quartz.optimize(..., exact=False)`.

Every run of one-qubit h, x and rz gates on a qubit is written in its shortest {h, x, rz}
form (ZXZ Euler angles, rz(a) h rz(b) h rz(c) at most, shorter at special angles), when that
has fewer gates; a run with rx gates (Rigetti's and IonQ's gate sets) in its shortest
{rx, rz} form, rz rx rz at most. New angles are float radians unless they round to multiples of pi/4, so a
result equals its input to rounding (1e-11 per entry, global phase included), not exactly.
The search runs this as part of its polish (`search(..., resynth_1q=True)`), which is how
exact=False uses it in Nam; this function is the same pass on its own.

>>> from quartz import Circuit
>>> c = Circuit(1).h(0).rz(0.3, 0).h(0).rz(0.2, 0).h(0).rz(0.1, 0).h(0)
>>> out = resynthesize_1q_runs(c)
>>> len(c), len(out), bool(abs(out.unitary() - c.unitary()).max() < 1e-10)
(7, 5, True)
"""
from __future__ import annotations

from quartz import _core
from quartz.circuit import Circuit
from quartz.errors import QuartzError


def resynthesize_1q_runs(circuit: Circuit, exact_only: bool = False) -> Circuit:
    """`circuit` with each one-qubit h/x/rz run in its shortest {h, x, rz} form, each run
    with rx in its shortest {rx, rz} form (inexact). `exact_only`: only runs with rx whose
    angles are multiples of pi/4 before and after (rx after: multiples of pi/2, Rigetti's
    native ones), and only when the global phase stays exact too: an exact move, which the
    search's polish makes with `exact_1q` (quartz.optimize: in Rigetti's gate set).

    >>> from quartz import Circuit
    >>> from quartz.angles import pi_fraction
    >>> c = Circuit(1).rx(pi_fraction(1, 2), 0).rz(pi_fraction(1, 2), 0).rx(pi_fraction(1, 2), 0)
    >>> c = c.rz(pi_fraction(1, 2), 0).rx(pi_fraction(1, 2), 0)
    >>> out = resynthesize_1q_runs(c, exact_only=True)
    >>> len(out) < len(c), bool(abs(out.unitary() - c.unitary()).max() < 1e-12)
    (True, True)
    >>> resynthesize_1q_runs(Circuit(1).rx(0.3, 0).rz(0.2, 0).rx(0.1, 0).rz(0.5, 0),
    ...                      exact_only=True).count_ops()["rx"]  # float angles: left alone
    2
    """
    if not isinstance(circuit, Circuit):
        raise QuartzError(f"resynthesize_1q_runs needs a quartz.Circuit, got "
                          f"{type(circuit).__name__}")
    out, _ = _core.preprocess.resynthesize_1q_runs(circuit.native, bool(exact_only))
    return Circuit._wrap(out, circuit.name)


__all__ = ["resynthesize_1q_runs"]
