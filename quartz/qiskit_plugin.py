"""Qiskit transpiler plugin: `transpile(qc, basis_gates=[...], optimization_method="quartz")`.

`QuartzOptimizationPlugin` is registered under the entry-point group
`qiskit.transpiler.optimization` as `quartz`. Its stage runs Qiskit's own default optimization
stage for the level first, then `QuartzOptimization` on the result, so the output is never
larger than the default stage's; when Qiskit's stage made the circuit larger than it received,
quartz also optimizes the received circuit and the smaller result wins. Time budget per circuit (`LEVEL_TIMEOUTS`, seconds; the
environment variable QUARTZ_QISKIT_TIMEOUT overrides levels 1-3):

    level 0: 0 (nothing beyond Qiskit's default stage)   level 1: 2 s   level 2: 10 s   level 3: 30 s

Each block's search stops as soon as it has converged (`PLUGIN_PATIENCE`: no better circuit
for 0.25 s plus 0.005 s per gate plus half the time its last improvement took), so small
circuits return in seconds and large ones get up to the level's budget;
QUARTZ_QISKIT_PATIENCE sets it instead ('auto' for quartz.optimize's rule, a number of
seconds, or 'none' to spend the whole budget).

`QuartzOptimization(gate_set, timeout, cost)` is a TransformationPass usable on its own. It
optimizes each maximal block of unitary gates between barriers, measurements, resets, classical
control and gates quartz does not know, each with `quartz.optimize` in the quartz gate set that
fits the target basis (Nam {h,x,rz,cx}, ibm_modern {rz,sx,x,cx}, ibm_heron {rz,sx,x,cz},
clifford_t, ibm, rigetti, ionq)
or else the closest one, translating back into the basis. Each block's search keeps to the
coupling map (quartz.optimize's coupling_map). A block's result replaces it only if it is in the
basis, puts 2-qubit gates on coupled pairs only (or pairs the block already used), is strictly
better by the cost (the stages': two-qubit gates first, STAGE_COST), loses no estimated success
probability on the target, and has the same unitary including the global phase (checked on
random states for blocks of up to 16 qubits: quartz.check.check_block); otherwise the block is
kept.

`untranslated=True` is for a circuit that may still hold gates outside the basis (the quartz
init stage, `quartz.qiskit_init`, runs before Qiskit unrolls three-qubit gates): quartz gets
each block as it is, and its result must have fewer gates than the block written in the basis.

Moves: by default (`exact=False`) the search may also resynthesize one-qubit runs and
two-qubit blocks (quartz.optimize's exact=False: float angles, each new block within 1e-10
of the old one). Qiskit's own stages work in floats too (its level 2-3 init already
consolidates and KAK-resynthesizes two-qubit blocks, which leaves generic angles that only
resynthesis can merge), and every block result is checked numerically before it replaces a
block, so the exact-only search would give up gates for no stronger guarantee; `exact=True`
keeps to the verified ECC transformations (and Clifford+T, which has no continuous rotation,
always does).

It runs under `transpile(..., num_processes=N)` (the pass pickles; each worker loads the ECC
set once) and from several threads at once, each with its own transpile call (Qiskit's own
passes do not allow one PassManager to run in two threads at once). A QuartzOptimization
instance keeps no per-run state but `last_report`, which each run replaces whole.

>>> select_gate_set(["rz", "sx", "x", "cx", "measure"])
('ibm_modern', True)
>>> select_gate_set(["h", "s", "sdg", "t", "tdg", "cx"])
('clifford_t', False)
"""
from __future__ import annotations

import copy
import logging
import math
import os
from typing import Iterable

from qiskit.circuit import Gate as QiskitGate
from qiskit.circuit import ParameterExpression, QuantumCircuit
from qiskit.circuit.library import get_standard_gate_name_mapping
from qiskit.converters import circuit_to_dag
from qiskit.dagcircuit import DAGOpNode
from qiskit.dagcircuit.collect_blocks import BlockCollector
from qiskit.transpiler import PassManager
from qiskit.transpiler.basepasses import AnalysisPass, TransformationPass
from qiskit.transpiler.passes import GatesInBasis
from qiskit.transpiler.preset_passmanagers.plugin import (
    PassManagerStagePlugin,
    PassManagerStagePluginManager,
)

