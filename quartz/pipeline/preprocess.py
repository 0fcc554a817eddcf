"""Stage: the preprocessor's circuit as the search's start where it costs no more; for gate
sets that race two starts (quartz.pipeline.race), the Nam route's start as the rival."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.gatesets import get_gate_set
from quartz.pipeline.placement import placeable
from quartz.pipeline.race import races_starts

if TYPE_CHECKING:  # pragma: no cover
    from quartz.gatesets import GateSet
    from quartz.pipeline.state import State


def _preprocess(c: Circuit, gs: GateSet) -> Circuit:
    from quartz.search.preprocess import preprocess as run

    return run(c, gs)


def via_nam(original: Circuit, gs: GateSet) -> Circuit | None:
    """A Toffoli circuit preprocessed in Nam, then converted to `gs` and preprocessed there;
    None when that route does not apply or fails.

    For gate sets without h or cx (ibm, ibm_modern, rigetti, ionq) the preprocessor cannot
    fold, pair or pick the polarity of Toffolis; Nam's preprocessor can, and its {h, x, rz,
    cx} output converts exactly (tof_3 into ibm: 40 gates straight, 33 this way).
    """
    names = {g.name for g in original}
    gates = set(gs.gates)
    if not names & {"ccz", "ccx"} or {"h", "cx"} <= gates:
        return None
    from quartz.gatesets import convert

    nam = get_gate_set("nam")
    try:
        n = _preprocess(original, nam)
        if {g.name for g in n} - set(nam.gates):
            return None
        out = _preprocess(convert(n, gs), gs)
    except QuartzError:
        return None
    return None if {g.name for g in out} - set(gs.gates) else out


def toffoli_source(original: Circuit, converted: Circuit, gs: GateSet) -> Circuit:
    """What the preprocessor starts from: the input itself when only its Toffolis (ccz, ccx)
    are outside the gate set (so that it can fold, pair and pick their polarity), else the
    converted circuit."""
    outside = {g.name for g in original} - set(gs.gates)
    return original if outside and outside <= {"ccz", "ccx"} else converted


def preprocessed(original: Circuit, converted: Circuit, gs: GateSet,
                 key: Callable[[Circuit], float] = len) -> Circuit | None:
    """The preprocessed circuit when it is in the gate set, else None. Toffolis reach the
    preprocessor undecomposed: it picks their polarity and pairs compute/uncompute Toffolis
    into relative-phase ones (in Nam first, for gate sets without h or cx: via_nam); of the
    candidates the one with the lowest `key` is returned (in sets that race starts, the Nam
    route's start is raced by the search instead)."""
    pre = _preprocess(toffoli_source(original, converted, gs), gs)
    found = [] if {g.name for g in pre} - set(gs.gates) else [pre]
    via = via_nam(original, gs) if not races_starts(gs) else None
    if via is not None:
        found.append(via)
    return min(found, key=key) if found else None


def preprocess(state: State) -> None:
    """state.preprocessed, state.current (the preprocessed circuit when it costs no more)
    and state.rival (the Nam route's start, in sets that race starts); with `preprocess`.
    Under a coupling map, a candidate that puts a gate off the map is not used."""
    if not state.options.preprocess:
        return
    assert state.converted is not None
    pre = preprocessed(state.original, state.converted, state.gate_set, key=state.value)
    if pre is not None and not placeable(state, pre):
        pre = None
    state.preprocessed = pre
    if pre is not None and state.value(pre) <= state.value(state.current):
        state.current = pre
    if races_starts(state.gate_set):
        rival = via_nam(state.original, state.gate_set)
        state.rival = rival if rival is not None and placeable(state, rival) else None
