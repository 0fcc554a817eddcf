# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
# `make docs` builds the Sphinx site into docs/_build/html (warnings are errors).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
SHARED ?= ../shared

.PHONY: demo test install install-test bench docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip setuptools wheel pybind11

$(VENV)/.installed: $(BIN)/python setup.py pyproject.toml $(wildcard quartz/_core/*.cpp quartz/_core/*.h)
	$(BIN)/pip install -q -e ".[test,rl,bench,ray]"
	touch $@

install: $(VENV)/.installed

demo: install
	$(BIN)/python -m quartz.demo

test: install
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python benchmarks/bench_core.py

docs: install
	$(BIN)/python -m sphinx -W --keep-going -b html -d docs/_build/doctrees docs docs/_build/html

clean:
	rm -rf build $(VENV) quartz/*.so *.egg-info docs/_build
