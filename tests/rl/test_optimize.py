"""optimize_rl: outputs equivalent to inputs (phase included), never worse, clear errors."""
import time

import numpy as np
import pytest

import quartz
from rl_helpers import BENCH, bench, equivalent, random_nam_circuit
from quartz.errors import QuartzError
from quartz.rl import optimize_rl
from quartz.rl.agent import torch
from quartz.rl.model import ActorCritic, ModelConfig
from quartz.search import search
from quartz.check import check_equivalent


@pytest.fixture(scope="module")
def small_model(nam_ecc):
    torch.manual_seed(0)
    return ActorCritic(ModelConfig(len(nam_ecc.transformations()) + 1, hidden=16, layers=2)).eval()


def test_outputs_are_equivalent_and_not_worse(nam_ecc, small_model):
    rng = np.random.default_rng(11)
    circuits = [bench("tof_3")] + [random_nam_circuit(rng, qubits=3, gates=30) for _ in range(3)]
    for c in circuits:
        out = optimize_rl(c, nam_ecc, timeout=1.5, seed=1, model=small_model)
        assert len(out) <= len(c)
        # independent check: the unitaries agree exactly, global phase included
        np.testing.assert_allclose(out.unitary(), c.unitary(), atol=1e-8)
    assert len(optimize_rl(circuits[1], nam_ecc, timeout=1.5, seed=1, model=small_model)) < 30


def test_fine_tuning_keeps_the_given_model(nam_ecc, small_model):
    before = {k: v.clone() for k, v in small_model.state_dict().items()}
    optimize_rl(bench("tof_3"), nam_ecc, timeout=1.0, seed=0, model=small_model, fine_tune=True)
    assert all(torch.equal(v, small_model.state_dict()[k]) for k, v in before.items())


def test_errors(nam_ecc, small_model, tmp_path):
    with pytest.raises(QuartzError, match="outside the ECC set's gate set"):
        optimize_rl(quartz.Circuit(2).cz(0, 1), nam_ecc, timeout=1.0, model=small_model)
    with pytest.raises(QuartzError, match="timeout must be a non-negative"):
        optimize_rl(quartz.Circuit(1).h(0), nam_ecc, timeout=-1, model=small_model)
    wrong = ActorCritic(ModelConfig(5, hidden=8, layers=1))
    with pytest.raises(QuartzError, match="transformations"):
        optimize_rl(quartz.Circuit(1).h(0), nam_ecc, timeout=1.0, model=wrong)
    with pytest.raises(QuartzError, match="does not exist"):
        optimize_rl(quartz.Circuit(1).h(0), nam_ecc, timeout=1.0, model=tmp_path / "none.pt")


def test_a_wrong_result_raises_and_check_false_skips_the_check(nam_ecc, small_model, monkeypatch):
    import quartz.rl.optimize as rl_optimize

    c = quartz.Circuit(2).h(0).cx(0, 1).rz(0.5, 1).rz(-0.5, 1)
    wrong = quartz.Circuit(2).h(0).cx(0, 1).z(1)
    monkeypatch.setattr(rl_optimize, "_search_then_policy", lambda *a, **k: (wrong, False))
    with pytest.raises(quartz.EquivalenceError, match="not equivalent to its input.*unitary"):
        optimize_rl(c, nam_ecc, timeout=1.0, model=small_model)
    assert optimize_rl(c, nam_ecc, timeout=1.0, model=small_model, check=False) is wrong


def test_wide_circuits_are_checked_without_simulating_their_states(nam_ecc, small_model):
    """The RL check simulated random states of every circuit above 10 qubits: 2^30 amplitudes
    (16 GiB a state) for gf2^10_mult. It is now the library's check (a path-sum proof here)."""
    c = quartz.Circuit(30)
    for q in range(29):
        c.h(q).cx(q, q + 1).rz(0.25, q + 1).rz(-0.25, q + 1).h(q)
    t = time.monotonic()
    out = optimize_rl(c, nam_ecc, timeout=3.0, seed=0, model=small_model)
    assert len(out) <= len(c) - 2 * 29  # at least the rz pairs are gone
    assert time.monotonic() - t < 30
    chk = check_equivalent(c, out, timeout=20)
    assert chk.ok and chk.proof


