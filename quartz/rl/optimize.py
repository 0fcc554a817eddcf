"""`optimize_rl`: optimize a circuit with the learned policy, fine-tuning on it within the budget.

The best circuit seen in any episode is kept; the run ends with a greedy pass of cost-reducing
transformations, and the result is checked for equivalence with the input.
"""
from __future__ import annotations

import copy
import time
from pathlib import Path

import numpy as np

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.rl._deps import device, require_torch

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DEFAULT_MODELS = {("cx", "h", "rz", "x"): "rl_nam.pt"}


def default_model_path(gate_set) -> Path:
    """The shipped model for a gate set, or a QuartzError when there is none."""
    name = DEFAULT_MODELS.get(tuple(sorted(gate_set)))
    if name is None or not (DATA_DIR / name).is_file():
        raise QuartzError(f"no shipped RL model for gate set {{{', '.join(sorted(gate_set))}}}: "
                          "train one with 'quartz rl train' and pass it as model=")
    return DATA_DIR / name


def _greedy(matcher, circuit: Circuit, cost, cost_fn, deadline: float) -> Circuit:
    from quartz.rl.greedy import greedy_pass

    return greedy_pass(matcher, circuit, cost_fn, deadline)


def optimize_rl(circuit: Circuit, ecc_set=None, cost="gates", timeout: float = 60.0,
                seed: int | None = None, model=None, *, fine_tune: bool = True,
                temperature: float = 0.5, max_steps: int = 100, max_rise: float = 6.0,
                greedy_share: float = 0.15) -> Circuit:
    """Optimize `circuit` with the RL policy for about `timeout` seconds; returns the best circuit."""
    require_torch()
    from quartz.rl.agent import torch
    from quartz.rl.checkpoint import check_compatible, load_checkpoint
    from quartz.rl.env import RewriteEnv
    from quartz.rl.equivalence import check_equivalent
    from quartz.rl.model import ActorCritic
    from quartz.rl.ppo import PPOConfig, ppo_update
    from quartz.rl.rollout import run_episode
    from quartz.search import Matcher
    from quartz.search.costs import get_cost

    t0 = time.monotonic()
    if timeout is None or timeout <= 0:
        raise QuartzError(f"timeout must be a positive number of seconds, got {timeout!r}")
    if ecc_set is None:
        from quartz.ecc_sets import load

        ecc_set = load("nam")
    extra = set(circuit.count_ops()) - set(ecc_set.gate_set)
    if extra:
        raise QuartzError(f"the circuit has gates {sorted(extra)} outside the ECC set's gate set "
                          f"{{{', '.join(ecc_set.gate_set)}}}; convert it first")
    xfers = ecc_set.transformations()
    dev = device()
    if isinstance(model, ActorCritic):
        net = copy.deepcopy(model).to(dev).eval()
        if net.config.num_actions != len(xfers) + 1:
            raise QuartzError(f"the RL model has {net.config.num_actions - 1} transformations, "
                              f"the ECC set {len(xfers)}")
    else:
        path = default_model_path(ecc_set.gate_set) if model is None else Path(model)
        net, meta, _ = load_checkpoint(path, dev)
        check_compatible(meta, xfers, f"model {path}")
    cost_fn = get_cost(cost)
    deadline = t0 + timeout
    rl_deadline = t0 + timeout * (1 - greedy_share)
    seed = 0 if seed is None else int(seed)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    matcher = Matcher(xfers)
    env = RewriteEnv(matcher, cost_fn, len(xfers), max_steps, max_rise)
    best, best_cost = circuit, float(cost_fn(circuit))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4) if fine_tune else None
    pcfg = PPOConfig(epochs=2)
    buffer = []
    episode = 0
    dead: set[int] = set()
    while time.monotonic() < rl_deadline:
        start = circuit if (episode % 2 == 1 and best is not circuit) else best
        ep = run_episode(net, env, start, temperature=temperature, generator=gen,
                         greedy=episode == 0, dev=dev, deadline=rl_deadline)
        episode += 1
        if ep.best_cost < best_cost:
            best, best_cost = ep.best, ep.best_cost
        if not ep.transitions:  # nothing applies at this start
            dead.add(id(start))
            if id(best) in dead and id(circuit) in dead:
                break
            continue
        buffer.extend(ep.transitions)
        if optimizer is not None and len(buffer) >= 128 and time.monotonic() < rl_deadline:
            ppo_update(net, optimizer, buffer, net.config.num_actions, pcfg, rng, dev)
            buffer = []
    out = _greedy(matcher, best, cost, cost_fn, deadline)
    if float(cost_fn(out)) > float(cost_fn(circuit)):
        out = circuit
    check_equivalent(circuit, out)
    out.name = circuit.name
    return out
