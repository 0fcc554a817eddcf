"""The optimizer as an explicit pipeline: stages that each do one job and hand one State on.

A unitary circuit goes through, in order (quartz.pipeline.run; dispatch.py picks the list):

1. ``convert`` (convert.py): the input in the gate set.
2. ``preprocess`` (preprocess.py): the preprocessor's circuit as the start where it costs no
   more; in sets that race starts, the Nam route's start as the rival.
3. ``toffoli`` (toffoli.py): Toffoli-level rewrites by trial on the preprocessed start.
4. ``search_stage`` (search_stage.py; two starts raced by race.py) or ``rl_stage``
   (rl_stage.py, method 'rl').
5. ``final_check`` (final_check.py): the result checked against the input; a false rule of a
   trusted ECC set dropped and the search run again.

Partitioned runs (partition.py: ``convert``, ``preprocess_whole``, ``partitioned_search``)
run the same pipeline on each segment in worker processes; circuits with measurements
(measured.py) run it on each unitary segment. quartz.api adapts the caller's types (Circuit,
QuantumCircuit, QASM text or file) to these and back. A new step is a new stage: a function
of the State, placed in the list.
"""
from quartz.pipeline.options import Options
from quartz.pipeline.dispatch import PARTITIONED, optimize_circuit, stages_for
from quartz.pipeline.run import RL, SEARCH, run_stages
from quartz.pipeline.state import Clock, State

__all__ = ["Clock", "Options", "PARTITIONED", "RL", "SEARCH", "State", "optimize_circuit",
           "run_stages", "stages_for"]
