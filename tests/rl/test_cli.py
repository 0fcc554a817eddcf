"""`quartz rl train`: trains, writes a model, resumes, and reports bad input clearly."""
import shutil

from rl_helpers import BENCH
from quartz.cli import main
from quartz.rl.checkpoint import load_checkpoint


def test_train_and_resume(tmp_path, capsys, monkeypatch):
    import rl_helpers

    folder = tmp_path / "circ"
    folder.mkdir()
    shutil.copy(BENCH / "tof_3.qasm", folder)
    out = tmp_path / "model.pt"
    args = ["rl", "train", "--gateset", "nam", "--circuits", str(folder), "--minutes", "0.05",
            "-o", str(out), "--hidden", "16", "--layers", "2", "--workers", "1", "--max-steps", "10",
            "--episodes-per-iter", "4"]
    if rl_helpers.ECC_NAME != "nam":
        args += ["--ecc-set", rl_helpers.ECC_NAME]
    assert main(args) == 0
    _, meta, opt = load_checkpoint(out)
    first = meta["episodes"]
    assert first > 0 and meta["train_circuits"] == ["tof_3"] and opt is not None
    assert main(args + ["--resume", str(out)]) == 0
    _, meta2, _ = load_checkpoint(out)
    assert meta2["episodes"] > first and meta2["iterations"] > meta["iterations"]
    err = capsys.readouterr().err
    assert "mean reward" in err and "tof_3" in err and "wrote" in err


def test_bad_input(tmp_path, capsys):
    assert main(["rl", "train", "--circuits", str(tmp_path / "nope"), "--minutes", "1",
                 "-o", str(tmp_path / "m.pt")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["rl", "train", "--circuits", str(tmp_path), "--minutes", "1",
                 "-o", str(tmp_path / "m.pt")]) == 2
    assert "no .qasm files" in capsys.readouterr().err
    assert main(["rl", "train", "--circuits", str(tmp_path), "--minutes", "0",
                 "-o", str(tmp_path / "m.pt")]) == 2
    assert not (tmp_path / "m.pt").exists()
