"""Typing: the package is marked typed, the stubs of quartz._core match the compiled module,
and the public API modules pass `mypy --strict` (configured in pyproject's [tool.mypy])."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from quartz import _core

ROOT = Path(__file__).resolve().parents[1]
STUBS = ROOT / "quartz" / "_core"


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


# --- mypy ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("mypy_cache"))


def test_public_api_is_mypy_strict_clean(mypy_cache):
    """`mypy` with pyproject's [tool.mypy] (strict; the public API modules) reports nothing."""
    out = _run("-m", "mypy", "--cache-dir", mypy_cache)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_checks_the_public_api_modules():
    """The checked files include the public API modules the typing promise is about."""
    import tomllib

    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    for module in ["quartz/__init__.py", "quartz/api.py", "quartz/circuit.py", "quartz/errors.py",
                   "quartz/search/driver.py", "quartz/search/costs.py", "quartz/gatesets"]:
        assert module in files


def test_stubs_match_the_compiled_module():
    """mypy.stubtest finds no difference between quartz/_core/*.pyi and the built quartz._core."""
    out = _run("-m", "mypy.stubtest", "quartz._core", "--mypy-config-file", "pyproject.toml")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_sees_the_typed_api(tmp_path, mypy_cache):
    """A user's strict mypy run resolves quartz's types: a wrong argument is an error."""
    user = tmp_path / "user.py"
    user.write_text("import quartz\n"
                    "c: quartz.Circuit = quartz.Circuit(2).h(0).cx(0, 1).rz(0.5, 1)\n"
                    "n: int = c.gate_count + len(c[0:1])\n"
                    "g: quartz.Gate = c[0]\n"
                    "p: quartz.Param = quartz._core.Param.pi(1, 4) + c.global_phase\n"
                    "c.cx(0)\n"
                    "c.hh(0)\n")
    out = _run("-m", "mypy", "--cache-dir", mypy_cache, str(user))  # the project's config
    errors = [ln for ln in out.stdout.splitlines() if ": error:" in ln]
    assert [ln.split(":")[1] for ln in errors] == ["6", "7"], out.stdout


# --- packaging ----------------------------------------------------------------------------
def test_py_typed_and_stubs_are_package_data(tmp_path):
    """A wheel carries quartz/py.typed and the stubs (build_py copies exactly what it gets)."""
    (tmp_path / "egg").mkdir()
    subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(tmp_path / "egg"),
                    "build_py", "--build-lib", str(tmp_path / "lib")],
                   cwd=ROOT, check=True, capture_output=True)
    built = tmp_path / "lib" / "quartz"
    assert (built / "py.typed").is_file()
    stubs = sorted(p.name for p in STUBS.glob("*.pyi"))
    assert stubs == ["__init__.pyi", "preprocess.pyi", "rl.pyi"]
    assert sorted(p.name for p in (built / "_core").glob("*.pyi")) == stubs


# --- the stubs against the pybind11 signatures ------------------------------------------------
def _split_top(text: str, sep: str = ",") -> list[str]:
    """text split at `sep` outside brackets and quotes."""
    out, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _runtime_params(fn: object) -> list[tuple[str, str | None]]:
    """(name, default text or None) of each parameter in a pybind11 signature line."""
    first = (getattr(fn, "__doc__", None) or "").splitlines()[0]
    assert "(" in first and first.rstrip().split("->")[0].rstrip().endswith(")"), first
    inner = first[first.index("(") + 1: first.rindex(")", 0, first.rindex("->"))]
    params = []
    for p in _split_top(inner):
        if p == "/":
            continue
        name, _, rest = p.partition(":")
        parts = _split_top(rest, "=")
        params.append((name.strip(), parts[1].strip() if len(parts) > 1 else None))
    return params


def _stub_params(fn: ast.FunctionDef) -> list[tuple[str, bool, str | None]]:
    """(name, positional-only, default text or None) of each stub parameter."""
    a = fn.args
    plain = a.posonlyargs + a.args
    defaults = [None] * (len(plain) - len(a.defaults)) + list(a.defaults)
    return [(arg.arg, i < len(a.posonlyargs), None if d is None else ast.unparse(d))
            for i, (arg, d) in enumerate(zip(plain, defaults))] + \
           [(arg.arg, False, None if d is None else ast.unparse(d))
            for arg, d in zip(a.kwonlyargs, a.kw_defaults)]


def _defs(body: list[ast.stmt]) -> dict[str, list[ast.FunctionDef]]:
    out: dict[str, list[ast.FunctionDef]] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef):
            out.setdefault(node.name, []).append(node)
    return out


