"""quartz: a superoptimizer for quantum circuits in any gate set.

>>> import quartz
>>> c = quartz.Circuit(1).h(0).h(0)
>>> len(c)
2
"""
from quartz._core import Param
from quartz.angles import pi_fraction, to_param
from quartz.circuit import Circuit, Gate
from quartz.errors import EquivalenceError, GateSetError, QasmError, QuartzError
from quartz.qasm import dump, dumps, load, loads
from quartz import qiskit_convert as _qiskit_convert  # noqa: F401  (Circuit.from_qiskit, .to_qiskit)
from quartz.api import optimize

__version__ = "0.1.0"

__all__ = [
    "Circuit", "Gate", "Param", "QuartzError", "QasmError", "GateSetError", "EquivalenceError",
    "load", "loads", "dump", "dumps", "to_param", "pi_fraction", "optimize", "__version__",
]