def test_final_greedy_pass_is_the_search_s(nam_matcher, monkeypatch):
    import quartz.rl.optimize as rl_optimize

    calls = []

    def spy(*args, **kw):
        calls.append(kw)
        return search(*args, **kw)

    monkeypatch.setattr(rl_optimize, "search", spy)
    c = quartz.Circuit(2).h(0).h(0).cx(0, 1).cx(0, 1).x(1)
    out = rl_optimize._greedy(nam_matcher, c, "gates", time.monotonic() + 5.0)
    assert len(out) == 1 and equivalent(c, out)
    assert len(calls) == 1 and calls[0]["greedy_only"] and calls[0]["cost"] == "gates"
    assert not hasattr(quartz.rl, "greedy")  # no second greedy implementation


def test_final_greedy_pass_gets_its_minimum_time(nam_matcher):
    import quartz.rl.optimize as rl_optimize

    c = quartz.Circuit(2).h(0).h(0).cx(0, 1).cx(0, 1).x(1)
    out = rl_optimize._greedy(nam_matcher, c, "gates", time.monotonic() - 10.0, min_seconds=0.5)
    assert len(out) == 1  # a deadline already past still leaves min_seconds for the pass


def test_quartz_optimize_dispatches_to_rl(nam_ecc, small_model, tmp_path):
    from quartz.rl.checkpoint import ecc_fingerprint, save_checkpoint, xfer_keys

    xfers = nam_ecc.transformations()
    path = tmp_path / "small.pt"
    save_checkpoint(path, small_model, {"ecc_fingerprint": ecc_fingerprint(xfers),
                                        "xfer_keys": xfer_keys(xfers)})
    c = bench("tof_3")
    out = quartz.optimize(c, "nam", method="rl", model=str(path), timeout=3.0, seed=0)
    assert isinstance(out, quartz.Circuit) and len(out) < len(c)  # preprocessing + RL + greedy
    np.testing.assert_allclose(out.unitary(), c.unitary(), atol=1e-8)
    # the same run straight on optimize_rl, with the ECC set given as a Matcher or a list
    from quartz.search import Matcher

    for rules in (Matcher(xfers), xfers):
        out2 = optimize_rl(c, rules, timeout=1.0, seed=0, model=path)
        assert equivalent(c, out2) and len(out2) <= len(c)


def test_compare_table(nam_ecc, small_model, tmp_path):
    from quartz.rl.checkpoint import ecc_fingerprint, save_checkpoint, xfer_keys
    from quartz.rl.compare import compare, main, markdown

    xfers = nam_ecc.transformations()
    path = tmp_path / "small.pt"
    save_checkpoint(path, small_model, {"ecc_fingerprint": ecc_fingerprint(xfers),
                                        "xfer_keys": xfer_keys(xfers)})
    src = str(BENCH / "tof_3.qasm")
    rows = compare([src], timeout=0.5, model=str(path))
    assert rows[0]["circuit"] == "tof_3" and rows[0]["original"] == 45
    assert rows[0]["search"] <= 45 and rows[0]["rl"] <= 45
    table = markdown(rows)
    assert table.splitlines()[0].startswith("| circuit | original | search | RL")
    assert "| tof_3 | 45 |" in table
    r = rows[0]
    verdict = ("fewer gates on 1" if r["rl"] < r["search"] else
               "more on 1" if r["rl"] > r["search"] else "equal on 1")
    assert verdict in table and "1 - geomean: search " in table
    js = tmp_path / "rows.json"
    assert main([src, "--timeout", "0.3", "--model", str(path), "--json", str(js)]) == 0
    import json

    assert [x["circuit"] for x in json.loads(js.read_text())] == ["tof_3"]


