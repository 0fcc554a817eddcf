"""The Qiskit plugin: registration, gate-set mapping, and transpile() results that are in the
basis, on coupled pairs, exactly equivalent (global phase included) and never larger than the
default optimization stage."""
from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from qiskit import QuantumCircuit, transpile
from qiskit.circuit.library import MCXGate, QFTGate
from qiskit.quantum_info import Operator
from qiskit.synthesis import adder_ripple_c04, adder_ripple_v95
from qiskit.transpiler import CouplingMap, PassManager
from qiskit.transpiler.preset_passmanagers import generate_preset_pass_manager
from qiskit.transpiler.preset_passmanagers.plugin import (
    PassManagerStagePlugin,
    list_stage_plugins,
)

import quartz
from quartz import qiskit_plugin as qp
from quartz.errors import GateSetError, QuartzError

ROOT = Path(__file__).resolve().parents[1]
NAM = ROOT.parent / "shared" / "benchmarks" / "nam"
NAM_BASIS = ["h", "x", "rz", "cx"]
IBM_BASIS = ["rz", "sx", "x", "cx"]
CT_BASIS = ["h", "s", "sdg", "t", "tdg", "cx"]


@pytest.fixture(autouse=True)
def short_budget(monkeypatch):
    monkeypatch.setenv(qp.TIMEOUT_ENV, "1")


# --- registration -------------------------------------------------------------------------
def test_entry_point_declared_and_importable():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    value = meta["project"]["entry-points"]["qiskit.transpiler.optimization"]["quartz"]
    module, _, attr = value.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    assert cls is qp.QuartzOptimizationPlugin and issubclass(cls, PassManagerStagePlugin)


def _built_metadata(tmp_path: Path) -> Path:
    """Let setuptools write this checkout's package metadata (entry points) into tmp_path."""
    subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(tmp_path)],
                   cwd=ROOT, check=True, capture_output=True)
    assert any(tmp_path.glob("*.egg-info/entry_points.txt"))
    return tmp_path


def _installed() -> bool:
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution("quartz-superopt")
    except PackageNotFoundError:
        return False
    groups = {ep.group for ep in dist.entry_points if ep.name == "quartz"}
    return {"qiskit.transpiler.optimization", "qiskit.transpiler.init"} <= groups


@pytest.fixture(scope="module", autouse=True)
def registered(tmp_path_factory):
    """The entry point as a plain install provides it (built here for an uninstalled checkout)."""
    if _installed():
        yield
        return
    path = str(_built_metadata(tmp_path_factory.mktemp("meta")))
    sys.path.insert(0, path)
    _forget_entry_points()
    yield
    sys.path.remove(path)
    _forget_entry_points()


def _forget_entry_points() -> None:
    """Drop stevedore's per-process entry-point cache so that it rescans sys.path."""
    from stevedore import ExtensionManager

    importlib.invalidate_caches()
    for group in ("qiskit.transpiler.optimization", "qiskit.transpiler.init"):
        ExtensionManager.ENTRY_POINT_CACHE.pop(group, None)


def test_listed_by_list_stage_plugins():
    assert "quartz" in list_stage_plugins("optimization")
    assert "quartz" in list_stage_plugins("init")


# --- the init stage -----------------------------------------------------------------------
def test_init_entry_point_declared_and_importable():
    from quartz.qiskit_init import QuartzInitPlugin

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    module, _, attr = meta["project"]["entry-points"]["qiskit.transpiler.init"]["quartz"].partition(":")
    assert getattr(importlib.import_module(module), attr) is QuartzInitPlugin


def test_init_stage_is_quartz_then_the_default_init_without_block_consolidation():
    from qiskit.transpiler.passmanager_config import PassManagerConfig
    from qiskit.transpiler.preset_passmanagers.plugin import PassManagerStagePluginManager

    from quartz.qiskit_init import DROPPED, QuartzInitPlugin, init_pass_names

    cfg = PassManagerConfig(basis_gates=NAM_BASIS)
    default = PassManagerStagePluginManager().get_passmanager_stage(
        "init", "default", cfg, optimization_level=3)
    names = [type(t).__name__ for t in default.to_flow_controller().tasks]
    assert DROPPED <= set(names)  # what Qiskit's level 3 init does and ours leaves out
    assert init_pass_names(3) == ["QuartzOptimization"] + [n for n in names if n not in DROPPED]
    stage = QuartzInitPlugin().pass_manager(cfg, optimization_level=3)
    opt = stage.to_flow_controller().tasks[0]
    assert opt.untranslated and opt.gate_set == "nam" and opt.coupling_map is None
    # the level's budget is shared with the optimization stage
    later = qp.QuartzOptimizationPlugin().pass_manager(cfg, optimization_level=3)
    after = [t for t in later.to_flow_controller().tasks if isinstance(t, qp.QuartzOptimization)][0]
    assert opt.timeout == qp.level_timeout(3) * qp.INIT_SHARE
    assert after.timeout == qp.level_timeout(3)
    assert after.timeout_after_init == qp.level_timeout(3) * (1 - qp.INIT_SHARE)
    # No basis (quartz would rewrite the circuit into its own gates): Qiskit's default init,
    # consolidation included.
    plain = [type(t).__name__ for t in QuartzInitPlugin().pass_manager(
        PassManagerConfig(), optimization_level=3).to_flow_controller().tasks]
    assert "QuartzOptimization" not in plain and DROPPED <= set(plain)