from quartz import _core
from quartz.check import check_block
from quartz.circuit import GATE_NAMES, Circuit
from quartz.errors import QuartzError
from quartz.gatesets import GATE_SETS, get_gate_set
from quartz.search.patience import Patience, PatienceLike, as_patience

log = logging.getLogger("quartz.qiskit_plugin")

LEVEL_TIMEOUTS: dict[int, float] = {0: 0.0, 1: 2.0, 2: 10.0, 3: 30.0}
TIMEOUT_ENV = "QUARTZ_QISKIT_TIMEOUT"
PATIENCE_ENV = "QUARTZ_QISKIT_PATIENCE"
COST_ENV = "QUARTZ_QISKIT_COST"
# The stages' cost: two-qubit gates first, then all gates (on hardware a two-qubit gate carries
# about ten times the error of a one-qubit one; minimising all gates traded one cx for sx's).
STAGE_COST = "two_qubit"
# Blocks are small and a transpile call should cost about what Qiskit's level does.
PLUGIN_PATIENCE = Patience(seconds=0.25, per_gate=0.005, growth=0.5)
# Our gate sets, most preferred first when several fit inside a basis.
PREFERENCE = ("nam", "ibm_modern", "ibm_heron", "clifford_t", "ibm", "rigetti", "ionq")
# property_set key of the estimated success probability (the product of 1 - error over the
# gates, from the target) of the circuit before and after QuartzOptimization: (before, after).
ESP = "quartz_esp"
# property_set key under which RecordStageInput keeps the circuit the stage received.
STAGE_INPUT = "quartz_stage_input"
# property_set key the quartz init stage sets once it has searched (quartz.qiskit_init), and
# the share of the level's budget it gets; the optimization stage then gets the rest.
INIT_RAN = "quartz_init_ran"
INIT_SHARE = 0.5
# Qiskit instruction names for quartz gate types with another name.
_FROM_QISKIT = {"u": "u3", "cnot": "cx", "phase": "p", "cu1": "cp", "toffoli": "ccx"}
_STANDARD = get_standard_gate_name_mapping()


def level_timeout(level: int | None) -> float:
    """Seconds of quartz search per circuit at an optimization level (0 for level 0)."""
    level = 2 if level is None else level
    if level not in LEVEL_TIMEOUTS:
        raise QuartzError(f"optimization level must be 0-3, got {level!r}")
    if level == 0:
        return 0.0
    env = os.environ.get(TIMEOUT_ENV)
    if env:
        try:
            value = float(env)
        except ValueError:
            raise QuartzError(f"{TIMEOUT_ENV} must be a number of seconds, got {env!r}") from None
        if not math.isfinite(value) or value < 0:
            raise QuartzError(f"{TIMEOUT_ENV} must be a non-negative number, got {env!r}")
        return value
    return LEVEL_TIMEOUTS[level]


def stage_cost() -> str:
    """The quartz stages' cost: STAGE_COST unless QUARTZ_QISKIT_COST names another."""
    from quartz.search.costs import get_cost

    env = os.environ.get(COST_ENV, "").strip()
    if not env:
        return STAGE_COST
    get_cost(env)  # a clear error for an unknown name
    return env


def plugin_patience() -> Patience | None:
    """The stage's convergence rule: PLUGIN_PATIENCE unless QUARTZ_QISKIT_PATIENCE says else."""
    env = os.environ.get(PATIENCE_ENV, "").strip().lower()
    if not env:
        return PLUGIN_PATIENCE
    if env == "none":
        return None
    if env == "auto":
        return as_patience("auto")
    try:
        return as_patience(float(env))
    except ValueError:
        raise QuartzError(f"{PATIENCE_ENV} must be 'auto', 'none' or a number of seconds, "
                          f"got {env!r}") from None


def preload_ecc_set(gate_set: str) -> None:
    """Load the shipped ECC set of `gate_set` into this process's cache now, before transpile
    forks its workers (they inherit it instead of each loading it; ~1 s per worker)."""
    from quartz.pipeline.matchers import get_matcher

    try:
        get_matcher(None, get_gate_set(gate_set))
    except QuartzError as e:  # the pass reports it per block when it runs
        log.warning("could not preload the %s ECC set: %s", gate_set, e)


