"""Every class of every shipped ECC set is proven, with the stored phases, and holds numerically."""
import numpy as np
import pytest

from quartz.ecc_sets import load
from quartz.ecc_sets.shipped import shipped_sets
from quartz.verifier import verify_ecc_set
from quartz.verifier.numeric import padded_unitary

SETS = shipped_sets()


def test_there_are_shipped_sets():
    assert "nam_3_3" in SETS and "nam_6_3" in SETS


@pytest.mark.parametrize("name", SETS)
def test_shipped_set_is_proven(name):
    s = load(name)
    verified, report = verify_ecc_set(s, jobs=1, progress=False)
    bad = [c for c in report.classes if c.status != "proven"]
    assert not bad, bad[:3]
    assert len(verified.classes) == len(s.classes)
    assert verified.num_transformations == s.num_transformations
    rng = np.random.default_rng(5)
    for t in verified.transformations():
        vals = list(rng.uniform(-7, 7, size=max(s.m, 1)))
        nq = max(t.source.num_qubits, t.target.num_qubits)
        us, ut = padded_unitary(t.source, vals, nq), padded_unitary(t.target, vals, nq)
        assert np.allclose(ut, np.exp(1j * t.phase.value(vals)) * us, atol=1e-9)