def test_rigetti_init_is_quartz_for_toffolis_and_the_default_init_without_them():
    """Rigetti's basis: quartz first measured worse on decomposed circuits, better on ccx ones
    (through Nam's preprocessing): the stage decides per circuit."""
    from qiskit.transpiler.passmanager_config import PassManagerConfig
    from qiskit.transpiler.preset_passmanagers.plugin import PassManagerStagePluginManager

    from quartz.qiskit_init import TOFFOLIS, QuartzInitPlugin

    basis = ["rx", "rz", "cz"]
    cfg = PassManagerConfig(basis_gates=basis, seed_transpiler=0)
    default = PassManagerStagePluginManager().get_passmanager_stage(
        "init", "default", cfg, optimization_level=3)
    toffolis = QuantumCircuit(3)
    toffolis.ccx(0, 1, 2)
    toffolis.cx(2, 0)
    toffolis.ccx(0, 1, 2)
    decomposed = transpile(toffolis, basis_gates=["h", "x", "rz", "cx"], optimization_level=0)
    for qc, has in ((decomposed, False), (toffolis, True)):
        stage = QuartzInitPlugin().pass_manager(cfg, optimization_level=3)
        out = stage.run(qc)
        assert stage.property_set[TOFFOLIS] is has
        assert Operator(out).equiv(Operator(qc))
        if not has:  # exactly Qiskit's default init
            assert out == default.run(qc)
        else:        # quartz ran: in Rigetti's gates, smaller than the default init's
            assert set(out.count_ops()) <= set(basis)
            assert out.size() < default.run(qc).size()


def test_init_stage_optimizes_the_toffolis_themselves():
    """ccx; cx; ccx is one cx: quartz sees the Toffolis before Qiskit unrolls them (the
    default init hands the optimization stage their pieces)."""
    qc = QuantumCircuit(3)
    qc.ccx(0, 1, 2)
    qc.cx(1, 2)
    qc.ccx(0, 1, 2)
    out = transpile(qc, basis_gates=NAM_BASIS, optimization_level=3, seed_transpiler=0,
                    init_method="quartz", optimization_method="quartz")
    assert dict(out.count_ops()) == {"cx": 1}
    assert Operator(out).equiv(Operator(qc))
    cmap = CouplingMap.from_line(3)  # the README's example, routed afterwards
    readme = QuantumCircuit(3)
    readme.ccx(0, 1, 2)
    readme.cx(1, 2)
    routed = transpile(readme, basis_gates=NAM_BASIS, coupling_map=cmap, optimization_level=3,
                       seed_transpiler=0, init_method="quartz", optimization_method="quartz")
    plain = transpile(readme, basis_gates=NAM_BASIS, coupling_map=cmap, optimization_level=3,
                      seed_transpiler=0, optimization_method="quartz")
    assert set(routed.count_ops()) <= set(NAM_BASIS)
    assert routed.size() <= plain.size()
    assert all(tuple(routed.find_bit(q).index for q in i.qubits) in set(map(tuple, cmap.get_edges()))
               for i in routed.data if len(i.qubits) == 2)


def test_the_optimization_stage_takes_its_budget_after_a_quartz_init():
    """Once an untranslated (init) pass has searched, a later pass runs on timeout_after_init
    (0 here: it does nothing); without that pass before it, on its own timeout."""
    qc = QuantumCircuit(3)
    qc.ccz(0, 1, 2)
    qc.cx(1, 2)
    qc.ccz(0, 1, 2)
    first = qp.QuartzOptimization(timeout=1, seed=0, basis_gates=NAM_BASIS, untranslated=True)
    second = qp.QuartzOptimization(timeout=1, seed=0, basis_gates=NAM_BASIS, timeout_after_init=0)
    pm = PassManager([first, second])
    pm.run(qc)
    assert pm.property_set[qp.INIT_RAN] is True
    assert first.last_report == ["improved"] and second.last_report == []
    alone = QuantumCircuit(2)
    alone.h(0)
    alone.h(0)
    alone.cx(0, 1)
    assert PassManager([second]).run(alone).size() == 1 and second.last_report == ["improved"]


