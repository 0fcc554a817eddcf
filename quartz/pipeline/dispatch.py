"""Which pipeline a call runs: the search's, the policy's (method 'rl') or the partitioned
one (workers > 1 or a Ray cluster), and the one call that runs it on a unitary circuit."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quartz.errors import QuartzError
from quartz.pipeline.convert import convert
from quartz.pipeline.partition import check_partitioned, partitioned_search, preprocess_whole
from quartz.pipeline.run import RL, SEARCH, Stage, run_stages

if TYPE_CHECKING:  # pragma: no cover
    from quartz.circuit import Circuit
    from quartz.gatesets import GateSet
    from quartz.pipeline.options import Options
    from quartz.pipeline.state import Clock, State

# Convert, preprocess the whole circuit (kept where a check of the whole proves it equal),
# then the search's pipeline on segments in worker processes or Ray tasks.
PARTITIONED: tuple[Stage, ...] = (convert, preprocess_whole, partitioned_search)


def partitioned(o: Options) -> bool:
    """Whether `o` asks for partitioned optimization (workers > 1 or a Ray cluster)."""
    from quartz.distributed import cluster_address

    return (o.workers is not None and o.workers > 1) or cluster_address(o.address) is not None


def stages_for(o: Options) -> tuple[Stage, ...]:
    """The pipeline for `o` (a clear error for an option it cannot honour)."""
    if partitioned(o):
        check_partitioned(o)
        return PARTITIONED
    if o.workers is not None and o.workers < 1:
        raise QuartzError(f"workers must be at least 1, got {o.workers}")
    return RL if o.method == "rl" else SEARCH


def optimize_circuit(original: Circuit, gate_set: str | GateSet, options: Options,
                     report: dict[str, Any] | None = None, clock: Clock | None = None) -> State:
    """The pipeline for `options` run on `original` (quartz.pipeline.run.run_stages)."""
    return run_stages(original, gate_set, options, stages_for(options), report, clock)
