"""The Sphinx site under docs/ builds without a warning (``sphinx-build -W``), its API reference
covers the public API, its CLI reference is the code's --help, and every Python example of
the user guide runs as pasted."""
from __future__ import annotations

import html
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from doc_examples import REPO, rst_examples, run_example

pytest.importorskip("sphinx")

DOCS = REPO / "docs"
# Modules whose whole __all__ the API reference documents.
API_MODULES = ["quartz", "quartz.search", "quartz.search.preprocess", "quartz.generator",
               "quartz.verifier", "quartz.ecc_sets", "quartz.gatesets", "quartz.rl",
               "quartz.bench", "quartz.check"]
EXAMPLES = [e for page in sorted(DOCS.rglob("*.rst")) if "_build" not in page.parts
            for e in [(page, *x) for x in rst_examples(page)]]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The html build of docs/ (warnings are errors; every warning is reported)."""
    out = tmp_path_factory.mktemp("docs-html")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                           "html", "-d", str(out / ".doctrees"), str(DOCS), str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"sphinx-build -W failed:\n{proc.stdout}\n{proc.stderr}"
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


def _text(page: Path) -> str:
    t = re.sub(r"<(script|style).*?</\1>", "", page.read_text(), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", t))


def test_docs_build_without_warnings(site):
    for page in ["index", "install", "cli", "api/index", "api/quartz", "guide/optimize",
                 "guide/ecc_sets", "guide/verify", "guide/bench", "guide/qiskit", "guide/rl",
                 "guide/cluster", "guide/circuits"]:
        assert (site / f"{page}.html").is_file(), page


def test_api_page_shows_the_optimize_signature(site):
    text = _text(site / "api" / "quartz.html")
    sig = re.search(r"quartz\.optimize\((.*?)\)\[source\]", text, re.S)
    assert sig, "no signature of quartz.optimize on api/quartz.html"
    for arg in ("circuit", "gate_set", "timeout", "cost", "method", "algorithm", "report"):
        assert arg in sig.group(1), arg
    assert "Optimise circuit within timeout seconds" in text  # the docstring itself


def test_api_reference_covers_the_public_api(site):
    ids = set()
    for page in (site / "api").glob("*.html"):
        ids |= set(re.findall(r'id="([\w.]+)"', page.read_text()))
    missing = [f"{name}.{attr}" for name in API_MODULES
               for attr in importlib.import_module(name).__all__
               if not attr.startswith("__") and f"{name}.{attr}" not in ids]
    assert not missing, f"public names missing from the API reference: {missing}"
    for extra in ("quartz.qiskit_plugin.QuartzOptimization", "quartz.search.search",
                  "quartz.rl.train.train", "quartz.check.pathsum.prove_equal_path_sum",
                  "quartz.check.qcec.prove_equal", "quartz.Circuit.unitary"):
        assert extra in ids, extra


def test_cli_reference_is_the_help_of_the_code(site):
    from quartz.cli import build_parser
    from quartz.cli.options import HIDDEN

    text = _text(site / "cli.html")
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():
        assert f"usage: quartz {name}" in text, name
        for action in p._actions:
            for flag in action.option_strings:
                if flag in HIDDEN:  # old spellings: aliases kept out of --help
                    continue
                assert flag in text, f"quartz {name} {flag}"
    for flag in ("--require-check", "--algorithm", "--minutes", "--resume", "--constants"):
        assert flag in text


@pytest.mark.parametrize("page,code,line", [(p, code, line) for p, _, code, line in EXAMPLES],
                         ids=[name for _, name, _, _ in EXAMPLES])
def test_guide_example_runs(page, code, line, tmp_path, monkeypatch):
    namespace = run_example(code, page, line, tmp_path, monkeypatch)
    assert len(namespace) > 2
