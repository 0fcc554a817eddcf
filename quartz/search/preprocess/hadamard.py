"""Hadamard-conjugated cx networks written with their cx gates reversed."""
from __future__ import annotations

from quartz import _core
from quartz.circuit import Circuit
from quartz.search.preprocess.styles import check_circuit


def reverse_hadamard_networks(circuit: Circuit) -> Circuit:
    """Write H^A . L . H^B as H^(P-A) . rev(L) . H^(P-B) wherever that has fewer H gates.

    L is a convex network of cx gates on the qubits P, A and B the qubits with an h just before
    and just after it; rev(L) swaps every cx's control and target (h (x) h . cx(a, b) . h (x) h
    = cx(b, a)). Applied while some network has more h ends (A and B counted together) than
    wires; exact, global phase unchanged. The search's two-qubit rules reach these circuits
    only one gate pair at a time through costlier ones (the gf2 multipliers' output registers).

    >>> from quartz import Circuit
    >>> c = Circuit(2).h(0).h(1).cx(0, 1).h(0).h(1)
    >>> [(g.name, list(g.qubits)) for g in reverse_hadamard_networks(c)]
    [('cx', [1, 0])]
    """
    check_circuit(circuit, "reverse_hadamard_networks")
    out, _ = _core.preprocess.reverse_hadamard_networks(circuit.native)
    return Circuit._wrap(out, circuit.name)