def _quartz_names(basis: Iterable[str]) -> set[str]:
    return {_FROM_QISKIT.get(b, b) for b in basis} & set(GATE_NAMES)


def select_gate_set(basis: Iterable[str] | None) -> tuple[str, bool]:
    """Our gate set for a target basis, and whether all of its gates are in the basis."""
    if basis is None:
        return "nam", True
    names = _quartz_names(basis)
    for name in PREFERENCE:
        if set(GATE_SETS[name].gates) <= names:
            return name, True

    def closeness(name: str) -> tuple[int, int, int]:
        gates = set(GATE_SETS[name].gates)
        return (len(gates & names), -len(gates - names), -PREFERENCE.index(name))

    return max(PREFERENCE, key=closeness), False


def _basis_of(basis_gates, target) -> list[str] | None:
    if target is not None:
        return list(target.operation_names)
    return None if basis_gates is None else list(basis_gates)


def _is_quartz_gate(node) -> bool:
    """Whether a DAG node is a plain gate that quartz represents exactly."""
    if not isinstance(node, DAGOpNode) or node.cargs:
        return False
    op = node.op
    name = _FROM_QISKIT.get(op.name, op.name)
    if name not in GATE_NAMES or getattr(op, "condition", None) is not None:
        return False
    ref = _STANDARD.get(op.name)
    if ref is None or type(op) is not type(ref) or not isinstance(op, QiskitGate):
        return False
    return all(not isinstance(p, ParameterExpression) or not p.parameters for p in op.params)


