"""Model files are untrusted input: a pickle that would run code is refused, never executed,
by the loader, by quartz.optimize and by `quartz optimize --method rl --model`."""
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz.errors import QuartzError
from quartz.rl.agent import torch
from quartz.rl.checkpoint import FORMAT, load_checkpoint, save_checkpoint
from quartz.rl.model import ActorCritic, ModelConfig
from rl_helpers import BENCH

REPO = Path(__file__).resolve().parents[2]


class Evil:
    """Unpickling this runs os.system (creates the marker file)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch '{self.marker}'",)


def evil_files(tmp_path: Path, marker: Path) -> list[Path]:
    """A raw pickle and a torch.save zip, both with a code-running object inside."""
    raw = tmp_path / "raw_evil.pt"
    raw.write_bytes(pickle.dumps({"format": FORMAT, "config": Evil(marker)}))
    zipped = tmp_path / "zip_evil.pt"
    small = ActorCritic(ModelConfig(3, hidden=8, layers=1))
    torch.save({"format": FORMAT, "config": small.config.to_dict(), "model": small.state_dict(),
                "meta": {"x": Evil(marker)}}, zipped)
    return [raw, zipped]


def test_loader_refuses_code_in_a_pickle(tmp_path):
    marker = tmp_path / "pwned"
    for f in evil_files(tmp_path, marker):
        with pytest.raises(QuartzError, match="cannot read RL model .*could run code") as e:
            load_checkpoint(f)
        assert "\n" not in str(e.value)
        assert not marker.exists(), f.name


def test_optimize_refuses_code_in_a_pickle(tmp_path):
    marker = tmp_path / "pwned"
    for f in evil_files(tmp_path, marker):
        with pytest.raises(QuartzError, match="could run code"):
            quartz.optimize(quartz.Circuit(2).h(0).h(0).cx(0, 1), "nam", method="rl",
                            model=str(f), timeout=1.0)
        assert not marker.exists(), f.name


def test_cli_refuses_code_in_a_pickle(tmp_path):
    marker = tmp_path / "pwned"
    out = tmp_path / "out.qasm"
    for f in evil_files(tmp_path, marker):
        r = subprocess.run([sys.executable, "-m", "quartz", "optimize", str(BENCH / "tof_3.qasm"),
                            "--method", "rl", "--model", str(f), "--timeout", "2", "--no-progress",
                            "-o", str(out)], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("quartz optimize: error: cannot read RL model")
        assert "could run code" in lines[0]
        assert "Traceback" not in r.stderr and not marker.exists() and not out.exists()


def test_save_refuses_or_normalizes_meta(tmp_path):
    m = ActorCritic(ModelConfig(3, hidden=8, layers=1))
    p = tmp_path / "m.pt"
    with pytest.raises(QuartzError, match=r"meta\['bad'\] is a Evil, not plain data"):
        save_checkpoint(p, m, {"bad": Evil(tmp_path / "x")})
    with pytest.raises(QuartzError, match="key 1 that is not a string"):
        save_checkpoint(p, m, {"d": {1: 2}})
    assert not p.exists()
    save_checkpoint(p, m, {"cost": np.float64(3.5), "n": np.int64(4), "keys": ("a", "b")})
    _, meta, _ = load_checkpoint(p)
    assert meta == {"cost": 3.5, "n": 4, "keys": ("a", "b")}
    assert type(meta["cost"]) is float and type(meta["n"]) is int


def test_layout_and_shapes_are_checked(tmp_path):
    m = ActorCritic(ModelConfig(3, hidden=8, layers=1))
    good = {"format": FORMAT, "config": m.config.to_dict(), "model": m.state_dict(), "meta": {}}
    cases = {
        "config": ({**good, "config": {"num_actions": 3, "bogus": 1}}, "bad 'config'"),
        "negative": ({**good, "config": {**good["config"], "hidden": -8}}, "bad 'config'"),
        # a huge size is caught by the shape check, before anything is allocated
        "huge": ({**good, "config": {**good["config"], "num_actions": 10**12}}, "has shape"),
        "layers": ({**good, "config": {**good["config"], "layers": 2}}, "do not match its config"),
        "weights": ({**good, "model": {"a": 1}}, "not a dict of tensors"),
        "meta": ({**good, "meta": [1]}, "'meta' is not a dict"),
        "optimizer": ({**good, "optimizer": 3}, "'optimizer' is not a dict"),
    }
    for name, (state, msg) in cases.items():
        p = tmp_path / f"{name}.pt"
        torch.save(state, p)
        with pytest.raises(QuartzError, match=msg):
            load_checkpoint(p)
