"""Every ```python block of README.md runs as pasted: in order, each in a fresh namespace, in an
empty working folder (so the examples cannot lean on files of the checkout or ../shared)."""
from __future__ import annotations

import pytest

from doc_examples import REPO, markdown_examples, run_example

README = REPO / "README.md"
EXAMPLES = markdown_examples(README)


def test_readme_has_the_examples():
    assert len(EXAMPLES) >= 8, [e[0] for e in EXAMPLES]


@pytest.mark.parametrize("code,line", [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_readme_example_runs(code, line, tmp_path, monkeypatch):
    namespace = run_example(code, README, line, tmp_path, monkeypatch)
    assert len(namespace) > 2  # the block ran and defined what it shows
