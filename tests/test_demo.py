"""`make demo` (python -m quartz.demo) prints the benchmark circuit's statistics before and
after, and fails loudly when the optimizer does."""
from __future__ import annotations

import quartz
from quartz import demo


def test_demo_runs(capsys):
    assert demo.main(timeout=2.0) == 0
    out = capsys.readouterr().out
    assert out.startswith("before: 5 qubits, 45 gates, 18 cx, 21 T")
    after = int(out.split("after:")[1].split("qubits,")[1].split("gates")[0])
    assert after <= 35  # tof_3 reaches 33 in well under a second


def test_demo_reports_an_optimizer_failure(capsys, monkeypatch):
    def broken(*a, **k):
        raise quartz.QuartzError("no ECC set")

    monkeypatch.setattr(quartz, "optimize", broken)
    assert demo.main(timeout=1.0) == 1  # was 0: a broken install looked like a working demo
    assert "the optimizer failed: no ECC set" in capsys.readouterr().err
