"""SIGINT/SIGTERM for long commands: the first signal becomes a KeyboardInterrupt (which the
search turns into "stop and return the best so far"), and the command learns which signal it
was, so it can save its result and exit 128 + the signal number (130, 143)."""
from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass

SIGNALS = (signal.SIGINT, signal.SIGTERM)


@dataclass
class Interrupted:
    """Which signal arrived (None: none)."""

    signum: int | None = None

    @property
    def name(self) -> str:
        """'SIGINT', 'SIGTERM' (or '' when none arrived)."""
        return signal.Signals(self.signum).name if self.signum is not None else ""

    @property
    def exit_code(self) -> int:
        """128 + the signal number, the shell's convention (0 when none arrived)."""
        return 128 + self.signum if self.signum is not None else 0


@contextlib.contextmanager
def catch_signals() -> Iterator[Interrupted]:
    """Within the block, SIGINT and SIGTERM raise KeyboardInterrupt and are recorded; the
    previous handlers come back afterwards. Outside the main thread nothing is installed."""
    state = Interrupted()
    if threading.current_thread() is not threading.main_thread():
        yield state
        return

    def handler(signum, frame):
        if state.signum is None:
            state.signum = signum
        raise KeyboardInterrupt(signal.Signals(signum).name)

    previous = {s: signal.signal(s, handler) for s in SIGNALS}
    try:
        yield state
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
