"""Every ```python block of README.md runs as pasted: in order, each in a fresh namespace, in an
empty working folder (so the examples cannot lean on files of the checkout or ../shared)."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
HEADING = re.compile(r"^#+ (.*)$", re.M)


def _blocks() -> list[tuple[str, str, int]]:
    """(test id from the section heading, code, line of the block) for each python block."""
    out = []
    for m in BLOCK.finditer(README):
        headings = HEADING.findall(README, 0, m.start())
        section = re.sub(r"[^a-z0-9]+", "-", headings[-1].lower()).strip("-")[:40] if headings else "top"
        line = README.count("\n", 0, m.start()) + 2  # the first line of code
        out.append((f"{len(out)}-{section}", m.group(1), line))
    return out


BLOCKS = _blocks()


def test_readme_has_the_examples():
    assert len(BLOCKS) >= 8, [b[0] for b in BLOCKS]


@pytest.mark.parametrize("code,line", [(b[1], b[2]) for b in BLOCKS], ids=[b[0] for b in BLOCKS])
def test_readme_block_runs(code, line, tmp_path, monkeypatch):
    code_only = [ln.split("#")[0] for ln in code.splitlines()]
    assert not any("../shared" in ln for ln in code_only), \
        "README examples must not read ../shared (a pip user does not have it)"
    if re.search(r"method=\"rl\"|quartz\.rl", code):
        for module in ("torch", "torch_geometric"):
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"the RL example needs {module} (the rl extra)")
    monkeypatch.chdir(tmp_path)
    # The transpile example runs at optimization level 3 (30 s of search per circuit); the
    # documented override keeps the test short.
    monkeypatch.setenv("QUARTZ_QISKIT_TIMEOUT", "2")
    namespace: dict = {"__name__": "__readme__"}
    # Pad so that a traceback names the README's own line numbers.
    exec(compile("\n" * (line - 1) + code, str(REPO / "README.md"), "exec"), namespace)
    assert len(namespace) > 2  # the block defined what it shows
