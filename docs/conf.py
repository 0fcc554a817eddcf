"""Sphinx configuration for the quartz documentation (``make docs``)."""
from __future__ import annotations

import importlib.util
import os
import sys

# Document the checkout this file belongs to (with its compiled quartz._core), not some other
# installed copy.
sys.path.insert(0, os.path.abspath(".."))
sys.path.insert(0, os.path.abspath("_ext"))

import quartz  # noqa: E402

project = "quartz"
author = "quartz developers"
copyright = "quartz developers, Apache-2.0"
release = quartz.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "quartz_cli",  # .. quartz-help:: (docs/_ext)
]

# Docstrings write `name` for code: render it as a Python cross-reference (a link when the
# target is documented, code otherwise), as numpy's and Qiskit's docs do.
default_role = "py:obj"

autosummary_generate = False  # the API pages are written by hand; nothing is generated
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# The RL extra is optional: without torch the pages of quartz.rl are built from mocks.
autodoc_mock_imports = [m for m in ("torch", "torch_geometric")
                        if importlib.util.find_spec(m) is None]

intersphinx_mapping: dict = {}  # offline builds: no inventories fetched

exclude_patterns = ["_build"]
templates_path: list[str] = []
html_theme = "alabaster"
html_title = f"quartz {release}"
html_static_path: list[str] = []
