"""python -m quartz.rl.ship: a checkpoint becomes its gate set's shipped model, without the
optimizer state, after a check against the gate set's shipped ECC set."""
import pytest

from quartz.errors import QuartzError
from quartz.rl.agent import torch
from quartz.rl.checkpoint import load_checkpoint, save_checkpoint
from quartz.rl.model import ActorCritic, ModelConfig
from quartz.rl.ship import main, ship_model


def _checkpoint(path, ecc, gate_set, with_optimizer=True):
    from quartz.rl.checkpoint import ecc_fingerprint, xfer_keys

    xfers = ecc.transformations()
    torch.manual_seed(0)
    net = ActorCritic(ModelConfig(len(xfers) + 1, hidden=8, layers=1))
    meta = {"gate_set": list(gate_set), "ecc_fingerprint": ecc_fingerprint(xfers),
            "num_transformations": len(xfers), "xfer_keys": xfer_keys(xfers)}
    opt = torch.optim.Adam(net.parameters()) if with_optimizer else None
    save_checkpoint(path, net, meta, opt)
    return net


def test_ship_writes_the_gate_sets_model_without_optimizer(tmp_path):
    from quartz import ecc_sets

    ecc = ecc_sets.load("ibm_modern")
    net = _checkpoint(tmp_path / "ckpt.pt", ecc, ["sx", "rz", "x", "cx"])
    out = ship_model(tmp_path / "ckpt.pt", tmp_path / "data")
    assert out == tmp_path / "data" / "rl_ibm_modern.pt"
    model, meta, opt = load_checkpoint(out)
    assert opt is None and sorted(meta["gate_set"]) == ["cx", "rz", "sx", "x"]
    for k, v in net.state_dict().items():
        assert torch.equal(model.state_dict()[k], v)


def test_ship_refuses_a_model_of_another_ecc_set_or_gate_set(tmp_path, capsys):
    from quartz import ecc_sets

    _checkpoint(tmp_path / "a.pt", ecc_sets.load("ibm_modern_3_3"), ["sx", "rz", "x", "cx"])
    with pytest.raises(QuartzError, match="trained for another ECC set"):
        ship_model(tmp_path / "a.pt", tmp_path / "data")
    _checkpoint(tmp_path / "b.pt", ecc_sets.load("ibm_modern"), ["h", "cz"])
    assert main([str(tmp_path / "b.pt"), "--data-dir", str(tmp_path / "data")]) == 2
    assert "not a built-in gate set" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
