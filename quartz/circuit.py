"""`quartz.Circuit`: the Python face of the native circuit IR.

>>> from quartz import Circuit
>>> c = Circuit(2)
>>> c.h(0).cx(0, 1).rz(-0.7853981633974483, 1)
Circuit(2 qubits, 3 gates)
>>> [g.name for g in c], c.cx_count, str(c[2].params[0])
(['h', 'cx', 'rz'], 1, '-pi/4')
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import (TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple, Sequence, TypeVar,
                    overload)

import numpy as np
import numpy.typing as npt

from quartz import _core
from quartz._core import Param
from quartz.angles import AngleLike, to_param
from quartz.errors import QuartzError

if TYPE_CHECKING:  # pragma: no cover
    from qiskit import QuantumCircuit

GATE_NAMES: tuple[str, ...] = tuple(_core.gate_names())


class Gate(NamedTuple):
    """One gate of a circuit: its type name, qubit indices and angles."""

    name: str
    qubits: tuple[int, ...]
    params: tuple[Param, ...]


class Circuit:
    """A quantum circuit over quartz's gate types, stored in the native core."""

    __slots__ = ("_native", "name")
    _native: _core.Circuit
    name: str | None

    def __init__(self, num_qubits: int = 0, name: str | None = None):
        if isinstance(num_qubits, _core.Circuit):
            self._native = num_qubits
        else:
            if isinstance(num_qubits, bool) or not isinstance(num_qubits, int) or num_qubits < 0:
                raise QuartzError(f"number of qubits must be a non-negative int, got {num_qubits!r}")
            try:
                self._native = _core.Circuit(num_qubits)
            except TypeError:  # beyond the native int range
                raise QuartzError(f"number of qubits {num_qubits} is too large") from None
        self.name = name

    @classmethod
    def _wrap(cls, native: _core.Circuit, name: str | None = None) -> Circuit:
        c = cls.__new__(cls)
        c._native = native
        c.name = name
        return c

    @property
    def native(self) -> _core.Circuit:
        """The underlying `quartz._core.Circuit` (shared, not copied)."""
        return self._native

    # --- building ---------------------------------------------------------------------
    def append(self, name: str, qubits: Sequence[int], params: Iterable[AngleLike] = ()) -> Circuit:
        """Append a gate by name; angles are radians, `Param` objects or pi-expressions."""
        if name not in GATE_NAMES:
            raise QuartzError(f"unknown gate '{name}'; known gates: {', '.join(GATE_NAMES)}")
        try:
            self._native.add_gate(name, [int(q) for q in qubits], [to_param(p) for p in params])
        except (ValueError, TypeError, OverflowError) as e:
            raise QuartzError(str(e)) from None
        return self

    def extend(self, gates: Iterable[tuple[str, Sequence[int]]
                                    | tuple[str, Sequence[int], Iterable[AngleLike]]]) -> Circuit:
        """Append every (name, qubits, params) of an iterable."""
        for g in gates:
            self.append(*g)
        return self

    if TYPE_CHECKING:  # the gate methods that __getattr__ makes at run time, typed
        def h(self, q0: int, /) -> Circuit: ...
        def x(self, q0: int, /) -> Circuit: ...
        def y(self, q0: int, /) -> Circuit: ...
        def z(self, q0: int, /) -> Circuit: ...
        def s(self, q0: int, /) -> Circuit: ...
        def sdg(self, q0: int, /) -> Circuit: ...
        def t(self, q0: int, /) -> Circuit: ...
        def tdg(self, q0: int, /) -> Circuit: ...
        def sx(self, q0: int, /) -> Circuit: ...
        def sxdg(self, q0: int, /) -> Circuit: ...
        def rx(self, theta: AngleLike, q0: int, /) -> Circuit: ...
        def ry(self, theta: AngleLike, q0: int, /) -> Circuit: ...
        def rz(self, theta: AngleLike, q0: int, /) -> Circuit: ...
        def p(self, theta: AngleLike, q0: int, /) -> Circuit: ...
        def u1(self, theta: AngleLike, q0: int, /) -> Circuit: ...
        def u2(self, phi: AngleLike, lam: AngleLike, q0: int, /) -> Circuit: ...
        def u3(self, theta: AngleLike, phi: AngleLike, lam: AngleLike, q0: int, /) -> Circuit: ...
        def cx(self, q0: int, q1: int, /) -> Circuit: ...
        def cy(self, q0: int, q1: int, /) -> Circuit: ...
        def cz(self, q0: int, q1: int, /) -> Circuit: ...
        def ch(self, q0: int, q1: int, /) -> Circuit: ...
        def cp(self, theta: AngleLike, q0: int, q1: int, /) -> Circuit: ...
        def swap(self, q0: int, q1: int, /) -> Circuit: ...
        def rxx(self, theta: AngleLike, q0: int, q1: int, /) -> Circuit: ...
        def ryy(self, theta: AngleLike, q0: int, q1: int, /) -> Circuit: ...
        def rzz(self, theta: AngleLike, q0: int, q1: int, /) -> Circuit: ...
        def ccx(self, q0: int, q1: int, q2: int, /) -> Circuit: ...
        def ccz(self, q0: int, q1: int, q2: int, /) -> Circuit: ...
    else:
        def __getattr__(self, attr: str) -> Callable[..., Circuit]:
            # c.h(0), c.cx(0, 1), c.rz(theta, 0), c.u3(a, b, c, 0): Qiskit's argument order.
            if attr in GATE_NAMES:
                nq, np_, _, _ = _core.gate_info(attr)

                def add(*args: Any) -> Circuit:
                    if len(args) != nq + np_:
                        raise QuartzError(f"{attr} takes {np_} angle(s) and {nq} qubit(s)")
                    return self.append(attr, args[np_:], args[:np_])

                return add
            raise AttributeError(attr)

    # --- reading ------------------------------------------------------------------------
    @property
    def num_qubits(self) -> int:
        """Number of qubits."""
        return self._native.num_qubits

    @property
    def num_symbols(self) -> int:
        """1 + the largest symbol index used by any angle (0 for a concrete circuit)."""
        return self._native.num_symbols

    @property
    def global_phase(self) -> Param:
        """The constant global phase (radians as a Param), kept in (-pi, pi]."""
        return self._native.global_phase

    @global_phase.setter
    def global_phase(self, value: AngleLike) -> None:
        try:
            self._native.global_phase = to_param(value)
        except (ValueError, TypeError, OverflowError) as e:
            raise QuartzError(f"bad global phase: {e}") from None

    def __len__(self) -> int:
        return self._native.num_gates

    @overload
    def __getitem__(self, i: int) -> Gate: ...
    @overload
    def __getitem__(self, i: slice) -> Circuit: ...

    def __getitem__(self, i: int | slice) -> Gate | Circuit:
        """Gate i, or for a slice (step 1) the sub-circuit of those gates (no global phase)."""
        n = len(self)
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if step != 1:
                raise QuartzError("circuit slices must have step 1")
            return Circuit._wrap(self._native.slice(start, max(start, stop)), self.name)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("gate index out of range")
        return Gate(*self._native.gate(i))

    def __iter__(self) -> Iterator[Gate]:
        return (Gate(*g) for g in self._native.gates())

    @property
    def gate_count(self) -> int:
        """Number of gates."""
        return self._native.num_gates

    @property
    def cx_count(self) -> int:
        """Number of cx gates."""
        return self._native.count("cx")

    @property
    def two_qubit_count(self) -> int:
        """Number of two-qubit gates of any type."""
        return self._native.two_qubit_count()

    @property
    def t_count(self) -> int:
        """T gates: t, tdg, and rz/p/u1/cp by an odd multiple of pi/4."""
        return self._native.t_count()

    @property
    def depth(self) -> int:
        """Circuit depth (longest chain of gates sharing qubits)."""
        return self._native.depth()

    def count_ops(self) -> dict[str, int]:
        """Gate name -> number of occurrences, most frequent first."""
        counts: dict[str, int] = {}
        for name, _, _ in self._native.gates():
            counts[name] = counts.get(name, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def predecessor(self, gate: int, slot: int) -> int | None:
        """Index of the previous gate on the wire of `gate`'s qubit slot, or None."""
        j = self._native.prev_on_wire(gate, slot)
        return None if j < 0 else j

    def successor(self, gate: int, slot: int) -> int | None:
        """Index of the next gate on the wire of `gate`'s qubit slot, or None."""
        j = self._native.next_on_wire(gate, slot)
        return None if j < 0 else j

    # --- identity -------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Circuit) and self._native.equals(other._native)

    def __hash__(self) -> int:
        return self._native.hash() >> 1

    def structural_hash(self) -> int:
        """64-bit hash of the gate DAG with angles and qubits (independent of commuting order)."""
        return self._native.hash()

    def copy(self) -> Circuit:
        """An independent copy."""
        return Circuit._wrap(self._native.copy(), self.name)

    def canonical(self) -> Circuit:
        """The same DAG with gates in quartz's canonical topological order."""
        return Circuit._wrap(self._native.canonical(), self.name)

    def inverse(self) -> Circuit:
        """The inverse circuit (reversed, each gate inverted, phase negated)."""
        return Circuit._wrap(self._native.inverse(), self.name)

    def __add__(self, other: object) -> Circuit:
        if not isinstance(other, Circuit):
            return NotImplemented
        if other.num_qubits != self.num_qubits:
            raise QuartzError(f"cannot concatenate a {self.num_qubits}-qubit and a "
                              f"{other.num_qubits}-qubit circuit")
        c = self.copy()
        c._native.append(other._native)
        return c

    def __getstate__(self) -> tuple[_core.Circuit, str | None]:
        return (self._native, self.name)

    def __setstate__(self, state: tuple[_core.Circuit, str | None]) -> None:
        self._native, self.name = state

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return f"Circuit({label}{self.num_qubits} qubits, {len(self)} gates)"

    def summary(self) -> str:
        """One line of statistics: gates, CX, T, depth and the per-gate counts."""
        ops = " ".join(f"{k}:{v}" for k, v in self.count_ops().items())
        return (f"{self.num_qubits} qubits, {len(self)} gates, {self.cx_count} cx, "
                f"{self.t_count} T, depth {self.depth} [{ops}]")

    # --- simulation ------------------------------------------------------------------------
    def unitary(self, symbol_values: Sequence[float] = (),
                include_global_phase: bool = True) -> npt.NDArray[np.complex128]:
        """The 2^n x 2^n unitary (qubit 0 = least significant bit, as in Qiskit)."""
        try:
            return self._native.unitary(list(symbol_values), include_global_phase)
        except ValueError as e:
            raise QuartzError(str(e)) from None

    def apply(self, state: npt.ArrayLike, symbol_values: Sequence[float] = (),
              include_global_phase: bool = True) -> npt.NDArray[np.complex128]:
        """The state vector after running the circuit on `state`."""
        try:
            return self._native.apply(np.asarray(state, dtype=complex), list(symbol_values),
                                      include_global_phase)
        except ValueError as e:
            raise QuartzError(str(e)) from None

    # --- conversion ------------------------------------------------------------------------
    # The formats live in the I/O modules, which depend on this one (never the reverse): they
    # register their readers and writers in FORMATS when imported (`import quartz` does).
    def to_qiskit(self) -> QuantumCircuit:
        """The equal `qiskit.QuantumCircuit` (global phase included)."""
        return _registered(FORMATS.to_qiskit, "quartz.qiskit_convert")(self)

    @classmethod
    def from_qiskit(cls, qc: QuantumCircuit) -> Circuit:
        """The equal Circuit of a `qiskit.QuantumCircuit` (see quartz.qiskit_convert)."""
        return _registered(FORMATS.from_qiskit, "quartz.qiskit_convert")(qc)

    @classmethod
    def from_qasm(cls, source: str | os.PathLike[str]) -> Circuit:
        """Read OpenQASM 2 or 3 from a path or a string."""
        return _registered(FORMATS.load_qasm, "quartz.qasm")(source)

    def to_qasm(self) -> str:
        """OpenQASM 2 text that reads back to an equal circuit."""
        return _registered(FORMATS.dumps_qasm, "quartz.qasm")(self)


@dataclass
class Formats:
    """The readers and writers of other formats that Circuit's conversion methods call, set by
    the modules that define them: quartz.qasm (load_qasm, dumps_qasm) and quartz.qiskit_convert
    (from_qiskit, to_qiskit)."""

    load_qasm: Callable[[str | os.PathLike[str]], Circuit] | None = None
    dumps_qasm: Callable[[Circuit], str] | None = None
    from_qiskit: Callable[[QuantumCircuit], Circuit] | None = None
    to_qiskit: Callable[[Circuit], QuantumCircuit] | None = None


FORMATS = Formats()

_T = TypeVar("_T")


def _registered(fn: _T | None, module: str) -> _T:
    if fn is None:
        raise QuartzError(f"this conversion is defined by {module}, which is not imported")
    return fn