class QuartzOptimization(TransformationPass):
    """Superoptimize the unitary blocks of a circuit with quartz, keeping only safe improvements."""

    def __init__(self, gate_set: str | None = None, timeout: float = 1.0, cost: str = "gates",
                 seed: int | None = None, *, basis_gates: Iterable[str] | None = None,
                 target=None, coupling_map=None, verify: bool = True,
                 patience: PatienceLike = "auto", exact: bool = False,
                 untranslated: bool = False, timeout_after_init: float | None = None):
        super().__init__()
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0:
            raise QuartzError(f"timeout must be a non-negative number of seconds, got {timeout!r}")
        self.basis = _basis_of(basis_gates, target)
        if gate_set is None:
            self.gate_set, self.exact_fit = select_gate_set(self.basis)
        else:
            self.gate_set = get_gate_set(gate_set).name
            self.exact_fit = self.basis is None or set(get_gate_set(gate_set).gates) <= \
                _quartz_names(self.basis)
        self.timeout = float(timeout)
        self.cost = cost
        self.seed = seed
        self.target = target
        self.coupling_map = coupling_map
        if coupling_map is None and target is not None:
            self.coupling_map = target.build_coupling_map()
        self.verify = verify
        self.patience = as_patience(patience)
        self.exact = bool(exact)
        # Before translation (the quartz init stage): a block may hold gates outside the basis
        # (ccx, ccz, swap ...), so its result is weighed against the block written in the basis.
        self.untranslated = bool(untranslated)
        # The budget when the quartz init stage already searched this circuit (INIT_RAN).
        self.timeout_after_init = None if timeout_after_init is None else float(timeout_after_init)
        # (before, after) estimated success probability of the last run's circuit on the
        # target (also property_set[ESP]); None without a target or before layout.
        self.last_esp: tuple[float, float] | None = None
        # How each block of the last finished run ended: "improved", "kept", or a rejection
        # reason; for tests and users. Each run fills its own list and then replaces this one,
        # so runs in several threads at once do not mix their entries.
        self.last_report: list[str] = []

    def run(self, dag):
        """Replace each unitary block by its quartz-optimized version when that is safe.

        If RecordStageInput ran earlier in the stage and the stage's passes made the circuit
        larger than what the stage received (and did not change the layout), the received
        circuit is optimized too (half the budget each) and the smaller result is returned.
        """
        report: list[str] = []
        laid_out = self.target is not None and not self.untranslated
        before = self._whole_error(dag) if laid_out else None
        try:
            out = self._run(dag, report)
            if before is not None:
                self.last_esp = (math.exp(-before), math.exp(-self._whole_error(out)))
                if self.property_set is not None:
                    self.property_set[ESP] = self.last_esp
            return out
        finally:
            self.last_report = report
            if self.untranslated and self.timeout > 0 and self.property_set is not None:
                self.property_set[INIT_RAN] = True

    def _run(self, dag, report: list[str]):
        props = self.property_set
        timeout = self.timeout
        if self.timeout_after_init is not None and props is not None and props[INIT_RAN]:
            timeout = self.timeout_after_init
        if timeout <= 0:
            return dag
        received = props[STAGE_INPUT] if props is not None else None
        if (received is None or props["post_layout"] is not None
                or received.size() >= dag.size() or not self._in_basis(received)):
            return self._optimize_dag(dag, timeout, report)
        ours = self._optimize_dag(dag, timeout / 2, report)
        other = self._optimize_dag(copy.deepcopy(received), timeout / 2, report)
        if self._key(other) < self._key(ours) and self._whole_error(other) <= self._whole_error(ours):
            report.append("returned the optimized stage input")
            return other
        return ours

    def _in_basis(self, dag) -> bool:
        return self.basis is None or set(dag.count_ops(recurse=False)) <= set(self.basis)

    def _optimize_dag(self, dag, timeout: float, report: list[str]):
        blocks = BlockCollector(dag).collect_all_matching_blocks(
            _is_quartz_gate, split_blocks=False, min_block_size=2)
        if not blocks:
            return dag
        from quartz.api import optimize

        total = sum(len(b) for b in blocks)
        index = {q: i for i, q in enumerate(dag.qubits)}
        for block in blocks:
            budget = timeout * len(block) / total
            qubits = sorted({q for node in block for q in node.qargs}, key=index.__getitem__)
            new = self._optimize_block(block, qubits, [index[q] for q in qubits], budget, optimize,
                                       report)
            if new is None:
                continue
            pos = {q: i for i, q in enumerate(qubits)}
            node = dag.replace_block_with_op(block, QiskitGate("quartz_block", len(qubits), []),
                                             pos, cycle_check=False)
            dag.substitute_node_with_dag(node, circuit_to_dag(new), wires=new.qubits)
        return dag

    # --- one block ------------------------------------------------------------------------
    def _optimize_block(self, block, qubits, physical, budget, optimize,
                        report: list[str]) -> QuantumCircuit | None:
        from quartz.gatesets import convert

        local = {q: i for i, q in enumerate(qubits)}
        qc = QuantumCircuit(len(qubits))
        for node in block:
            qc.append(node.op, [local[q] for q in node.qargs])
        original = Circuit.from_qiskit(qc)
        try:
            start = convert(original, self.gate_set)
            # The final check gets the block's budget too (not optimize's 20 s minimum).
            # Before translation optimize gets the block itself: its preprocessing works on
            # three-qubit gates better than on their decompositions (it converts the rest).
            out = optimize(original if self.untranslated else start, gate_set=self.gate_set,
                           timeout=budget, cost=self.cost,
                           seed=self.seed, check_timeout=max(budget, 0.05),
                           patience=self.patience, threads=self._threads(),
                           exact=self._exact(),
                           coupling_map=self._block_coupling(original, physical))
            result = self._into_basis(out)
        except QuartzError as e:
            log.warning("quartz left a %d-gate block unchanged: %s", len(block), e)
            report.append(f"kept: {e}")
            return None
        if result is None:
            report.append("kept: result could not be translated into the basis")
            return None
        before = qc
        if self.untranslated:  # the block as translation would leave it, not as it is
            before = self._into_basis(start) or qc
        reason = self._reject(before, result, physical, original)
        if reason:
            report.append(f"kept: {reason}")
            return None
        report.append("improved")
        return result

    def _block_coupling(self, block: Circuit, physical: list[int]) -> list | None:
        """The pairs of the block's qubits a two-qubit gate may use: the coupling map's edges
        between their physical qubits, and the pairs the block already uses; None without a
        map, or before layout (the init stage)."""
        if self.coupling_map is None or self.untranslated:
            return None
        edges = self._edges() - self._worse_directions()
        n = len(physical)
        used = {tuple(g.qubits) for g in block if len(g.qubits) == 2}
        return [(i, j) for i in range(n) for j in range(n)
                if i != j and ((physical[i], physical[j]) in edges or (i, j) in used)]

    def _worse_directions(self) -> set:
        """Edges (a, b) whose reverse (b, a) the target calibrates with a lower error, for the
        gate set's directional two-qubit gate (cx, ecr): the search then writes that gate in
        the better direction only, unless the block already uses the other."""
        if not hasattr(self, "_worse"):
            self._worse: set = set()
            names = [g for g in get_gate_set(self.gate_set).gates
                     if _core.gate_info(g)[0] == 2 and not _core.gate_info(g)[2]]
            if self.target is not None and names and names[0] in self.target.operation_names:
                props = self.target[names[0]]
                for (a, b), p in props.items():
                    q = props.get((b, a))
                    if (p is not None and q is not None and p.error is not None
                            and q.error is not None and q.error < p.error):
                        self._worse.add((a, b))
        return self._worse

    def _exact(self) -> bool:
        """Exact moves only: when asked for, or when the gate set has no resynthesis."""
        from quartz.search.resynth_2q import unsupported

        return self.exact or unsupported(self.gate_set) is not None

    @staticmethod
    def _threads() -> int | None:
        """One search thread inside Qiskit's worker processes (they already fill the CPUs)."""
        return 1 if os.environ.get("QISKIT_IN_PARALLEL", "").upper() == "TRUE" else None

    def _into_basis(self, out: Circuit) -> QuantumCircuit | None:
        """The optimized block as a Qiskit circuit in the target basis (None if impossible)."""
        from quartz.errors import GateSetError
        from quartz.gatesets import convert

        if self.exact_fit or self.basis is None:
            return out.to_qiskit()
        names = _quartz_names(self.basis)
        if names:
            try:
                return convert(out, sorted(names)).to_qiskit()
            except GateSetError:
                pass
        from qiskit.circuit.equivalence_library import SessionEquivalenceLibrary
        from qiskit.transpiler.exceptions import TranspilerError
        from qiskit.transpiler.passes import BasisTranslator

        try:
            return PassManager([BasisTranslator(SessionEquivalenceLibrary, self.basis,
                                                self.target)]).run(out.to_qiskit())
        except TranspilerError:
            return None

    def _allowed(self, op_name: str, qargs: tuple[int, ...], used: set) -> bool:
        if len(qargs) > 2:
            return False
        if self.target is not None and op_name in self.target.operation_names:
            if self.target.instruction_supported(op_name, qargs):
                return True
            return len(qargs) == 2 and qargs in used
        if len(qargs) < 2 or self.coupling_map is None:
            return True
        return qargs in self._edges() or qargs in used

    def _edges(self) -> set:
        if not hasattr(self, "_edge_set"):
            self._edge_set = set(map(tuple, self.coupling_map.get_edges()))
        return self._edge_set

    def _reject(self, before: QuantumCircuit, after: QuantumCircuit, physical: list[int],
                original: Circuit) -> str | None:
        """Why `after` may not replace `before` (None when it may)."""
        if self.basis is not None:
            allowed = set(self.basis)
            bad = sorted({i.operation.name for i in after.data} - allowed)
            if bad:
                return f"gates {', '.join(bad)} are outside the basis"
        used = {tuple(physical[before.find_bit(q).index] for q in i.qubits) for i in before.data
                if len(i.qubits) == 2}
        for inst in after.data:
            qargs = tuple(physical[after.find_bit(q).index] for q in inst.qubits)
            if not self._allowed(inst.operation.name, qargs, used):
                return f"{inst.operation.name} on {qargs} is not supported by the coupling map"
        if not self._better(before, after):
            return "no improvement"
        lost = self._error_cost(after, physical) - self._error_cost(before, physical)
        if lost > 1e-12:
            return "lower estimated success probability on the target"
        if self.verify and check_block(original, after) is False:
            return "result is not equivalent to the block (rejected)"
        return None

    def _better(self, before: QuantumCircuit, after: QuantumCircuit) -> bool:
        if not self._two_qubit_first() and after.size() > before.size():
            return False
        return self._key(after) < self._key(before)

    def _two_qubit_first(self) -> bool:
        return self.cost in ("cx", "two_qubit", "2q")

    def _key(self, qc) -> tuple:
        """How the stage ranks circuits (a QuantumCircuit or a DAGCircuit) by its cost: two-
        qubit gates, then all gates, then depth (cost two_qubit); T gates then all gates
        (t_count); else all gates, then depth."""
        ops = qc.count_ops()
        size = qc.size()
        if self._two_qubit_first():
            two = (len(qc.two_qubit_ops()) if hasattr(qc, "two_qubit_ops")
                   else sum(1 for i in qc.data if len(i.qubits) == 2))
            return (two, size, qc.depth())
        if self.cost in ("t", "t_count"):
            return (ops.get("t", 0) + ops.get("tdg", 0), size)
        return (size, qc.depth())

    def _whole_error(self, dag) -> float:
        """_error_cost of a whole (laid out) DAG, its qubits the physical ones."""
        if self.target is None:
            return 0.0
        from qiskit.converters import dag_to_circuit

        return self._error_cost(dag_to_circuit(dag), list(range(dag.num_qubits())))

    def _error_cost(self, qc: QuantumCircuit, physical: list[int]) -> float:
        """-log of the estimated success probability of `qc` on its `physical` qubits: the
        sum over its gates of -log(1 - error) from the target (0 without a target, or for a
        gate the target gives no error)."""
        if self.target is None:
            return 0.0
        total = 0.0
        for inst in qc.data:
            name = inst.operation.name
            if name not in self.target.operation_names:
                continue
            qargs = tuple(physical[qc.find_bit(q).index] for q in inst.qubits)
            props = self.target[name].get(qargs)
            if props is not None and props.error is not None and props.error < 1:
                total -= math.log1p(-props.error)
        return total


