"""Scrambled starts: a circuit after a few random rewrites, for the agent to clean up.

Every circuit of the Nam suite, raw or preprocessed, is a local minimum for single rewrites:
no one transformation of the ECC set lowers its cost, so an episode from it earns a reward
only after a detour, and training from those starts alone gives the policy almost no signal
(BENCHMARKS.md, RL). A few uniformly random rewrites first (each adds about one gate on
average; they are exact, so the scrambled circuit still equals the input) give starts where
the best moves lower the cost at once, and a policy that has learned which moves those are
shows it on held-out circuits it never saw.

>>> import numpy as np
>>> from quartz import Circuit, ecc_sets
>>> from quartz.rl.workers import make_env
>>> env = make_env(ecc_sets.load("nam").transformations(), "gates", 60, 6.0)
>>> c = Circuit(2).h(0).cx(0, 1).rz(0.5, 1)
>>> s = scramble(env, c, 5, np.random.default_rng(0))
>>> bool(np.allclose(s.unitary(), c.unitary()))
True
"""
from __future__ import annotations

import numpy as np

from quartz.circuit import Circuit
from quartz.errors import QuartzError


def scramble(env, circuit: Circuit, moves: int, rng: np.random.Generator) -> Circuit:
    """`circuit` after `moves` random rewrites (a uniform applicable gate, then a uniform
    transformation there), played in `env` (a DagRewriteEnv or RewriteEnv); fewer when
    nothing applies any more. Exact: the result equals `circuit`, global phase included."""
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise QuartzError(f"scramble moves must be a non-negative integer, got {moves!r}")
    if moves == 0:
        return circuit
    env.reset(circuit)
    for _ in range(moves):
        applicable = env.applicable()
        if not applicable:
            break
        nodes = list(applicable)
        node = nodes[int(rng.integers(len(nodes)))]
        xfers = applicable[node]
        env.step(node, xfers[int(rng.integers(len(xfers)))])
    out = env.circuit
    out.name = circuit.name
    return out


def scrambled_copies(env, circuits: list[Circuit], moves: int, seed: int = 0) -> list[Circuit]:
    """One scrambled copy of each circuit, from a fixed seed (the held-out set of a run)."""
    rng = np.random.default_rng(seed)
    return [scramble(env, c, moves, rng) for c in circuits]


__all__ = ["scramble", "scrambled_copies"]