def test_init_stage_with_a_backend_target():
    """With a target (virtual qubits before layout, the basis from the target's operations,
    measure/delay/reset among them) the init stage runs, and the routed result equals the
    input up to its layout, uses the target's gates and coupled pairs only."""
    from qiskit.providers.fake_provider import GenericBackendV2

    backend = GenericBackendV2(5, seed=1)
    qc = QuantumCircuit(4)
    qc.ccx(0, 1, 2)
    qc.cx(2, 3)
    qc.ccx(0, 1, 2)
    qc.h(3)
    qc.t(3)
    qc.swap(0, 3)
    out = transpile(qc, backend=backend, optimization_level=3, seed_transpiler=0,
                    init_method="quartz", optimization_method="quartz")
    wide = QuantumCircuit(5)
    wide.compose(qc, range(4), inplace=True)
    assert Operator.from_circuit(out).equiv(Operator(wide))
    assert set(out.count_ops()) <= set(backend.target.operation_names)
    edges = set(map(tuple, backend.coupling_map.get_edges()))
    assert all(tuple(out.find_bit(q).index for q in i.qubits) in edges
               for i in out.data if len(i.qubits) == 2)


def test_untranslated_blocks_are_weighed_in_the_basis():
    """Blocks with three-qubit gates are weighed as translation would write them: ccz; cx;
    ccz (3 gates, 31 in Nam's) becomes one cz-like pair of gates and is replaced; h ccz h (a
    Toffoli, 15 in Nam's gates, already the fewest) is kept for translation to write."""
    qc = QuantumCircuit(3)
    qc.ccz(0, 1, 2)
    qc.cx(1, 2)
    qc.ccz(0, 1, 2)
    opt = qp.QuartzOptimization(timeout=1, seed=0, basis_gates=NAM_BASIS, untranslated=True)
    out = PassManager([opt]).run(qc)
    assert opt.last_report == ["improved"]
    assert set(out.count_ops()) <= set(NAM_BASIS) and out.size() < 15
    assert Operator(out).equiv(Operator(qc))
    tof = QuantumCircuit(3)
    tof.h(2)
    tof.ccz(0, 1, 2)
    tof.h(2)
    kept = PassManager([opt]).run(tof)
    assert opt.last_report == ["kept: no improvement"] and kept == tof


