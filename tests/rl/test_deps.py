"""Without torch / torch-geometric, method "rl" says exactly what to install."""
import importlib

import pytest

import quartz
from quartz.errors import QuartzError
from quartz.rl import INSTALL_HINT, optimize_rl, require_torch
from quartz.rl._deps import device


@pytest.fixture
def no_torch(monkeypatch):
    real = importlib.import_module

    def fake(name, *a, **k):
        if name.split(".")[0] in ("torch", "torch_geometric"):
            raise ModuleNotFoundError(f"No module named '{name}'", name=name)
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", fake)


def test_require_torch_returns_modules():
    torch, pyg = require_torch()
    assert torch.__version__.startswith("2.13.0") and hasattr(pyg, "data")
    assert device().type in ("cpu", "cuda")


def test_clear_error_without_torch(no_torch):
    with pytest.raises(QuartzError, match=r"pip install 'quartz-superopt\[rl\]'") as e:
        require_torch()
    assert "torch" in str(e.value)
    assert INSTALL_HINT == "pip install 'quartz-superopt[rl]'"


def test_optimize_rl_without_torch(no_torch):
    with pytest.raises(QuartzError, match=r"quartz-superopt\[rl\]"):
        optimize_rl(quartz.Circuit(1).h(0).h(0), timeout=1.0)


def test_import_and_error_in_a_python_without_torch():
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys; sys.modules['torch'] = None; sys.modules['torch_geometric'] = None\n"
            "import quartz, quartz.rl\n"
            "try:\n    quartz.rl.optimize_rl(quartz.Circuit(1).h(0), timeout=1.0)\n"
            "except quartz.QuartzError as e:\n    print('ERR', e)\n")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ERR method 'rl' needs torch and torch-geometric")
    assert "pip install 'quartz-superopt[rl]'" in out.stdout
