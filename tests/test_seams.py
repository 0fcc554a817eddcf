"""Module seams: the circuit IR does not depend on the I/O modules, and the package imports its
own modules plainly (an ImportError there is a bug to see, not a condition to handle)."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import quartz

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "quartz"
IO_MODULES = ("quartz.qasm", "quartz.qiskit_convert")


def _imported_modules(path: Path, module: str, top_level_only: bool) -> set[str]:
    """Absolute names of the modules a file imports (relative imports resolved)."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def test_circuit_module_imports_no_io_module():
    """circuit.py names neither I/O module, at module level or inside a function: the I/O
    modules register their readers and writers in circuit.FORMATS instead."""
    names = _imported_modules(PKG / "circuit.py", "quartz.circuit", top_level_only=False)
    assert not {n for n in names if n.startswith(IO_MODULES)}, names
    top = {n.module for n in ast.parse((PKG / "circuit.py").read_text()).body
           if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("quartz")}
    assert top <= {"quartz", "quartz._core", "quartz.angles", "quartz.errors"}, top


def test_io_modules_depend_on_circuit():
    for name in IO_MODULES:
        path = PKG / f"{name.split('.')[1]}.py"
        assert "quartz.circuit" in _imported_modules(path, name, top_level_only=True)


_BLOCKED = f"""
import sys, types
for name in {IO_MODULES!r} + ("qiskit",):
    sys.modules[name] = None  # any import of them raises ImportError
pkg = types.ModuleType("quartz")  # the package without its __init__ (which imports the I/O)
pkg.__path__ = [{str(PKG)!r}]
sys.modules["quartz"] = pkg
import quartz.circuit
from quartz.circuit import Circuit
c = Circuit(2).h(0).cx(0, 1).rz(0.5, 1)
assert len(c) == 3 and c.cx_count == 1 and c.unitary().shape == (4, 4)
assert c.inverse() + c == c.inverse() + c
try:
    c.to_qasm()
except quartz.errors.QuartzError as e:
    assert "quartz.qasm" in str(e), e
else:
    raise AssertionError("to_qasm without quartz.qasm")
assert not any(m in sys.modules and sys.modules[m] is not None for m in {IO_MODULES!r})
print("ok")
"""


def test_circuit_builds_with_the_io_modules_blocked():
    out = subprocess.run([sys.executable, "-c", _BLOCKED], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_conversion_methods_delegate_to_the_registered_io():
    from quartz import circuit, qasm, qiskit_convert

    assert circuit.FORMATS.load_qasm is qasm.load and circuit.FORMATS.dumps_qasm is qasm.dumps
    assert circuit.FORMATS.from_qiskit is qiskit_convert.from_qiskit
    assert circuit.FORMATS.to_qiskit is qiskit_convert.to_qiskit
    c = quartz.Circuit(2).h(0).cx(0, 1)
    assert quartz.Circuit.from_qasm(c.to_qasm()) == c
    assert quartz.Circuit.from_qiskit(c.to_qiskit()) == c


def _guarded_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import inside a `try` that handles ImportError."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Try):
            continue
        caught = {ast.unparse(h.type) for h in node.handlers if h.type is not None}
        if not any("ImportError" in c or "ModuleNotFoundError" in c for c in caught):
            continue
        for sub in (n for stmt in node.body for n in ast.walk(stmt)):
            if isinstance(sub, ast.Import):
                out += [(sub.lineno, a.name) for a in sub.names]
            elif isinstance(sub, ast.ImportFrom):
                out.append((sub.lineno, "." * sub.level + (sub.module or "")))
            elif (isinstance(sub, ast.Call) and ast.unparse(sub.func).endswith("import_module")
                  and sub.args and isinstance(sub.args[0], ast.Constant)):
                out.append((sub.lineno, str(sub.args[0].value)))
    return out


def test_no_import_guard_around_the_package_s_own_modules():
    """`try: import ... except ImportError` guards only optional third-party packages."""
    own = []
    for path in sorted(PKG.rglob("*.py")):
        for line, module in _guarded_imports(path):
            if module.startswith((".", "quartz", "circuits")):
                own.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert own == []


def test_guarded_imports_are_optional_dependencies():
    optional = ("torch", "torch_geometric", "mqt.qcec", "matplotlib", "ray",
                "qiskit.transpiler", "qiskit.circuit")
    found = {m for path in PKG.rglob("*.py") for _, m in _guarded_imports(path)}
    assert found and all(m.startswith(optional) for m in found), found


CHECK_METHODS = tuple(f"quartz.check.{m}" for m in ("unitary", "pathsum", "states", "qcec"))


def _within(name: str, modules: tuple[str, ...]) -> bool:
    """Whether `name` is one of `modules` or inside one of them."""
    return any(name == m or name.startswith(m + ".") for m in modules)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_only_the_check_package_imports_the_check_methods():
    """Outside quartz/check every check goes through the policy (quartz.check): no module
    imports a method module (quartz.check.unitary, .pathsum, .states, .qcec) itself."""
    direct = []
    for path in sorted(PKG.rglob("*.py")):
        if (PKG / "check") in path.parents:
            continue
        for name in _imported_modules(path, _module_name(path), top_level_only=False):
            if _within(name, CHECK_METHODS):
                direct.append(f"{path.relative_to(ROOT)}: {name}")
    assert direct == []


def test_the_check_package_sits_below_the_optimizer_and_the_bench():
    """quartz.check imports the circuit, the errors, the CPU count and itself, never the search,
    the API, the bench or the Qiskit stage (no import circle through the policy)."""
    allowed = ("quartz.check", "quartz.circuit", "quartz.errors", "quartz.cpus")
    found = set()
    for path in sorted((PKG / "check").rglob("*.py")):
        found |= {n for n in _imported_modules(path, _module_name(path), top_level_only=False)
                  if n == "quartz" or n.startswith("quartz.")}
    assert found and all(_within(n, allowed) for n in found), sorted(found)