def test_shipped_model_is_the_default(nam_ecc):
    from quartz.rl import default_model_path
    from quartz.rl.checkpoint import action_map, load_checkpoint

    path = default_model_path(nam_ecc.gate_set)
    assert path.name == "rl_nam.pt" and path.stat().st_size < 5 * 2**20
    model, meta, opt = load_checkpoint(path)
    assert opt is None and action_map(meta, nam_ecc.transformations()) is None
    # trained on the curriculum (quartz.rl.curriculum): of the Nam suite, Quarl's six only
    from quartz.rl.curriculum import QUARL_PRETRAINING

    suite = {p.stem for p in BENCH.glob("*.qasm")}
    assert set(meta["train_circuits"]) & suite == set(QUARL_PRETRAINING)
    assert meta["train_seconds"] >= 55 * 60  # about an hour of wall time (BENCHMARKS.md, RL)
    c = bench("mod5_4")
    out = optimize_rl(c, timeout=2.0, seed=0)  # model=None: the shipped one, ECC set: Nam's
    assert len(out) <= len(c) and equivalent(c, out)
    out = quartz.optimize(c, "nam", method="rl", timeout=2.0, seed=0)  # preprocess + RL + greedy
    assert len(out) < len(c) and equivalent(c, out)
    with pytest.raises(QuartzError, match="no shipped RL model"):
        default_model_path(("h", "cz"))


def test_default_model_path_takes_a_gate_set_name_or_object():
    from quartz.gatesets import get_gate_set
    from quartz.rl import default_model_path

    want = default_model_path(("h", "x", "rz", "cx"))
    assert default_model_path("nam") == want  # was read as the gates {a, m, n}
    assert default_model_path(get_gate_set("nam")) == want
    assert default_model_path("clifford_t").name == "rl_clifford_t.pt"
    with pytest.raises(QuartzError, match="no shipped RL model for gate set"):
        default_model_path(("h", "cz", "rz"))


def test_every_built_in_gate_set_ships_a_model_for_its_ecc_set():
    """A model per built-in gate set, trained for that set's shipped ECC set, all within the
    wheel's 10 MB budget for models."""
    from quartz import ecc_sets
    from quartz.gatesets.gate_set import GATE_SETS
    from quartz.rl import default_model_path
    from quartz.rl.checkpoint import check_compatible, load_checkpoint
    from quartz.rl.optimize import shipped_model_gate_sets

    assert shipped_model_gate_sets() == list(GATE_SETS)
    total = 0
    for name in GATE_SETS:
        path = default_model_path(name)
        total += path.stat().st_size
        model, meta, _ = load_checkpoint(path)
        check_compatible(meta, ecc_sets.load(name).transformations(), path)
        assert sorted(meta["gate_set"]) == sorted(GATE_SETS[name].gates), name
    assert total <= 10 * 2**20


def test_interrupt_keeps_the_best_so_far(nam_ecc, small_model, monkeypatch):
    import time

    import quartz.rl.rollout as rollout

    real, calls, bests = rollout.run_episode, [], []

    def episode(*a, **k):
        calls.append(1)
        if len(calls) == 4:  # Ctrl-C (or the CLI's SIGTERM handler) during the 4th episode
            raise KeyboardInterrupt
        ep = real(*a, **k)
        bests.append(ep.best_cost)
        return ep

    monkeypatch.setattr(rollout, "run_episode", episode)
    c = random_nam_circuit(np.random.default_rng(3), qubits=3, gates=30)
    t = time.monotonic()
    out = optimize_rl(c, nam_ecc, timeout=60, seed=0, model=small_model, fine_tune=False)
    assert time.monotonic() - t < 20 and len(calls) == 4  # stopped, not run to the budget
    assert len(out) <= min(bests) < len(c)  # the episodes' best is kept (then a greedy pass)
    np.testing.assert_allclose(out.unitary(), c.unitary(), atol=1e-8)


def test_rl_uses_the_requested_gate_set_and_names_the_sets_with_models(monkeypatch):
    """optimize(..., 'ibm_modern', method='rl') used Nam's ECC set and failed with "convert it
    first"; now it uses ibm_modern's set, and without a model it says which sets have one."""
    from quartz import ecc_sets
    from quartz.rl.optimize import shipped_model_gate_sets

    import quartz.rl.optimize as rl_optimize

    c = quartz.Circuit(2).sx(0).sx(0).cx(0, 1).rz(0.5, 1).rz(-0.25, 1).x(1).x(1)
    out = quartz.optimize(c, "ibm_modern", method="rl", timeout=2.0, seed=0)  # shipped model
    assert set(out.count_ops()) <= {"rz", "sx", "x", "cx"} and len(out) <= 4
    with monkeypatch.context() as m:  # a gate set without a shipped model
        m.delitem(rl_optimize.DEFAULT_MODELS, ("cx", "rz", "sx", "x"))
        with pytest.raises(QuartzError) as e:
            quartz.optimize(c, "ibm_modern", method="rl", timeout=1.0)
        msg = str(e.value)
        assert "gate set ibm_modern {cx, rz, sx, x}" in msg
        assert "shipped models: nam, clifford_t, ibm, ibm_heron, rigetti, ionq" in msg
        assert "convert it first" not in msg and shipped_model_gate_sets() == [
            "nam", "clifford_t", "ibm", "ibm_heron", "rigetti", "ionq"]
    ecc = ecc_sets.load("ibm_modern")
    torch.manual_seed(0)
    net = ActorCritic(ModelConfig(len(ecc.transformations()) + 1, hidden=8, layers=1)).eval()
    out = quartz.optimize(c, "ibm_modern", method="rl", model=net, timeout=2.0, seed=0)
    assert set(out.count_ops()) <= {"rz", "sx", "x", "cx"} and len(out) <= 4
    np.testing.assert_allclose(out.unitary(), c.unitary(), atol=1e-8)