def test_selected_by_name_in_a_fresh_interpreter(tmp_path):
    meta = _built_metadata(tmp_path)
    code = ("from qiskit import QuantumCircuit, transpile\n"
            "from qiskit.transpiler.preset_passmanagers.plugin import list_stage_plugins\n"
            "assert 'quartz' in list_stage_plugins('optimization')\n"
            "qc = QuantumCircuit(2); qc.h(0); qc.h(0); qc.cx(0, 1)\n"
            "out = transpile(qc, basis_gates=['h','x','rz','cx'], optimization_method='quartz',"
            " optimization_level=1)\n"
            "print(dict(out.count_ops()))\n")
    env = {"PYTHONPATH": f"{meta}:{ROOT}", qp.TIMEOUT_ENV: "0.5", "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "{'cx': 1}"


# --- configuration ------------------------------------------------------------------------
@pytest.mark.parametrize("basis,expected", [
    (NAM_BASIS, ("nam", True)), (IBM_BASIS, ("ibm_modern", True)),
    (CT_BASIS + ["x"], ("clifford_t", True)), (CT_BASIS, ("clifford_t", False)),
    (["u1", "u2", "u3", "cx"], ("ibm", True)), (["rx", "rz", "cz"], ("rigetti", True)),
    (["rx", "ry", "rz", "rxx"], ("ionq", True)), (["rz", "sx", "x", "ecr"], ("ibm_modern", False)),
    (["u", "cx", "measure", "reset"], ("ibm", False)), (None, ("nam", True)),
])
def test_select_gate_set(basis, expected):
    assert qp.select_gate_set(basis) == expected


def test_level_timeouts(monkeypatch):
    monkeypatch.delenv(qp.TIMEOUT_ENV)
    assert [qp.level_timeout(k) for k in range(4)] == [0.0, 2.0, 10.0, 30.0]
    assert qp.level_timeout(None) == 10.0
    monkeypatch.setenv(qp.TIMEOUT_ENV, "0.25")
    assert qp.level_timeout(3) == 0.25 and qp.level_timeout(0) == 0.0
    monkeypatch.setenv(qp.TIMEOUT_ENV, "soon")
    with pytest.raises(QuartzError, match="number of seconds"):
        qp.level_timeout(1)
    with pytest.raises(QuartzError, match="0-3"):
        qp.level_timeout(7)


def test_pass_arguments_are_checked():
    with pytest.raises(QuartzError, match="timeout"):
        qp.QuartzOptimization(timeout=-1)
    with pytest.raises(GateSetError):
        qp.QuartzOptimization(gate_set="nope")
    p = qp.QuartzOptimization(gate_set="nam", basis_gates=IBM_BASIS)
    assert (p.gate_set, p.exact_fit) == ("nam", False)


# --- end to end ---------------------------------------------------------------------------
def _library() -> dict[str, QuantumCircuit]:
    out = {}
    qft = QuantumCircuit(4, name="qft4")
    qft.append(QFTGate(4), range(4))
    out["qft4"] = qft
    mcx = QuantumCircuit(5, name="mcx4")
    mcx.append(MCXGate(4), range(5))
    out["mcx4"] = mcx
    out["cdkm2"] = adder_ripple_c04(2, kind="half")
    out["vbe2"] = adder_ripple_v95(2, kind="half")
    return out


def _nam(name: str) -> QuantumCircuit:
    return quartz.load(NAM / f"{name}.qasm").to_qiskit()


def _redundant(name: str) -> QuantumCircuit:
    """A benchmark circuit with cancelling pairs inserted in its middle (surely improvable)."""
    qc = _nam(name)
    out = qc.copy_empty_like()
    for k, inst in enumerate(qc.data):
        out.append(inst)
        if k == len(qc.data) // 2:
            out.cx(0, 1)
            out.h(2)
            out.h(2)
            out.cx(0, 1)
    return out


CASES = [("tof_3", NAM_BASIS), ("barenco_tof_3", IBM_BASIS), ("mod5_4", CT_BASIS),
         ("qft4", NAM_BASIS), ("qft4", IBM_BASIS), ("mcx4", IBM_BASIS), ("cdkm2", NAM_BASIS),
         ("vbe2", CT_BASIS), ("tof_3", CT_BASIS)]


def _case(name: str) -> QuantumCircuit:
    lib = _library()
    return lib[name] if name in lib else _nam(name)


def _check_output(out: QuantumCircuit, qc: QuantumCircuit, basis, cmap: CouplingMap):
    assert set(out.count_ops()) <= set(basis), out.count_ops()
    edges = set(map(tuple, cmap.get_edges()))
    for inst in out.data:
        if len(inst.qubits) == 2:
            pair = tuple(out.find_bit(q).index for q in inst.qubits)
            assert pair in edges, f"{inst.operation.name} on uncoupled {pair}"
    want = Operator(qc).data
    got = Operator.from_circuit(out).data
    assert np.allclose(got, want, atol=1e-7), "not equivalent including the global phase"


@pytest.mark.parametrize("name,basis", CASES)
def test_transpile_with_plugin(name, basis):
    qc = _case(name)
    cmap = CouplingMap.from_line(qc.num_qubits)
    kw = dict(basis_gates=basis, coupling_map=cmap, optimization_level=3, seed_transpiler=7)
    out = transpile(qc, optimization_method="quartz", **kw)
    default = transpile(qc, **kw)
    _check_output(out, qc, basis, cmap)
    assert out.size() <= default.size()


def test_preset_pass_manager_level_1_and_0():
    qc = _nam("tof_3")
    cmap = CouplingMap.from_line(5)
    for level in (0, 1):
        pm = generate_preset_pass_manager(optimization_level=level, basis_gates=NAM_BASIS,
                                          coupling_map=cmap, seed_transpiler=3,
                                          optimization_method="quartz")
        out = pm.run(qc)
        _check_output(out, qc, NAM_BASIS, cmap)
        default = generate_preset_pass_manager(optimization_level=level, basis_gates=NAM_BASIS,
                                               coupling_map=cmap, seed_transpiler=3).run(qc)
        assert out.size() <= default.size()
        if level == 0:
            assert out == default  # level 0: nothing beyond Qiskit's own stage


def test_standalone_pass_improves_and_keeps_phase_name_metadata():
    qc = _redundant("tof_3")
    qc.name = "my_tof"
    qc.metadata = {"owner": "test"}
    qc.global_phase = 0.3
    p = qp.QuartzOptimization(gate_set="nam", timeout=1.0, cost="gates", seed=0,
                              basis_gates=NAM_BASIS)
    out = PassManager([p]).run(qc)
    assert out.name == "my_tof" and out.metadata == {"owner": "test"}
    assert out.size() < qc.size() and p.last_report == ["improved"]
    assert Operator(out) == Operator(qc)  # Operator equality includes the global phase


def test_cx_cost_and_ibm_gate_set():
    qc = transpile(_redundant("barenco_tof_3"), basis_gates=IBM_BASIS, optimization_level=0)
    p = qp.QuartzOptimization(gate_set="ibm_modern", timeout=1.0, cost="cx",
                              basis_gates=IBM_BASIS)
    out = PassManager([p]).run(qc)
    assert set(out.count_ops()) <= set(IBM_BASIS)
    assert out.num_nonlocal_gates() <= qc.num_nonlocal_gates() and out.size() <= qc.size()
    assert Operator(out) == Operator(qc)


def _segments(qc: QuantumCircuit) -> tuple[list, list]:
    """Split at non-gate instructions: the unitary pieces and the instructions between them."""
    pieces, fixed, cur = [], [], QuantumCircuit(qc.num_qubits)
    for inst in qc.data:
        name = inst.operation.name
        if name in ("barrier", "measure", "reset", "if_else"):
            pieces.append(cur)
            fixed.append((name, tuple(qc.find_bit(q).index for q in inst.qubits),
                          tuple(qc.find_bit(c).index for c in inst.clbits)))
            cur = QuantumCircuit(qc.num_qubits)
        else:
            cur.append(inst.operation, [qc.find_bit(q).index for q in inst.qubits])
    pieces.append(cur)
    return pieces, fixed


def _per_wire(qc: QuantumCircuit) -> dict[int, list[str]]:
    """For each qubit, the non-gate instructions on it in order."""
    wires: dict[int, list[str]] = {}
    for inst in qc.data:
        if inst.operation.name in ("barrier", "measure", "reset", "if_else"):
            for q in inst.qubits:
                wires.setdefault(qc.find_bit(q).index, []).append(inst.operation.name)
    return wires


def test_barriers_measurements_resets_and_classical_control_stay_in_place():
    tof = _redundant("tof_3")
    qc = QuantumCircuit(5, 2, name="mixed")
    qc.compose(tof, inplace=True)
    qc.barrier()
    qc.compose(tof, inplace=True)
    qc.measure(0, 0)
    qc.barrier()  # full barriers make the non-gate instructions totally ordered
    qc.reset(1)
    qc.compose(tof, inplace=True)
    qc.barrier()
    with qc.if_test((qc.clbits[0], 1)):
        qc.x(2)
        qc.x(2)
    qc.barrier()
    qc.measure(3, 1)
    p = qp.QuartzOptimization(gate_set="nam", timeout=2.0, basis_gates=NAM_BASIS)
    out = PassManager([p]).run(qc)
    before, fixed_before = _segments(qc)
    after, fixed_after = _segments(out)
    assert fixed_after == fixed_before
    phase = float(out.global_phase) - float(qc.global_phase)
    for a, b in zip(after, before):  # each piece equal up to a phase; the phases add up exactly
        ua, ub = Operator(a).data, Operator(b).data
        k = np.unravel_index(np.argmax(np.abs(ub)), ub.shape)
        ratio = ua[k] / ub[k]
        assert np.allclose(ua, ratio * ub, atol=1e-8)
        phase += np.angle(ratio)
    assert abs(np.exp(1j * phase) - 1) < 1e-8
    assert out.size() < qc.size() and "improved" in p.last_report
    body = [i for i in out.data if i.operation.name == "if_else"][0].operation.blocks[0]
    assert [i.operation.name for i in body.data] == ["x", "x"]  # control-flow bodies untouched


def test_partial_measurements_keep_their_order_on_each_wire():
    qc = QuantumCircuit(5, 2)
    qc.compose(_redundant("tof_3"), inplace=True)
    qc.measure(0, 0)
    qc.reset(1)
    qc.compose(_redundant("barenco_tof_3"), inplace=True)
    qc.measure(4, 1)
    out = PassManager([qp.QuartzOptimization(gate_set="nam", timeout=1.0)]).run(qc)
    assert _per_wire(out) == _per_wire(qc) and out.size() < qc.size()
    assert [(i.operation.name, out.find_bit(i.clbits[0]).index) for i in out.data
            if i.operation.name == "measure"] == [("measure", 0), ("measure", 1)]


def test_results_violating_the_coupling_map_or_the_unitary_are_rejected():
    cmap = CouplingMap.from_line(3)
    p = qp.QuartzOptimization(gate_set="nam", basis_gates=NAM_BASIS, coupling_map=cmap)
    before = QuantumCircuit(3)
    before.cx(0, 1)
    before.cx(0, 1)
    before.cx(1, 2)
    original = quartz.Circuit.from_qiskit(before)
    uncoupled = QuantumCircuit(3)
    uncoupled.cx(0, 1)
    uncoupled.cx(0, 2)
    assert "coupling map" in p._reject(before, uncoupled, [0, 1, 2], original)
    wrong = QuantumCircuit(3)
    wrong.cx(0, 1)
    assert "not equivalent" in p._reject(before, wrong, [0, 1, 2], original)
    outside = QuantumCircuit(3)
    outside.swap(0, 1)
    assert "outside the basis" in p._reject(before, outside, [0, 1, 2], original)
    assert p._reject(before, before.copy(), [0, 1, 2], original) == "no improvement"
    right = QuantumCircuit(3)
    right.cx(1, 2)
    assert p._reject(before, right, [0, 1, 2], original) is None


def test_reversed_pair_allowed_only_when_the_block_used_it():
    cmap = CouplingMap([[0, 1]])  # directed 0 -> 1
    p = qp.QuartzOptimization(gate_set="nam", basis_gates=NAM_BASIS, coupling_map=cmap)
    assert p._allowed("cx", (0, 1), set()) and not p._allowed("cx", (1, 0), set())
    assert p._allowed("cx", (1, 0), {(1, 0)}) and not p._allowed("ccx", (0, 1, 2), set())


def test_stage_input_is_optimized_when_the_stage_made_the_circuit_larger():
    from qiskit.converters import circuit_to_dag, dag_to_circuit
    from qiskit.transpiler.basepasses import TransformationPass

    class Inflate(TransformationPass):
        """U -> U U^-1 U: the same unitary, three times the gates."""

        def run(self, dag):
            qc = dag_to_circuit(dag)
            return circuit_to_dag(qc.compose(qc.inverse()).compose(qc))

    qc = _nam("tof_3")
    p = qp.QuartzOptimization(gate_set="nam", timeout=2.0, basis_gates=NAM_BASIS)
    out = PassManager([qp.RecordStageInput(), Inflate(), p]).run(qc)
    assert out.size() <= qc.size()  # never worse than optimizing what the stage received
    assert p.last_report.count("improved") == 2  # both the inflated and the received circuit
    assert Operator(out) == Operator(qc)
    plain = qp.QuartzOptimization(gate_set="nam", timeout=0.5, basis_gates=NAM_BASIS)
    assert PassManager([Inflate(), plain]).run(qc).size() > 0  # no recorded input: no error


# --- processes and threads ----------------------------------------------------------------
def _small(k: int) -> QuantumCircuit:
    """A 3-qubit circuit with redundancy the default stage leaves (rz between cx pairs)."""
    qc = QuantumCircuit(3)
    for i in range(k):
        qc.h(0)
        qc.h(0)
        qc.cx(0, 1)
        qc.rz(0.1 * (i + 1), 1)
        qc.cx(0, 1)
        qc.ccx(0, 1, 2)
    qc.rz(0.05 * k, 2)
    return qc


def test_transpile_with_two_processes(monkeypatch):
    from qiskit.utils import should_run_in_parallel

    monkeypatch.setenv(qp.TIMEOUT_ENV, "0.3")
    qcs = [_small(k) for k in (1, 2, 3, 4)]
    kw = dict(basis_gates=NAM_BASIS, optimization_level=2, seed_transpiler=1)
    with should_run_in_parallel.override(True):  # Qiskit runs in-process unless told otherwise
        outs = transpile(qcs, optimization_method="quartz", num_processes=2, **kw)
    defaults = transpile(qcs, **kw)
    for qc, out, default in zip(qcs, outs, defaults):
        assert set(out.count_ops()) <= set(NAM_BASIS)
        assert np.allclose(Operator(out).data, Operator(qc).data, atol=1e-8)
        assert out.size() < default.size()  # quartz ran in the worker processes


def _in_threads(n: int, fn) -> dict[int, object]:
    """fn(i) for i < n in n threads started together: {i: result or the exception raised}."""
    import threading

    results: dict[int, object] = {}
    start = threading.Barrier(n)

    def work(i: int) -> None:
        start.wait()
        try:
            results[i] = fn(i)
        except Exception as e:  # reported by the caller with the thread's index
            results[i] = e

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def test_transpile_from_several_threads_at_once(monkeypatch):
    monkeypatch.setenv(qp.TIMEOUT_ENV, "0.3")
    bases = [NAM_BASIS, IBM_BASIS, ["rx", "rz", "cz"], NAM_BASIS]
    qcs = [_small(k + 1) for k in range(len(bases))]
    results = _in_threads(len(bases), lambda i: transpile(
        qcs[i], basis_gates=bases[i], optimization_method="quartz", optimization_level=2,
        seed_transpiler=1))
    for i, qc in enumerate(qcs):
        out = results[i]
        assert isinstance(out, QuantumCircuit), (i, out)
        assert set(out.count_ops()) <= set(bases[i])
        assert np.allclose(Operator(out).data, Operator(qc).data, atol=1e-8), i


def test_one_pass_shared_by_threads_keeps_each_runs_report_whole():
    p = qp.QuartzOptimization(gate_set="nam", timeout=0.3, seed=0, basis_gates=NAM_BASIS)
    qcs = [_redundant("tof_3") for _ in range(3)]
    outs = _in_threads(len(qcs), lambda i: PassManager([p]).run(qcs[i]))
    for i, qc in enumerate(qcs):
        assert Operator(outs[i]) == Operator(qc) and outs[i].size() < qc.size()
    assert p.last_report == ["improved"]  # one run's entries, not the three runs' interleaved


# --- stop when done -------------------------------------------------------------------------
def test_plugin_patience_default_env_and_errors(monkeypatch):
    from quartz.search.patience import AUTO, Patience

    monkeypatch.delenv(qp.PATIENCE_ENV, raising=False)
    assert qp.plugin_patience() == qp.PLUGIN_PATIENCE
    for text, want in (("none", None), ("auto", AUTO), ("1.5", Patience(1.5, 0.0, 0.0))):
        monkeypatch.setenv(qp.PATIENCE_ENV, text)
        assert qp.plugin_patience() == want
    monkeypatch.setenv(qp.PATIENCE_ENV, "soon")
    with pytest.raises(QuartzError, match="QUARTZ_QISKIT_PATIENCE must be 'auto', 'none'"):
        qp.plugin_patience()


def test_level_3_stage_on_a_small_circuit_ends_before_its_budget(monkeypatch):
    import time

    monkeypatch.delenv(qp.TIMEOUT_ENV, raising=False)
    monkeypatch.delenv(qp.PATIENCE_ENV, raising=False)
    qc = _small(2)
    t = time.monotonic()
    out = transpile(qc, basis_gates=NAM_BASIS, optimization_level=3, seed_transpiler=1,
                    optimization_method="quartz")
    assert time.monotonic() - t < 15  # level 3's budget is 30 s; the block converges first
    plain = transpile(qc, basis_gates=NAM_BASIS, optimization_level=3, seed_transpiler=1)
    assert out.size() <= plain.size()
    assert Operator(out).equiv(Operator(qc))


def test_stage_preloads_the_ecc_set_for_forked_workers():
    from quartz.pipeline import matchers

    matchers._matchers.pop("nam", None)
    pm = generate_preset_pass_manager(optimization_level=1, basis_gates=NAM_BASIS,
                                      optimization_method="quartz")
    assert pm is not None and "nam" in matchers._matchers  # loaded once, in the parent


def test_stage_resynthesizes_one_qubit_runs_unless_exact(monkeypatch):
    # Qiskit's level 3 leaves generic angles (its init stage consolidates 2-qubit blocks and
    # KAK-resynthesizes them); the stage's inexact default merges them, exact=True cannot.
    qc = QuantumCircuit(4)  # benchmarks/bench_plugin.py's example(1), written out
    qc.t(0); qc.cx(3, 1); qc.tdg(0); qc.cx(3, 2); qc.cx(2, 3); qc.x(2); qc.h(0); qc.cx(0, 2)
    qc.cx(3, 2); qc.rz(-0.5, 1); qc.h(3); qc.t(2); qc.ccx(3, 2, 0); qc.s(2); qc.ccx(3, 2, 0)
    qc.cx(1, 2); qc.cx(1, 3); qc.x(3); qc.t(3); qc.h(3)
    level3 = transpile(qc, basis_gates=NAM_BASIS, optimization_level=3, seed_transpiler=7)
    kw = dict(gate_set="nam", timeout=3.0, seed=0, basis_gates=NAM_BASIS)
    default, exact = qp.QuartzOptimization(**kw), qp.QuartzOptimization(exact=True, **kw)
    assert default.exact is False and exact.exact is True
    out, out_exact = PassManager([default]).run(level3), PassManager([exact]).run(level3)
    assert out.size() < out_exact.size() <= level3.size()
    assert Operator(out).equiv(Operator(qc)) and Operator(out_exact).equiv(Operator(qc))
    # Clifford+T has no continuous rotation: its blocks always take exact moves.
    assert qp.QuartzOptimization(gate_set="clifford_t")._exact() is True


def _toffoli_ring() -> QuantumCircuit:
    """ccx(i, i+2, i+4 mod 5) for i = 0..3: issue #43's 5-qubit case."""
    qc = QuantumCircuit(5)
    for i in range(4):
        qc.ccx(i, (i + 2) % 5, (i + 4) % 5)
    return qc


def _toffoli_ring_on_a_cz_line():
    """(a 5-qubit CZ backend on a line, the Toffoli ring through level 3 onto it)."""
    from qiskit.providers.fake_provider import GenericBackendV2

    backend = GenericBackendV2(5, basis_gates=["cz", "rz", "sx", "x"],
                               coupling_map=CouplingMap.from_line(5), seed=7)
    return backend, transpile(_toffoli_ring(), backend=backend, optimization_level=3,
                              seed_transpiler=1)


def test_a_routed_block_is_searched_on_the_coupling_map_not_thrown_away():
    """Issue #43's line case: on main the search's rewrites put cx on (2, 0), off the line,
    and the stage kept the whole block ("kept: cx on (2, 0) is not supported by the coupling
    map"). The search now keeps to the map's edges in every move."""
    from qiskit.transpiler.passes import CheckMap

    qc = _toffoli_ring()
    qc.cx(0, 4)
    qc.cx(1, 3)
    qc.h(2)
    qc.cx(2, 0)
    line = CouplingMap.from_line(5)
    routed = transpile(qc, basis_gates=NAM_BASIS, coupling_map=line, optimization_level=3,
                       seed_transpiler=1)
    opt = qp.QuartzOptimization(timeout=4, seed=0, basis_gates=NAM_BASIS, coupling_map=line)
    out = PassManager([opt]).run(routed)
    assert not any("coupling map" in r for r in opt.last_report), opt.last_report
    assert "improved" in opt.last_report
    assert out.count_ops()["cx"] < routed.count_ops()["cx"] and out.size() < routed.size()
    check = PassManager([CheckMap(line)])
    check.run(out)
    assert check.property_set["is_swap_mapped"]
    assert Operator(out).equiv(Operator(routed))


def test_heron_s_cz_basis_gets_its_own_gate_set_and_the_stage_acts():
    """Issue #43: with IBM Heron's {cz, rz, sx, x} no quartz gate set fitted, and the stage's
    outputs were level 3's, gate for gate. ibm_heron is that set (its ECC set generated and
    proven like the others); on a routed CZ line circuit the stage now removes gates, never
    adds a two-qubit one, and keeps to the basis and the map."""
    assert qp.select_gate_set(["cz", "rz", "sx", "x"]) == ("ibm_heron", True)
    backend, plain = _toffoli_ring_on_a_cz_line()
    opt = qp.QuartzOptimization(timeout=3, seed=0, target=backend.target)
    out = PassManager([opt]).run(plain)
    two = [sum(1 for i in c.data if len(i.qubits) == 2) for c in (plain, out)]
    assert opt.gate_set == "ibm_heron" and "improved" in opt.last_report
    assert out.size() < plain.size() and two[1] <= two[0]
    assert set(out.count_ops()) <= {"cz", "rz", "sx", "x"}
    assert Operator(out).equiv(Operator(plain))


def test_the_stages_put_two_qubit_gates_first_and_never_lower_the_success_probability(
        monkeypatch):
    """Issue #43: the stage minimised all gates and traded one cx for several sx, and its
    rewrites moved cx gates onto worse-calibrated qubit pairs (lower ESP with fewer gates).
    The stages' cost now ranks two-qubit gates first, and a block's result is kept only if
    its estimated success probability on the target is not lower."""
    from qiskit.providers.fake_provider import GenericBackendV2
    from qiskit.transpiler import InstructionProperties

    assert qp.stage_cost() == "two_qubit"
    monkeypatch.setenv(qp.COST_ENV, "gates")
    assert qp.stage_cost() == "gates"
    monkeypatch.setenv(qp.COST_ENV, "fastest")
    with pytest.raises(QuartzError, match="fastest"):
        qp.stage_cost()
    backend = GenericBackendV2(2, basis_gates=NAM_BASIS, coupling_map=[[0, 1], [1, 0]], seed=7)
    backend.target.update_instruction_properties("cx", (0, 1), InstructionProperties(error=1e-3))
    backend.target.update_instruction_properties("cx", (1, 0), InstructionProperties(error=0.2))
    qc = QuantumCircuit(2)  # cx(1, 0) written with the well-calibrated cx(0, 1)
    qc.h([0, 1])
    qc.cx(0, 1)
    qc.h([0, 1])
    for target, kept in ((backend.target, True), (None, False)):
        opt = qp.QuartzOptimization(timeout=2, seed=0, cost="two_qubit", target=target,
                                    basis_gates=None if target else NAM_BASIS)
        out = PassManager([opt]).run(qc)
        assert Operator(out).equiv(Operator(qc))
        if kept:  # the shorter cx(1, 0) would cost 0.2 of success probability: the search
            # writes cx in the better-calibrated direction only, and the block is kept
            assert opt.last_report == ["kept: no improvement"]
            assert [tuple(out.find_bit(q).index for q in i.qubits) for i in out.data
                    if i.operation.name == "cx"] == [(0, 1)]
            reversed_cx = QuantumCircuit(2)
            reversed_cx.cx(1, 0)
            assert opt._reject(qc, reversed_cx, [0, 1], quartz.Circuit.from_qiskit(qc)) == \
                "lower estimated success probability on the target"
        else:  # no error data: the shorter circuit, cx(1, 0) alone, is taken
            assert opt.last_report == ["improved"] and out.size() == 1


def test_the_stage_reports_the_estimated_success_probability_before_and_after():
    """Issue #43: the stage reports the circuit's estimated success probability (product of
    1 - error over its gates, from the target) before and after it, in property_set[ESP]."""
    backend, plain = _toffoli_ring_on_a_cz_line()
    opt = qp.QuartzOptimization(timeout=3, seed=0, target=backend.target)
    pm = PassManager([opt])
    out = pm.run(plain)

    def esp(c):
        p = 1.0
        for inst in c.data:
            props = backend.target[inst.operation.name].get(
                tuple(c.find_bit(q).index for q in inst.qubits))
            p *= 1.0 - (props.error or 0.0) if props is not None else 1.0
        return p

    before, after = pm.property_set[qp.ESP]
    assert (before, after) == opt.last_esp
    assert before == pytest.approx(esp(plain), rel=1e-9) and after == pytest.approx(esp(out), rel=1e-9)
    assert after >= before
    assert qp.QuartzOptimization(timeout=1, basis_gates=NAM_BASIS).last_esp is None
