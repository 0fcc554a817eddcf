"""Exact preprocessing before search: Toffoli folding and relative-phase pairs, CCZ polarity,
rotation merging, cancellation, cx resynthesis, reversal of Hadamard-conjugated cx networks.

Every pass returns a new circuit with exactly the same unitary, global phase included.

>>> from quartz import Circuit
>>> from quartz.search.preprocess import rotation_merge
>>> c = Circuit(2).cx(0, 1).rz(0.3, 1).x(1).rz(0.5, 1).cx(0, 1)
>>> [(g.name, [float(p) for p in g.params]) for g in rotation_merge(c)]
[('cx', []), ('rz', [-0.2]), ('x', []), ('cx', [])]
"""
from quartz.search.preprocess.cancel import cancel_inverses
from quartz.search.preprocess.ccz import decompose_ccz_greedy
from quartz.search.preprocess.hadamard import reverse_hadamard_networks
from quartz.search.preprocess.pipeline import preprocess
from quartz.search.preprocess.recognize import recognize_ccz
from quartz.search.preprocess.relative_phase import relative_phase_toffolis
from quartz.search.preprocess.resynth import resynthesize_blocks
from quartz.search.preprocess.rotation_merge import rotation_merge
from quartz.search.preprocess.styles import infer_style, style_for_gate_set

__all__ = ["preprocess", "rotation_merge", "cancel_inverses", "decompose_ccz_greedy",
           "resynthesize_blocks", "reverse_hadamard_networks", "recognize_ccz", "relative_phase_toffolis", "infer_style",
           "style_for_gate_set"]