class RecordStageInput(AnalysisPass):
    """Keep a copy of the circuit the optimization stage received, for QuartzOptimization."""

    def run(self, dag):
        """Store a deep copy of `dag` in the property set under STAGE_INPUT."""
        self.property_set[STAGE_INPUT] = copy.deepcopy(dag)


def _default_stage(cfg, level: int):
    """Qiskit's own optimization stage for this configuration and level."""
    from qiskit.transpiler.preset_passmanagers.common import is_clifford_t_basis

    if is_clifford_t_basis(cfg.basis_gates, cfg.target):
        try:  # the dedicated Clifford+T pipeline's stage (Qiskit >= 2.1)
            from qiskit.transpiler.passmanager_config import PassManagerCliffordTConfig
            from qiskit.transpiler.preset_passmanagers.builtin_plugins import (
                OptimizeCliffordTPassManager,
            )

            ct_cfg = PassManagerCliffordTConfig._from_legacy_config(cfg)
            return OptimizeCliffordTPassManager().pass_manager(ct_cfg, optimization_level=level)
        except (ImportError, AttributeError):  # pragma: no cover - older Qiskit
            pass
    return PassManagerStagePluginManager().get_passmanager_stage(
        "optimization", "default", cfg, optimization_level=level)


class QuartzOptimizationPlugin(PassManagerStagePlugin):
    """The `quartz` optimization stage: Qiskit's default stage, then QuartzOptimization."""

    def pass_manager(self, pass_manager_config, optimization_level=None):
        """Build the stage: default optimization, quartz on its result, and a basis guard."""
        cfg = pass_manager_config
        level = 2 if optimization_level is None else optimization_level
        default = _default_stage(cfg, level)
        timeout = level_timeout(level)
        if timeout <= 0:
            return default if default is not None else PassManager()
        stage = PassManager([RecordStageInput()])
        if default is not None:
            stage.append(default.to_flow_controller())
        opt = QuartzOptimization(timeout=timeout, seed=cfg.seed_transpiler, cost=stage_cost(),
                                 basis_gates=cfg.basis_gates, target=cfg.target,
                                 coupling_map=cfg.coupling_map, patience=plugin_patience(),
                                 timeout_after_init=timeout * (1 - INIT_SHARE))
        preload_ecc_set(opt.gate_set)
        stage.append(opt)
        if cfg.basis_gates is not None or cfg.target is not None:
            from qiskit.transpiler import ConditionalController

            translation = PassManagerStagePluginManager().get_passmanager_stage(
                "translation", cfg.translation_method or "default", cfg,
                optimization_level=level)
            stage.append(GatesInBasis(cfg.basis_gates, target=cfg.target))
            stage.append(ConditionalController(
                translation.to_flow_controller(),
                condition=lambda property_set: not property_set["all_gates_in_basis"]))
        return stage