def _check_function(where: str, runtime: object, stub: ast.FunctionDef) -> list[str]:
    problems = []
    want = _runtime_params(runtime)
    have = _stub_params(stub)
    is_static = any(ast.unparse(d) == "staticmethod" for d in stub.decorator_list)
    if want and want[0][0] == "self" and not is_static:
        want, have = want[1:], have[1:]  # self is the instance either way
    if len(want) != len(have):
        return [f"{where}: {len(have)} parameters in the stub, {len(want)} at runtime"]
    for (rname, rdef), (sname, posonly, sdef) in zip(want, have):
        unnamed = rname.startswith("arg") and rname[3:].isdigit()
        if unnamed != posonly:
            problems.append(f"{where}: parameter {sname!r} should be "
                            f"{'positional-only' if unnamed else 'named ' + repr(rname)}")
        elif not unnamed and rname != sname:
            problems.append(f"{where}: parameter {sname!r} is {rname!r} at runtime")
        if (rdef is None) != (sdef is None):
            problems.append(f"{where}: parameter {sname!r} default {sdef} vs runtime {rdef}")
        elif sdef not in (None, "..."):
            try:
                same = ast.literal_eval(sdef) == ast.literal_eval(rdef)
            except ValueError:
                same = sdef == rdef
            if not same:
                problems.append(f"{where}: parameter {sname!r} default {sdef} vs runtime {rdef}")
    return problems


def _check_namespace(where: str, runtime: object, body: list[ast.stmt]) -> list[str]:
    problems = []
    defs = _defs(body)
    classes = {n.name: n for n in body if isinstance(n, ast.ClassDef)}
    for name, fns in defs.items():
        obj = getattr(runtime, name, None)
        if obj is None:
            problems.append(f"{where}.{name}: in the stub, not at runtime")
            continue
        decorators = {ast.unparse(d) for d in fns[0].decorator_list}
        if "property" in decorators:
            if not isinstance(obj, property):
                problems.append(f"{where}.{name}: a property in the stub only")
            elif (obj.fset is not None) != any(f"{name}.setter" in {ast.unparse(d) for d in f.decorator_list}
                                               for f in fns):
                problems.append(f"{where}.{name}: setter in only one of stub and runtime")
            continue
        if isinstance(obj, property):
            problems.append(f"{where}.{name}: a property at runtime, a method in the stub")
            continue
        problems += _check_function(f"{where}.{name}", obj, fns[0])
    for name, cls in classes.items():
        if not name.startswith("_"):
            problems += _check_namespace(f"{where}.{name}", getattr(runtime, name), cls.body)
    return problems


@pytest.mark.parametrize("stub, module", [("__init__.pyi", _core), ("preprocess.pyi", _core.preprocess),
                                          ("rl.pyi", _core.rl)])
def test_stub_signatures_match_pybind11(stub, module):
    """Parameter names, positional-only parameters (pybind11's unnamed argN) and defaults of
    every stubbed function and method agree with the signature pybind11 reports."""
    tree = ast.parse((STUBS / stub).read_text())
    assert _check_namespace(module.__name__, module, tree.body) == []


def _public(obj: object) -> set[str]:
    return {n for n in dir(obj) if not n.startswith("_")}


def test_stubs_cover_every_binding():
    """Every function, class, method and property of the compiled module has a stub."""
    missing = []
    for stub, module in [("__init__.pyi", _core), ("preprocess.pyi", _core.preprocess),
                         ("rl.pyi", _core.rl)]:
        tree = ast.parse((STUBS / stub).read_text())
        names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        names |= {a.asname for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
        missing += [f"{module.__name__}.{n}" for n in _public(module) - names]
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")):
            have = {f.name for f in cls.body if isinstance(f, ast.FunctionDef)}
            runtime = getattr(module, cls.name)
            missing += [f"{module.__name__}.{cls.name}.{n}" for n in _public(runtime) - have]
            dunders = {n for n in vars(runtime) if n.startswith("__") and n not in
                       ("__doc__", "__module__", "__dict__", "__weakref__")}
            missing += [f"{module.__name__}.{cls.name}.{n}" for n in dunders - have]
    assert missing == []


def test_typed_gate_methods_match_the_gate_types():
    """circuit.py declares (for type checkers) one builder method per gate type, with the
    angles then the qubits that __getattr__ takes at run time."""
    tree = ast.parse((ROOT / "quartz" / "circuit.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Circuit")
    block = next(n for n in cls.body
                 if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    declared = {}
    for fn in block.body:
        assert isinstance(fn, ast.FunctionDef)
        args = [ast.unparse(a.annotation) for a in fn.args.posonlyargs[1:] if a.annotation]
        assert not fn.args.args and ast.unparse(fn.returns) == "Circuit", fn.name
        declared[fn.name] = (args.count("int"), args.count("AngleLike"), args)
    assert list(declared) == _core.gate_names()
    for name, (nq, np_, args) in declared.items():
        info = _core.gate_info(name)
        assert (nq, np_) == (info[0], info[1]) and args == ["AngleLike"] * np_ + ["int"] * nq, name
