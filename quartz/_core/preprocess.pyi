"""Exact preprocessing passes run before search (quartz._core.preprocess)."""
from typing import TypedDict

from . import Circuit

class _CczStats(TypedDict):
    """The stats dict of decompose_ccz_greedy."""

    num_ccz: int
    negative: int
    refined_flips: int
    rotation_cost: int
    cx: int

def rotation_merge(circuit: Circuit, style: str = "rz",
                   placement_last: bool = False) -> tuple[Circuit, int, int]:
    """(circuit, distinct parity terms, rotations merged away)."""

def cancel_inverses(circuit: Circuit, window: int = 64) -> Circuit: ...
def resynthesize_blocks(circuit: Circuit, style: str = "rz", max_qubits: int = 3) -> tuple[Circuit, int]:
    """(circuit, blocks replaced)."""

def reverse_hadamard_networks(circuit: Circuit) -> tuple[Circuit, int]:
    """(circuit, gates removed): every convex cx network with H before and after on more than
    half of its wire ends written as its reversed network with H on the other ends."""

def resynthesize_1q_runs(circuit: Circuit, exact_only: bool = False) -> tuple[Circuit, int]:
    """(circuit, runs replaced): every run of one-qubit h/x/rz gates in its shortest
    {h, x, rz} form; inexact (float angles). exact_only: only runs with rx whose angles are
    exact multiples of pi/4 before and after, rx at multiples of pi/2 after (an exact move)."""

def decompose_ccz_greedy(circuit: Circuit, style: str = "rz", refine_passes: int = 0,
                         resynthesize: bool = False) -> tuple[Circuit, _CczStats]:
    """(circuit, stats dict): every ccz/ccx replaced by 6 cx + 7 rotations, polarity greedy."""
