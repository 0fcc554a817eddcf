"""The `python -m quartz.search.preprocess` report."""
from quartz.search.preprocess.__main__ import main

from pp_helpers import BENCH


def test_report_rows_and_qcec_check(capsys):
    assert main(["--bench", str(BENCH), "--only", "tof_3", "mod5_4", "--check", "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert "| tof_3 | 45 | 33 | 33 | 12 | 39 |" in out  # relative-phase pair: 33 from both files
    assert out.count("equivalent / equivalent") == 2
    assert "2-circuit geomean reduction" in out


def test_report_with_blocks(capsys):
    assert main(["--bench", str(BENCH), "--only", "csum_mux_9", "--blocks"]) == 0
    assert "| csum_mux_9 | 420 | 280 | 280 |" in capsys.readouterr().out  # folded ccz: same from both
