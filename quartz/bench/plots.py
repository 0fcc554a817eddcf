"""PNG plots of a benchmark run (matplotlib, no display): gate reduction per circuit for every
optimizer, and best cost over time for our methods when they report a trace."""
from __future__ import annotations

import io
from pathlib import Path

from quartz.bench.report import optimizers, reduction
from quartz.bench.runner import CircuitResult
from quartz.io_utils import atomic_write_bytes

INSTALL_HINT = "pip install 'quartz-superopt[bench]'"


def missing() -> str | None:
    """None when the plots can be drawn, else the package that is missing (matplotlib is an
    optional dependency: the bench extra)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        return e.name or "matplotlib"
    return None


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    atomic_write_bytes(path, buf.getvalue())


def plot_reduction(results: list[CircuitResult], path: str | Path, title: str = "") -> Path:
    """Grouped bars: percent fewer gates than the input, per circuit and optimizer."""
    plt = _pyplot()
    names = [n for n, _ in optimizers(results)]
    width = 0.8 / max(1, len(names))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.45 * len(results) * max(1, len(names)) + 2), 4.5))
    for k, name in enumerate(names):
        xs, ys = [], []
        for i, r in enumerate(results):
            o = r.outcome(name)
            red = reduction(r.gates, o.gates) if o is not None and o.status != "error" else None
            if red is not None:
                xs.append(i + (k - (len(names) - 1) / 2) * width)
                ys.append(red)
        ax.bar(xs, ys, width=width, label=name)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(results)))
    ax.set_xticklabels([r.circuit for r in results], rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("gate reduction vs input (%)")
    ax.set_title(title or "Gate-count reduction per circuit")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    path = Path(path)
    _save(fig, path)
    plt.close(fig)
    return path


def plot_cost_over_time(results: list[CircuitResult], path: str | Path,
                        title: str = "") -> Path | None:
    """Best cost (relative to the start) against seconds, one line per circuit and method."""
    traces = [(r.circuit, o.optimizer, o.trace) for r in results for o in r.outcomes
              if o.kind == "ours" and len(o.trace) >= 2]
    if not traces:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    methods = sorted({m for _, m, _ in traces})
    for circuit, method, trace in traces:
        start = trace[0][1] or 1.0
        xs = [t for t, _ in trace]
        ys = [c / start for _, c in trace]
        label = circuit if len(methods) == 1 else f"{circuit} ({method})"
        ax.step(xs, ys, where="post", label=label, linewidth=1)
    ax.set_xlabel("seconds")
    ax.set_ylabel("best cost / initial cost")
    ax.set_title(title or "Best cost over time")
    ax.grid(alpha=0.3)
    if len(traces) <= 20:
        ax.legend(fontsize=7, ncol=2)
    path = Path(path)
    _save(fig, path)
    plt.close(fig)
    return path


__all__ = ["plot_reduction", "plot_cost_over_time"]
