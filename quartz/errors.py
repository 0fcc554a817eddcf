"""Exception types of quartz: every user-facing failure is a QuartzError."""


class QuartzError(ValueError):
    """Base class of quartz's errors (a ValueError, so generic handlers still catch it)."""


class QasmError(QuartzError):
    """A QASM file or string that cannot be read; the message names the source and line."""

    def __init__(self, message: str, source: str = "<string>", line: int | None = None):
        self.source = source
        self.line = line
        where = source if line is None else f"{source}, line {line}"
        super().__init__(f"{where}: {message}")


class GateSetError(QuartzError):
    """A gate that a gate set does not contain or cannot express."""


class EquivalenceError(QuartzError):
    """An optimized circuit that failed its equivalence check (a bug in quartz)."""
