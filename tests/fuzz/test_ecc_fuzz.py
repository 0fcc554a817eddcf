"""Mutated ECC set JSON (both formats) gives a clear QuartzError or a well-formed set; never a
crash of the native module or a hang."""
from __future__ import annotations

import os
import random

import pytest

from quartz import Circuit, Param
from quartz.ecc_sets import ECC, ECCSet, Phase
from tests.fuzz.harness import FuzzWorker, report
from tests.fuzz.mutate import mutate

CASES = int(os.environ.get("QUARTZ_FUZZ_CASES", "150"))
P0, P1 = Param.symbol(0), Param.symbol(1)


def _small_set() -> ECCSet:
    """A hand-made proven Nam set: h h = I, rz merging, x-conjugated rz, cx commutation."""
    z = Phase()
    classes = [
        ECC([Circuit(1).h(0).h(0), Circuit(1)], [z, z], True),
        ECC([Circuit(1).rz(P0, 0).rz(P1, 0), Circuit(1).rz(P0 + P1, 0)], [z, z], True),
        ECC([Circuit(1).x(0).rz(P0, 0).x(0), Circuit(1).rz(-P0, 0)], [z, z], True),
        ECC([Circuit(2).rz(P0, 0).cx(0, 1), Circuit(2).cx(0, 1).rz(P0, 0)], [z, z], True),
        ECC([Circuit(2).h(0).h(1).cx(0, 1).h(0).h(1), Circuit(2).cx(1, 0)], [z, z], True),
    ]
    return ECCSet(("h", "x", "rz", "cx"), 5, 2, 2, classes)


@pytest.fixture(scope="module")
def seed_texts(tmp_path_factory) -> list[str]:
    from quartz import ecc_sets

    folder = tmp_path_factory.mktemp("ecc")
    texts = []
    for fmt in ("native", "quartz"):
        path = folder / f"small_{fmt}.json"
        ecc_sets.write(_small_set(), path, format=fmt)
        texts.append(path.read_text())
    return texts


def _run(seed_texts: list[str], cases: int, seed: int) -> None:
    rng = random.Random(seed)
    failures, outcomes = [], {}
    with FuzzWorker(time_limit=30.0) as worker:
        for text in seed_texts:  # the unmutated files read back
            r = worker.run("ecc", text)
            assert r.outcome == "ok", report([r])
        for _ in range(cases):
            r = worker.run("ecc", mutate(rng.choice(seed_texts), rng))
            outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
            if r.failed:
                failures.append(r)
    assert not failures, report(failures)
    assert outcomes.get("rejected", 0) > 0, outcomes


def test_mutated_ecc_json_is_rejected_clearly_or_read_consistently(seed_texts):
    _run(seed_texts, CASES, seed=1202)


@pytest.mark.slow
def test_mutated_ecc_json_many_cases(seed_texts):
    _run(seed_texts, 3000, seed=11)


@pytest.mark.parametrize("text", ["", "{}", "[]", "null", "[[], {}]", '{"classes": 5}',
                                  "[[[1, \"\"], [1, 0.5]], {\"0_2\": [[[99999999999, 1], []]]}]",
                                  "\x00\x01garbage", "[" * 5000,
                                  '[[[1, ""], [1, 0.5]], {":_7": [[[1, 0], []]]}]'])
def test_degenerate_ecc_files(text):
    with FuzzWorker() as worker:
        r = worker.run("ecc", text)
    assert r.outcome == "rejected", report([r])
