"""Every example of README.md runs as pasted, in an empty working folder (so the examples cannot
lean on files of the checkout or ../shared): each ```python block in order, each in a fresh
namespace, and each ```console block as typed, one ``$ `` command after another, every command
exiting 0 (``quartz`` and ``python`` are this interpreter's)."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from doc_examples import REPO, markdown_examples, run_example

README = REPO / "README.md"
EXAMPLES = markdown_examples(README)
_CONSOLE_BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
COMMANDS = [[ln[2:] for ln in m.group(1).splitlines() if ln.startswith("$ ")]
            for m in _CONSOLE_BLOCK.finditer(README.read_text())]


def test_readme_has_the_examples():
    # Three examples: Python, the command line, Qiskit.
    assert len(EXAMPLES) >= 2, [e[0] for e in EXAMPLES]
    assert len(COMMANDS) >= 1 and all(COMMANDS), COMMANDS
    assert len(EXAMPLES) + len(COMMANDS) >= 3


@pytest.mark.parametrize("code,line", [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_readme_example_runs(code, line, tmp_path, monkeypatch):
    namespace = run_example(code, README, line, tmp_path, monkeypatch)
    assert len(namespace) > 2  # the block ran and defined what it shows


def _argv(command: str) -> list[str]:
    """The command as this interpreter runs it: ``python ...`` and ``quartz ...`` (the installed
    script is ``python -m quartz``)."""
    args = shlex.split(command, comments=True)
    if args[0] == "python":
        return [sys.executable, *args[1:]]
    assert args[0] == "quartz", f"README commands are python or quartz commands: {command}"
    return [sys.executable, "-m", "quartz", *args[1:]]


@pytest.mark.parametrize("commands", COMMANDS, ids=[f"console-{k}" for k in range(len(COMMANDS))])
def test_readme_commands_run(commands, tmp_path):
    for command in commands:
        assert "../shared" not in command, "examples must not read ../shared"
        argv = _argv(command)
        proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"$ {command}\n{proc.stdout}\n{proc.stderr}"
        if "-o" in argv:  # what the command says it writes is there
            assert (tmp_path / argv[argv.index("-o") + 1]).is_file(), command
