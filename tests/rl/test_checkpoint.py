"""Checkpoints round-trip, are written atomically, and refuse other ECC sets or other files."""
import pytest

import quartz
from quartz.ecc_sets import Phase, Transformation
from quartz.errors import QuartzError
from quartz.rl.agent import torch
from quartz.rl.checkpoint import check_compatible, ecc_fingerprint, load_checkpoint, save_checkpoint
from quartz.rl.model import ActorCritic, ModelConfig


def xfers(k):
    a, b = quartz.Circuit(1).h(0).h(0), quartz.Circuit(1)
    return [Transformation(a, b, Phase(), 0), Transformation(b, a, Phase(), 0)][:k]


def test_round_trip(tmp_path):
    torch.manual_seed(0)
    m = ActorCritic(ModelConfig(3, hidden=16, layers=2))
    opt = torch.optim.Adam(m.parameters())
    meta = {"ecc_fingerprint": ecc_fingerprint(xfers(2)), "episodes": 7}
    p = tmp_path / "m.pt"
    save_checkpoint(p, m, meta, opt)
    assert [f.name for f in tmp_path.iterdir()] == ["m.pt"]  # no temporary left behind
    m2, meta2, opt_state = load_checkpoint(p)
    assert meta2["episodes"] == 7 and opt_state is not None
    assert m2.config == m.config
    for k, v in m.state_dict().items():
        assert torch.equal(v, m2.state_dict()[k])
    check_compatible(meta2, xfers(2))
    with pytest.raises(QuartzError, match="trained for another ECC set"):
        check_compatible(meta2, xfers(1))


def test_bad_files(tmp_path):
    with pytest.raises(QuartzError, match="does not exist"):
        load_checkpoint(tmp_path / "nope.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a model")
    with pytest.raises(QuartzError, match="cannot read RL model"):
        load_checkpoint(tmp_path / "junk.pt")
    torch.save({"x": 1}, tmp_path / "other.pt")
    with pytest.raises(QuartzError, match="is not a quartz RL model"):
        load_checkpoint(tmp_path / "other.pt")
    assert ecc_fingerprint(xfers(2)) != ecc_fingerprint(xfers(1))


def test_action_map_for_a_related_ecc_set():
    from quartz.rl.checkpoint import action_map, xfer_keys

    three = xfers(2) + [Transformation(quartz.Circuit(1).x(0).x(0), quartz.Circuit(1), Phase(), 1)]
    meta = {"ecc_fingerprint": ecc_fingerprint(three), "xfer_keys": xfer_keys(three)}
    assert action_map(meta, three) is None  # identical action space
    assert action_map(meta, [three[2], three[0]]) == [1, -1, 0]  # reordered, one missing
    with pytest.raises(QuartzError, match="trained for another ECC set"):
        action_map(meta, [three[1]])  # fewer than half of the model's actions remain
