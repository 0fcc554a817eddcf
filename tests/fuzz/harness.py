"""Runs fuzz cases in a worker subprocess with a per-case time limit; crashes and hangs are failures."""
from __future__ import annotations

import json
import os
import resource
import selectors
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("worker.py")
STARTUP_LIMIT = 300.0  # seconds for the worker's imports on a loaded machine
MEMORY_LIMIT = 4 << 30  # bytes of address space per worker: a runaway allocation fails, not the box


@dataclass
class CaseResult:
    """What happened to one fuzz case."""

    outcome: str   # "ok" | "rejected" | "bad" | "crash" | "hang"
    detail: str
    text: str

    @property
    def failed(self) -> bool:
        return self.outcome in ("bad", "crash", "hang")


def _limit_memory():  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    os.nice(5)


class FuzzWorker:
    """A long-lived worker process; restarted after a crash or a hang."""

    def __init__(self, time_limit: float = 20.0):
        self.time_limit = time_limit
        self.proc: subprocess.Popen | None = None

    def _start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env, preexec_fn=_limit_memory)
        # Wait for the imports to finish: start-up time is not part of any case's time limit.
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        ready = sel.select(STARTUP_LIMIT)
        sel.close()
        if not ready or self.proc.stdout.readline().strip() != "ready":
            self._kill()
            raise RuntimeError(f"fuzz worker did not start within {STARTUP_LIMIT} s")

    def _kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, kind: str, text: str) -> CaseResult:
        """Check one case; a dead or silent worker makes the case a crash or a hang."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc.stdin and self.proc.stdout
        try:
            self.proc.stdin.write(json.dumps({"kind": kind, "text": text}) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            code = self.proc.wait()
            self.proc = None
            return CaseResult("crash", f"worker died (exit {code}) before reading the case", text)
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        ready = sel.select(self.time_limit)
        sel.close()
        if not ready:
            self._kill()
            return CaseResult("hang", f"no answer within {self.time_limit:g} s", text)
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            self.proc = None
            return CaseResult("crash", f"worker died with exit code {code}", text)
        answer = json.loads(line)
        return CaseResult(answer["outcome"], answer["detail"], text)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._kill()
            self.proc = None

    def __enter__(self) -> "FuzzWorker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def report(failures: list[CaseResult], limit: int = 5) -> str:
    """Readable summary of the first failing cases (outcome, detail, input)."""
    parts = []
    for f in failures[:limit]:
        parts.append(f"--- {f.outcome}: {f.detail}\n--- input:\n{f.text[:1500]}")
    return f"{len(failures)} failing case(s)\n" + "\n".join(parts)
