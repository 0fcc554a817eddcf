"""Qiskit init stage plugin: `transpile(..., init_method="quartz", optimization_method="quartz")`.

Two things in Qiskit's own stages cost the quartz optimization stage gates. The init stage
unrolls three-qubit gates (ccx, ccz) into a fixed decomposition before any optimization sees
them, so quartz's preprocessing, which works best on the Toffolis themselves (polarity, pairs,
folding), gets their scattered pieces; and at levels 2-3 it ends by consolidating two-qubit
blocks (ConsolidateBlocks, Split2QUnitaries), which translation then writes by KAK synthesis
with generic float angles that no exact rewrite can merge. `QuartzInitPlugin` runs quartz
first, on the circuit as given (`QuartzOptimization` with `untranslated=True`: each block's
result, in the target basis, replaces the block only when it has fewer gates than the block
written in the basis), and then Qiskit's default init for the level without those two passes
(unrolling what is left, ElidePermutations, RemoveDiagonalGatesBeforeMeasure, inverse and
commutative cancellation). The optimization stage then starts from quartz's result and
usually converges within seconds. Budget: the level's (`quartz.qiskit_plugin.LEVEL_TIMEOUTS`,
QUARTZ_QISKIT_TIMEOUT) is shared: this stage searches for INIT_SHARE (half) of it and, once it
has, the quartz optimization stage for the rest (`timeout_after_init`), so a transpile call
with both plugins searches no longer than one with the optimization plugin alone. The
stage is Qiskit's default init unchanged without a basis (no `basis_gates`, no target: quartz
would rewrite the circuit into its own gates), at level 0, and, for circuits without ccx or
ccz, for the gate sets in DEFAULT_INIT_FOR (Rigetti's), where quartz measured worse on them
(HasToffolis decides per circuit). Measured in BENCHMARKS.md ("The quartz init stage").

>>> [name for name in init_pass_names(3) if "Consolidate" in name or "Split2Q" in name]
[]
>>> init_pass_names(3)[:2]
['QuartzOptimization', 'UnitarySynthesis']
"""
from __future__ import annotations

from qiskit.transpiler import AnalysisPass, ConditionalController, PassManager
from qiskit.transpiler.passmanager_config import PassManagerConfig
from qiskit.transpiler.preset_passmanagers.plugin import (
    PassManagerStagePlugin,
    PassManagerStagePluginManager,
)

# The default init's passes that hand the optimization stage KAK angles instead of the circuit.
DROPPED = frozenset({"ConsolidateBlocks", "Split2QUnitaries"})
# Gate sets for which quartz first measured worse than Qiskit's default init on circuits
# without Toffolis (Rigetti's {rx, rz, cz}: tof_3 67 vs 59, barenco_tof_3 90 vs 79, rc_adder_6
# 309 vs 285 gates at level 3, 5 s per stage, decomposed inputs); for them the stage is Qiskit's
# default init unchanged unless the circuit holds ccx or ccz, where quartz goes first: since
# Toffolis reach a set without h through Nam's preprocessing (quartz.pipeline.preprocess.via_nam) it wins
# there (tof_3 31 vs 60, barenco_tof_4 85 vs 149, vbe_adder_3 97 vs 151; BENCHMARKS.md).
DEFAULT_INIT_FOR = frozenset({"rigetti"})


class QuartzInitPlugin(PassManagerStagePlugin):
    """The `quartz` init stage: quartz on the circuit as given, then Qiskit's default init
    for the level without DROPPED."""

    def pass_manager(self, pass_manager_config, optimization_level=None):
        """Build the stage for this configuration and level."""
        from quartz.qiskit_plugin import (
            INIT_SHARE,
            QuartzOptimization,
            _basis_of,
            level_timeout,
            plugin_patience,
            preload_ecc_set,
            select_gate_set,
            stage_cost,
        )

        cfg = pass_manager_config
        level = 2 if optimization_level is None else optimization_level
        default = PassManagerStagePluginManager().get_passmanager_stage(
            "init", "default", cfg, optimization_level=level)
        basis = _basis_of(cfg.basis_gates, cfg.target)
        timeout = level_timeout(level)
        if basis is None or timeout <= 0:
            return default if default is not None else PassManager()
        # The default stage is a flat list of passes (nested flow controllers are kept whole).
        all_tasks = [] if default is None else list(default.to_flow_controller().tasks)
        tasks = [t for t in all_tasks if type(t).__name__ not in DROPPED]
        # Before layout the qubits are virtual: the basis names only, no coupling check.
        opt = QuartzOptimization(timeout=timeout * INIT_SHARE, seed=cfg.seed_transpiler,
                                 cost=stage_cost(), basis_gates=basis, patience=plugin_patience(), untranslated=True)
        preload_ecc_set(opt.gate_set)
        if opt.gate_set not in DEFAULT_INIT_FOR:
            return PassManager([opt] + tasks)
        return PassManager([
            HasToffolis(),
            ConditionalController([opt] + tasks, condition=lambda ps: ps[TOFFOLIS]),
            ConditionalController(all_tasks, condition=lambda ps: not ps[TOFFOLIS])])


# The property that HasToffolis sets.
TOFFOLIS = "quartz_has_toffolis"


class HasToffolis(AnalysisPass):
    """Sets property_set[TOFFOLIS]: whether the circuit holds a ccx or ccz gate."""

    def run(self, dag):
        """Look at the gate counts of `dag`."""
        ops = dag.count_ops(recurse=True)
        self.property_set[TOFFOLIS] = bool(ops.get("ccx", 0) or ops.get("ccz", 0))


def init_pass_names(level: int, basis_gates: list[str] | None = None) -> list[str]:
    """The pass names of the quartz init stage at `level` for `basis_gates` (default Nam's)."""
    cfg = PassManagerConfig(basis_gates=basis_gates or ["h", "x", "rz", "cx"])
    stage = QuartzInitPlugin().pass_manager(cfg, optimization_level=level)
    return [type(t).__name__ for t in stage.to_flow_controller().tasks]


__all__ = ["QuartzInitPlugin", "DROPPED", "DEFAULT_INIT_FOR", "HasToffolis", "TOFFOLIS",
           "init_pass_names"]
