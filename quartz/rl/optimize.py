"""`optimize_rl`: optimize a circuit with the search and the learned policy, fine-tuning the
policy on it within the budget.

The search runs until it converges; the time it leaves goes to rounds of the policy's episodes,
each followed by the search again (RLSettings). The best circuit of all is kept and checked
for equivalence with the input (global phase included) before it is returned.
"""
from __future__ import annotations

import copy
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from quartz.circuit import Circuit
from quartz.errors import EquivalenceError, QuartzError
from quartz.rl._deps import check_torch_installed, device
from quartz.search import search

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
CHECK_SHARE = 0.1  # of the timeout, kept for the check of the result (with check=True)
log = logging.getLogger("quartz")
# The shipped model of each built-in gate set (key: its sorted gates), trained for the gate
# set's shipped ECC set by `quartz rl train` (commands and times in BENCHMARKS.md, "RL").
DEFAULT_MODELS = {
    ("cx", "h", "rz", "x"): "rl_nam.pt",
    ("cx", "h", "s", "sdg", "t", "tdg", "x"): "rl_clifford_t.pt",
    ("cx", "u1", "u2", "u3"): "rl_ibm.pt",
    ("cx", "rz", "sx", "x"): "rl_ibm_modern.pt",
    ("cz", "rz", "sx", "x"): "rl_ibm_heron.pt",
    ("cz", "rx", "rz"): "rl_rigetti.pt",
    ("rx", "rxx", "ry", "rz"): "rl_ionq.pt",
}


@dataclass
class RLSettings:
    """Inference knobs of optimize_rl."""

    fine_tune: bool = True
    temperature: float | None = None  # None: Quarl's hit-rate temperature
    max_steps: int = 100
    max_rise: float = 6.0
    min_steps: int = 10  # steps before the stop action is offered
    reward: str = "best"  # fine-tuning's reward (quartz.rl.env.step_reward), as in training
    greedy_share: float = 0.15  # without search: share of the budget for the final greedy pass
    fine_tune_batch: int = 128
    # The policy in the time the search leaves: the search (quartz.search.search, anneal,
    # patience 'auto') runs first, for up to search_share of the budget; only the time it
    # leaves by converging goes to the policy, in rounds: episodes from the best circuit so far
    # (with per-circuit fine-tuning) for 1 - final_search_share of the time left, then the
    # search from the episodes' best until it converges again or the budget ends. A search that
    # never converges leaves the policy no time, so method='rl' never gives the search less
    # time than method='search' does. search=False: the episodes alone, then the greedy pass.
    search: bool = True
    search_share: float = 1.0
    final_search_share: float = 0.3
    min_round: float = 1.0  # seconds: a shorter remainder starts no new round


def default_model_path(gate_set) -> Path:
    """The shipped model for a gate set (a name such as 'nam', a GateSet or its gate names),
    or a QuartzError when there is none."""
    if isinstance(gate_set, str):  # a name, not a sequence of one-letter gates
        from quartz.gatesets import get_gate_set

        gate_set = get_gate_set(gate_set)
    label = getattr(gate_set, "name", None) if hasattr(gate_set, "gates") else None
    gates = tuple(sorted(gate_set.gates if hasattr(gate_set, "gates") else gate_set))
    name = DEFAULT_MODELS.get(gates)
    if name is None or not (DATA_DIR / name).is_file():
        have = ", ".join(shipped_model_gate_sets()) or "none"
        what = f"{label} {{{', '.join(gates)}}}" if label else f"{{{', '.join(gates)}}}"
        raise QuartzError(f"no shipped RL model for gate set {what} (shipped models: {have}); "
                          f"train one with 'quartz rl train --gateset {label or 'NAME'}' and pass "
                          "it as model= (or use method='search')")
    return DATA_DIR / name


def shipped_model_gate_sets() -> list[str]:
    """Names of the built-in gate sets that have a shipped RL model."""
    from quartz.gatesets.gate_set import GATE_SETS

    files = {n: DEFAULT_MODELS.get(tuple(sorted(gs.gates))) for n, gs in GATE_SETS.items()}
    return [n for n, f in files.items() if f is not None and (DATA_DIR / f).is_file()]


def _greedy(matcher, circuit: Circuit, cost, deadline: float, min_seconds: float = 0.5) -> Circuit:
    """The search's greedy pass (cost-reducing transformations until none is left)."""
    # the greedy pass is cheap: it always gets a little time, even when the RL loop overran
    left = max(deadline - time.monotonic(), min_seconds)
    return search(circuit, matcher, cost=cost, timeout=left, greedy_only=True,
                  progress=False).circuit


