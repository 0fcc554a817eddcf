"""`make demo` (python -m quartz.demo) prints the benchmark circuit's statistics and exits 0."""
from __future__ import annotations

from quartz import demo


def test_demo_runs(capsys):
    assert demo.main(timeout=2.0) == 0
    out = capsys.readouterr().out
    assert out.startswith("before: 5 qubits, 45 gates, 18 cx, 21 T")
    assert "after:" in out or "optimizer not available yet" in out
    if "after:" in out:  # the optimizer never makes the demo circuit bigger
        after = int(out.split("after:")[1].split("qubits,")[1].split("gates")[0])
        assert after <= 45
