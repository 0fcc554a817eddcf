"""Run a Python script the ways users run code: fed on stdin, with `python -c`, or as a file
(shared by the tests of worker pools that must not re-run the caller's __main__)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_python(script: str, how: str, folder: Path, timeout: float) -> subprocess.CompletedProcess:
    """`script` run in `folder` as `how` says: "stdin", "-c", or a file (any other value)."""
    if how == "stdin":
        cmd, stdin = [sys.executable, "-"], script
    elif how == "-c":
        cmd, stdin = [sys.executable, "-c", script], None
    else:
        (folder / "run.py").write_text(script)
        cmd, stdin = [sys.executable, str(folder / "run.py")], None
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout,
                          cwd=folder)