def _rules(ecc_set):
    """(Matcher, gate set) from an ECCSet, a shipped set name or file, a Matcher or a list of
    Transformations (default: the shipped Nam set)."""
    from quartz.search import Matcher

    if ecc_set is None or isinstance(ecc_set, (str, os.PathLike)):
        from quartz.ecc_sets import load

        ecc_set = load("nam" if ecc_set is None else ecc_set)
    if isinstance(ecc_set, Matcher):
        m = ecc_set
    elif hasattr(ecc_set, "transformations") and callable(ecc_set.transformations):
        m = Matcher(ecc_set.transformations())
    else:
        m = Matcher(list(ecc_set))
    gates = getattr(ecc_set, "gate_set", None)
    if gates is None:  # a bare list of transformations: the gates its circuits use
        gates = sorted({g.name for t in m.transformations for c in (t.source, t.target) for g in c})
    return m, tuple(gates)


def _load_model(model, xfers, dev):
    """(network, action mapping or None): a copy of a given ActorCritic, or a model file."""
    from quartz.rl.checkpoint import action_map, load_checkpoint
    from quartz.rl.model import ActorCritic

    if isinstance(model, ActorCritic):
        if model.config.num_actions != len(xfers) + 1:
            raise QuartzError(f"the RL model has {model.config.num_actions - 1} transformations, "
                              f"the ECC set {len(xfers)}")
        return copy.deepcopy(model).to(dev).eval(), None  # never touch the caller's model
    net, meta, _ = load_checkpoint(model, dev)
    return net, action_map(meta, xfers, f"model {model}")


def optimize_rl(circuit: Circuit, ecc_set=None, cost="gates", timeout: float = 60.0,
                seed: int | None = None, model=None, *, settings: RLSettings | None = None,
                fine_tune: bool | None = None, threads: int | None = None,
                polish: str | None = None, check: bool = True, exact_1q: bool = False) -> Circuit:
    """Optimize `circuit` with the search and the RL policy for about `timeout` seconds; returns
    the best circuit (checked equivalent).

    The search runs first, until it converges; the time it leaves goes to rounds of the policy's
    episodes from the best circuit so far (fine-tuning a copy of the model on this circuit),
    each followed by the search from the best circuit they found, so the policy's moves are a
    way out of the search's local minimum (RLSettings). `threads`, `polish` and `exact_1q` are
    the search's (quartz.search.search). `check`: the result is checked against the input by
    quartz.check.check_equivalent (CHECK_SHARE of the budget is kept for it; a
    difference raises EquivalenceError); quartz.optimize, which checks its result itself,
    turns it off. Ctrl-C (KeyboardInterrupt) ends the run early, keeping the best so far."""
    check_torch_installed()  # a clear error before any work; the import itself may wait
    from quartz.rl.env import cost_function

    t0 = time.monotonic()
    s = copy.copy(settings or RLSettings())
    if fine_tune is not None:
        s.fine_tune = fine_tune
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0:
        raise QuartzError(f"timeout must be a non-negative number of seconds, got {timeout!r}")
    matcher, gate_set = _rules(ecc_set)
    extra = set(circuit.count_ops()) - set(gate_set)
    if extra:
        raise QuartzError(f"the circuit has gates {sorted(extra)} outside the ECC set's gate set "
                          f"{{{', '.join(gate_set)}}}; convert it first")
    xfers = matcher.transformations
    if model is None and s.search:
        # The shipped model loads beside the first search (importing torch takes seconds that
        # method='search' spends searching); a model the user passes is checked before any work.
        loading = _BackgroundLoad(default_model_path(gate_set), xfers)
        get_model = loading.result
    else:
        dev = device()
        net, mapping = _load_model(default_model_path(gate_set) if model is None else model, xfers, dev)
        get_model = lambda: (net, mapping, dev)  # noqa: E731
    cost_fn = cost_function(cost)
    seed = 0 if seed is None else int(seed)
    deadline = t0 + timeout * (1 - CHECK_SHARE if check else 1)
    if s.search:
        out, interrupted = _search_then_policy(circuit, get_model, matcher, cost, cost_fn,
                                               deadline, timeout, seed, s, threads, polish,
                                               exact_1q)
        if not interrupted:  # a model that failed to load is an error even where it got no
            get_model()      # time; after Ctrl-C the best so far returns without waiting for it
    else:
        net, mapping, dev = get_model()
        best, interrupted = _policy(circuit, net, matcher, mapping, cost,
                                    deadline - s.greedy_share * timeout, seed, dev, s)
        out = _greedy(matcher, best, cost, time.monotonic() if interrupted else deadline,
                      0.2 if interrupted else min(2.0, 0.15 * timeout))
    if cost_fn(out) > cost_fn(circuit):
        out = circuit
    if check:
        _check(circuit, out, max(1.0, t0 + timeout - time.monotonic()))
    out.name = circuit.name
    return out


def _check(circuit: Circuit, out: Circuit, seconds: float) -> None:
    """The library's equivalence check of out against circuit: EquivalenceError on a
    difference, a logged warning when nothing concludes within `seconds`."""
    from quartz.check import check_equivalent

    chk = check_equivalent(circuit, out, timeout=seconds)
    if chk.ok is False:
        raise EquivalenceError(
            f"RL output ({len(out)} gates) is not equivalent to its input ({len(circuit)} "
            f"gates; {chk.method}: {chk.detail}); this is a bug in quartz, please report it")
    if chk.ok is None:
        log.warning("RL output not checked for equivalence: %s (%.1f s)", chk.detail, chk.seconds)


