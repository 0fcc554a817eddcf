"""On a Nam (n=3, q=3, m=2) set, every verdict agrees with a numeric check at random values."""
import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

from quartz import Circuit, Param
from quartz.verifier import verify_ecc_set, verify_pair
from quartz.verifier.numeric import distance, padded_unitary

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def nam33():
    spec = importlib.util.spec_from_file_location("bench_verifier", ROOT / "benchmarks" / "bench_verifier.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.brute_force_nam(3, 3)


def test_every_class_agrees_with_numeric_check(nam33):
    assert len(nam33.classes) > 1000
    verified, report = verify_ecc_set(nam33, jobs=1, progress=False)
    assert report.unknown == 0 and report.corrupt == 0
    rng = np.random.default_rng(3)
    for e in verified.classes:
        assert e.proven and e.phases[0].const == 0 and not e.phases[0].coefs
        for _ in range(2):
            vals = list(rng.uniform(-7, 7, size=2))
            u0 = padded_unitary(e.circuits[0], vals, 3)
            for c, ph in zip(e.circuits, e.phases):
                assert np.allclose(padded_unitary(c, vals, 3), np.exp(1j * ph.value(vals)) * u0, atol=1e-9)
    # classes the verifier split (if any) really differ numerically
    for outcome in report.classes:
        if outcome.status == "refuted":
            assert outcome.counterexample is not None


def test_perturbed_members_agree_with_numeric_check(nam33):
    rng = random.Random(11)
    sample = rng.sample(nam33.classes, 150)
    for e in sample:
        c = rng.choice(e.circuits)
        if len(c) == 0:
            continue
        k = rng.randrange(len(c))
        d = Circuit(3)
        for i, g in enumerate(c):
            if i != k:
                d.append(*g)
            elif g.name == "cx":
                d.append("cx", g.qubits[::-1], ())
            elif g.name == "rz":
                d.append("rz", g.qubits, [g.params[0] + Param.symbol(1)])
            else:
                d.append("h" if g.name == "x" else "x", g.qubits, ())
        v = verify_pair(e.circuits[0], d)
        vals = [0.9, -2.1]
        dist = distance(padded_unitary(e.circuits[0], vals, 3), padded_unitary(d, vals, 3))
        if v.status == "proven":
            assert dist < 1e-9
            u0 = padded_unitary(e.circuits[0], vals, 3)
            assert np.allclose(padded_unitary(d, vals, 3), np.exp(1j * v.phase.value(vals)) * u0, atol=1e-9)
        else:
            assert v.status == "refuted" and v.counterexample is not None