def test_rl_runs_in_the_time_the_search_leaves(nam_ecc, small_model, monkeypatch):
    """The search runs first; only when it converges do the policy's episodes start, from its
    result, each round followed by the search from the episodes' best; a search that uses the
    whole budget leaves the policy nothing; settings.search=False: episodes and greedy alone."""
    import quartz.rl.optimize as rl_optimize
    from quartz.rl.optimize import RLSettings

    calls, starts, results, patience = [], [], [], [0.2]

    def spy(circuit, *args, **kw):
        calls.append((len(circuit), kw.get("greedy_only", False)))
        if not kw.get("greedy_only"):
            kw["patience"] = patience[0]  # 0.2 s without a better circuit: converged
        r = search(circuit, *args, **kw)
        results.append(len(r.circuit))
        return r

    real_loop = rl_optimize._rl_loop

    def loop_spy(start, *args, **kw):
        starts.append(len(start))
        return real_loop(start, *args, **kw)

    monkeypatch.setattr(rl_optimize, "search", spy)
    monkeypatch.setattr(rl_optimize, "_rl_loop", loop_spy)
    c = bench("barenco_tof_3")
    out = optimize_rl(c, nam_ecc, timeout=4.0, seed=0, model=small_model)
    assert calls[0] == (len(c), False) and not any(g for _, g in calls)
    assert len(starts) >= 1 and len(calls) == len(starts) + 1  # a search after each round
    assert starts[0] == results[0] < len(c)  # the episodes start from the first search's result
    assert starts[1:] == [min(results[:k + 1]) for k in range(1, len(starts))]  # from the best
    assert len(out) == min(results) and equivalent(c, out)
    calls.clear(), starts.clear(), results.clear()
    patience[0] = None  # the search spends the whole budget: no time left for the policy
    out = optimize_rl(c, nam_ecc, timeout=2.0, seed=0, model=small_model)
    assert starts == [] and len(calls) == 1 and len(out) == results[0] and equivalent(c, out)
    calls.clear(), starts.clear()
    out = optimize_rl(c, nam_ecc, timeout=2.0, seed=0, model=small_model,
                      settings=RLSettings(search=False))
    assert starts == [len(c)] and [g for _, g in calls] == [True] and equivalent(c, out)


def test_rl_search_gets_the_same_exact_1q_as_the_search_in_rigetti(monkeypatch):
    """method='rl' runs the search with the same polish settings as method='search': in
    Rigetti's set that includes the exact rx/rz run merging (quartz.pipeline.polish.exact_1q_for)."""
    import quartz.rl.optimize as rlopt

    seen = []
    real = rlopt.search

    def spy(*a, **k):
        seen.append(k.get("exact_1q"))
        return real(*a, **k)

    monkeypatch.setattr(rlopt, "search", spy)
    c = quartz.load(str(BENCH.parent / "rigetti" / "tof_3.qasm"))
    out = quartz.optimize(c, "rigetti", method="rl", timeout=3, seed=1)
    assert seen and all(seen)
    assert len(out) < 110  # 127 without the run merging at 10 s