class _BackgroundLoad:
    """A model file loaded on a low-priority thread: result() waits for it (and raises what
    loading raised)."""

    def __init__(self, path: Path, xfers) -> None:
        self._out: tuple | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(path, xfers), daemon=True,
                                        name="quartz-rl-model")
        self._thread.start()

    def _run(self, path: Path, xfers) -> None:
        try:
            try:  # Linux: this thread only; it yields the cores to the search's threads
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
            except (AttributeError, OSError):
                pass
            dev = device()
            net, mapping = _load_model(path, xfers, dev)
            self._out = (net, mapping, dev)
        except BaseException as e:  # handed to the caller of result()
            self._error = e

    def result(self) -> tuple:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._out is not None
        return self._out


def _search_then_policy(circuit: Circuit, get_model, matcher, cost, cost_fn, deadline: float,
                        timeout: float, seed: int, s: RLSettings, threads, polish,
                        exact_1q: bool = False) -> tuple[Circuit, bool]:
    """The search until it converges, then rounds of policy episodes and the search again from
    their best, until the deadline (see RLSettings); (the best circuit of all, interrupted).
    get_model() gives (network, action mapping, device), asked for only when the policy gets
    time."""
    def run_search(c: Circuit, seconds: float, k: int):
        return search(c, matcher, cost=cost, timeout=max(0.0, seconds), seed=seed + k,
                      threads=threads, polish=polish, progress=False, exact_1q=exact_1q)

    first = run_search(circuit, min(s.search_share * timeout, deadline - time.monotonic()), 0)
    best, interrupted, k = first.circuit, first.interrupted, 0
    while not interrupted and deadline - time.monotonic() >= s.min_round:
        net, mapping, dev = get_model()
        k += 1
        left = deadline - time.monotonic()
        found, interrupted = _policy(best, net, matcher, mapping, cost,
                                     time.monotonic() + (1 - s.final_search_share) * left,
                                     seed + k, dev, s)
        if interrupted:  # only a short greedy pass (the search stops at once on a second signal)
            found = _greedy(matcher, found, cost, time.monotonic(), 0.2)
        else:
            again = run_search(found, deadline - time.monotonic(), k)
            found, interrupted = again.circuit, again.interrupted
        if cost_fn(found) < cost_fn(best) - 1e-12:
            best = found
    return best, interrupted


def _policy(circuit: Circuit, net, matcher, mapping, cost, deadline: float, seed: int, dev,
            s: RLSettings) -> tuple[Circuit, bool]:
    """_rl_loop on one torch thread (small graphs: more threads only add overhead on a CPU)."""
    from quartz.rl.agent import torch

    torch_threads = torch.get_num_threads()
    if dev.type == "cpu":
        torch.set_num_threads(1)
    try:
        return _rl_loop(circuit, net, matcher, mapping, cost, deadline, seed, dev, s)
    finally:
        torch.set_num_threads(torch_threads)


def _rl_loop(circuit: Circuit, net, matcher, mapping, cost, deadline: float, seed: int, dev,
             s: RLSettings) -> tuple[Circuit, bool]:
    """(best circuit, interrupted): episodes from the input and from the best circuit so far,
    with optional PPO fine-tuning, until the deadline or a KeyboardInterrupt."""
    from quartz.rl.agent import torch
    from quartz.rl.dag_env import DagRewriteEnv
    from quartz.rl.ppo import PPOConfig, ppo_update
    from quartz.rl.rollout import run_episode

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    env = DagRewriteEnv(matcher, cost, net.config.num_actions - 1, s.max_steps, s.max_rise,
                        s.min_steps, mapping=mapping, reward=s.reward)
    env.reset(circuit)
    best, best_cost = circuit, env.start_cost
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4) if s.fine_tune else None
    pcfg = PPOConfig(epochs=2)
    buffer: list = []
    dead: set[int] = set()
    episode = 0
    budget = max(deadline - time.monotonic(), 0.0)
    while time.monotonic() < deadline:
        start = circuit if (episode % 2 == 1 and best is not circuit) else best
        try:
            ep = run_episode(net, env, start, temperature=s.temperature, generator=gen,
                             greedy=episode == 0, dev=dev, deadline=deadline)
        except KeyboardInterrupt:  # Ctrl-C / SIGTERM: stop with the best circuit so far
            return best, True
        episode += 1
        if ep.best_cost < best_cost:
            best, best_cost = ep.best, ep.best_cost
        if not ep.transitions:  # nothing applies at this start
            dead.add(id(start))
            if id(best) in dead and id(circuit) in dead:
                break
            continue
        buffer.extend(ep.transitions)
        left = deadline - time.monotonic()
        if optimizer is not None and len(buffer) >= s.fine_tune_batch and left > 0.25 * budget:
            try:
                ppo_update(net, optimizer, buffer, net.config.num_actions, pcfg, rng, dev)
            except KeyboardInterrupt:
                return best, True
            buffer = []
    return best, False
