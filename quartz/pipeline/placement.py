"""Stage: a coupling map kept. The input must keep to it (a clear error naming the first gate
that does not); later stages keep a candidate only where it keeps to it too, and the search
keeps to it in every move (quartz.search.coupling)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from quartz.circuit import Circuit

if TYPE_CHECKING:  # pragma: no cover
    from quartz.pipeline.state import State


def placeable(state: State, c: Circuit) -> bool:
    """Whether every gate of `c` may stand where it is under the call's coupling map."""
    from quartz.search.coupling import off_coupling

    return state.options.coupling is None or off_coupling(c, state.options.coupling) is None


def placement(state: State) -> None:
    """With a coupling map: a QuartzError unless the converted input keeps to it."""
    if state.options.coupling is not None:
        from quartz.search.coupling import check_coupling

        check_coupling(state.current, state.options.coupling)