def test_rl_races_ionq_s_two_starts_as_the_search_does(monkeypatch):
    """In IonQ's set method='search' races the Nam route's start against the set's own;
    method='rl' did not, and ended 1-6 gates behind the search at 10 s on Toffoli circuits
    (tof_3 36 vs 33, tof_4 55 vs 49). Now it races them too and goes on from the winner."""
    import quartz.pipeline.rl_stage as rl_stage

    raced = []
    real = rl_stage.race_starts

    def spy(starts, *a, **k):
        out = real(starts, *a, **k)
        raced.append((len(starts), len(out[1])))
        return out

    monkeypatch.setattr(rl_stage, "race_starts", spy)
    c = quartz.load(str(BENCH.parent / "nam-ccz" / "tof_3.qasm"))
    report = {}
    out = quartz.optimize(c, "ionq", method="rl", timeout=6, seed=1, report=report)
    assert len(raced) == 1 and raced[0][0] == 2 and report["start"] in ("own", "nam_route")
    assert len(out) <= raced[0][1]  # never worse than the race's winner
    assert report["check"]["ok"] and np.allclose(out.unitary(), c.unitary(), atol=1e-8)


def test_the_shipped_model_loads_beside_the_first_search(nam_ecc, monkeypatch):
    """With the shipped model the first search starts at once: the model (torch's import, the
    file) loads on another thread while it runs, so method='rl' gives the search the time
    method='search' does; a model the user passes is still loaded before any work."""
    import threading

    import quartz.rl.optimize as rl_optimize

    searching = threading.Event()
    seen: list[bool] = []
    wait = [10.0]
    real_load, real_search = rl_optimize._load_model, rl_optimize.search

    def load_spy(*args, **kw):
        seen.append(searching.wait(timeout=wait[0]))  # True: the search had started
        return real_load(*args, **kw)

    def search_spy(*args, **kw):
        searching.set()
        return real_search(*args, **kw)

    monkeypatch.setattr(rl_optimize, "_load_model", load_spy)
    monkeypatch.setattr(rl_optimize, "search", search_spy)
    c = bench("tof_3")
    out = optimize_rl(c, nam_ecc, timeout=6.0, seed=0)
    assert seen == [True] and len(out) <= len(c) and equivalent(c, out)
    searching.clear(), seen.clear()
    wait[0] = 0.5
    path = rl_optimize.default_model_path("nam")
    out = optimize_rl(c, nam_ecc, timeout=2.0, seed=0, model=path)  # a file the user names
    assert seen == [False] and equivalent(c, out)  # loaded (and checked) before the search


def test_ctrl_c_in_the_first_search_does_not_wait_for_the_model(nam_ecc, monkeypatch):
    """Ctrl-C while the shipped model is still loading returns the search's best at once: the
    loader (torch's import, seconds in a cold process) is not joined after an interrupt."""
    import threading

    import quartz.rl.optimize as rl_optimize
    from quartz.search.driver import SearchResult

    release, loads = threading.Event(), []

    def slow_load(*args, **kw):  # a loader that finishes only when the test lets it
        loads.append(1)
        release.wait(timeout=60)
        raise RuntimeError("the model was waited for")

    c = bench("tof_3")
    best = search(c, nam_ecc, timeout=1.0, seed=0, progress=False).circuit

    def interrupted_search(circuit, *args, **kw):  # the search's own Ctrl-C: best so far
        return SearchResult(best, len(circuit), len(best), 0.1, interrupted=True)

    monkeypatch.setattr(rl_optimize, "_load_model", slow_load)
    monkeypatch.setattr(rl_optimize, "search", interrupted_search)
    done: list = []
    worker = threading.Thread(target=lambda: done.append(optimize_rl(c, nam_ecc, timeout=30.0)),
                              daemon=True)
    worker.start()
    worker.join(timeout=20)
    returned = not worker.is_alive()
    release.set()
    worker.join(timeout=20)
    assert loads == [1] and returned  # before: blocked in the loader's join until released
    assert len(done) == 1 and len(done[0]) == len(best) < len(c)
    assert equivalent(c, done[0])


def test_a_missing_torch_is_named_before_any_work(monkeypatch):
    import importlib.util

    from quartz.rl._deps import check_torch_installed

    check_torch_installed()  # installed here: no error
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch_geometric" else real(name, *a))
    with pytest.raises(QuartzError, match=r"needs torch and torch-geometric \(torch_geometric is missing\)"):
        check_torch_installed()
    with pytest.raises(QuartzError, match="torch_geometric is missing"):
        optimize_rl(bench("tof_3"), timeout=1.0)
