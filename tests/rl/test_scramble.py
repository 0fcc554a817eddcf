"""Scrambled starts: random exact rewrites that leave the unitary alone and give the policy
cost it can remove at once (quartz.rl.scramble)."""
import numpy as np
import pytest

from rl_helpers import bench, equivalent, random_nam_circuit
from quartz.errors import QuartzError
from quartz.rl.env import RewriteEnv, cost_function
from quartz.rl.scramble import scramble, scrambled_copies
from quartz.rl.workers import RolloutPool, make_env


@pytest.fixture(scope="module")
def env(nam_ecc):
    return make_env(nam_ecc.transformations(), "gates", 60, 6.0)


@pytest.mark.parametrize("seed", range(6))
def test_scramble_keeps_the_unitary(env, seed):
    rng = np.random.default_rng(seed)
    c = random_nam_circuit(rng, qubits=3, gates=16)
    s = scramble(env, c, 8, rng)
    assert s is not c and equivalent(c, s)


def test_scramble_adds_gates_the_search_removes_again(env, nam_matcher):
    """tof_3's preprocessed form is a local minimum for single rewrites; ten random rewrites
    raise its count, and the greedy search takes the scrambled copy most of the way back."""
    from quartz.search import search
    from quartz.search.preprocess import preprocess

    pre = preprocess(bench("tof_3"), "nam")
    assert len(search(pre, nam_matcher, greedy_only=True, progress=False, threads=1).circuit) \
        == len(pre)
    s = scramble(env, pre, 10, np.random.default_rng(1))
    back = search(s, nam_matcher, greedy_only=True, progress=False, threads=1).circuit
    assert len(s) >= len(pre) + 5 and len(back) <= len(pre) + 3, (len(pre), len(s), len(back))
    assert s.name == pre.name


def test_scramble_is_seeded_and_zero_moves_is_the_circuit(env):
    c = preprocess_tof4()
    a = scramble(env, c, 6, np.random.default_rng(5))
    b = scramble(env, c, 6, np.random.default_rng(5))
    assert list(a) == list(b)
    assert scramble(env, c, 0, np.random.default_rng(5)) is c
    copies = scrambled_copies(env, [c, c], 6)
    assert [list(x) for x in copies] == [list(x) for x in scrambled_copies(env, [c, c], 6)]


def preprocess_tof4():
    from quartz.search.preprocess import preprocess

    return preprocess(bench("tof_4"), "nam")


@pytest.mark.parametrize("moves", [-1, 2.5, True, "3"])
def test_scramble_rejects_bad_move_counts(env, moves):
    with pytest.raises(QuartzError, match="scramble moves must be a non-negative integer"):
        scramble(env, bench("tof_3"), moves, np.random.default_rng(0))


def test_scramble_works_in_the_reference_environment(nam_matcher):
    env = RewriteEnv(nam_matcher, cost_function("gates"), len(nam_matcher.transformations))
    rng = np.random.default_rng(3)
    c = random_nam_circuit(rng, qubits=3, gates=14)
    assert equivalent(c, scramble(env, c, 5, rng))


def test_a_job_with_scramble_moves_starts_from_a_scrambled_copy(nam_ecc):
    """The job's episode starts at the scrambled circuit: its start cost is above the
    circuit's, and the same job plays the same episode again."""
    from quartz.rl.model import ActorCritic, ModelConfig
    from quartz.search.preprocess import preprocess

    xfers = nam_ecc.transformations()
    model = ActorCritic(ModelConfig(len(xfers) + 1, 8, 1)).eval()
    c = preprocess(bench("tof_3"), "nam")
    with RolloutPool(1, xfers, "gates", 4, 6.0, model.config, 2, "best") as pool:
        plain, scr, again = pool.play(model, [(0, c, 7, None), (0, c, 7, None, 10),
                                              (0, c, 7, None, 10)])
    assert plain.start_cost == len(c)
    assert scr.start_cost > len(c) and scr.start_cost == again.start_cost
    assert [t.action for t in scr.transitions] == [t.action for t in again.transitions]
