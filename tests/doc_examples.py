"""Shared by test_readme.py and test_docs.py: find the Python examples of a README (Markdown)
or of the Sphinx guide (reST) and run one as a user would paste it."""
from __future__ import annotations

import importlib.util
import re
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
_MD_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
_MD_HEADING = re.compile(r"^#+ (.*)$", re.M)
_RST_BLOCK = re.compile(r"^\.\. code-block:: python\n((?:[ \t]*\n)*)((?:(?:[ \t]+.*)?\n)+)", re.M)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def markdown_examples(path: Path) -> list[tuple[str, str, int]]:
    """(id from the section heading, code, line of the code's first line) per ```python block."""
    text = path.read_text()
    out = []
    for m in _MD_BLOCK.finditer(text):
        headings = _MD_HEADING.findall(text, 0, m.start())
        line = text.count("\n", 0, m.start()) + 2
        out.append((f"{len(out)}-{_slug(headings[-1]) if headings else 'top'}", m.group(1), line))
    return out


def rst_examples(path: Path) -> list[tuple[str, str, int]]:
    """(id, code, line of the code's first line) per ``.. code-block:: python`` of a page."""
    text = path.read_text()
    out = []
    for k, m in enumerate(_RST_BLOCK.finditer(text)):
        line = text.count("\n", 0, m.start(2)) + 1
        out.append((f"{path.stem}-{k}", textwrap.dedent(m.group(2)), line))
    return out


def run_example(code: str, path: Path, line: int, folder: Path, monkeypatch) -> dict:
    """Run `code` as pasted into a fresh interpreter session, in the empty `folder`; return
    its namespace. Tracebacks name `path` and its own line numbers."""
    code_only = [ln.split("#")[0] for ln in code.splitlines()]
    assert not any("../shared" in ln for ln in code_only), \
        "examples must not read ../shared (a pip user does not have it)"
    if re.search(r"method=\"rl\"|quartz\.rl\b", code):
        for module in ("torch", "torch_geometric"):
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"the RL example needs {module} (the rl extra)")
    monkeypatch.chdir(folder)
    # The transpile examples run at optimization level 3 (30 s of search per circuit); the
    # documented override keeps the tests short.
    monkeypatch.setenv("QUARTZ_QISKIT_TIMEOUT", "2")
    namespace: dict = {"__name__": "__main__"}
    exec(compile("\n" * (line - 1) + code, str(path), "exec"), namespace)
    return namespace
