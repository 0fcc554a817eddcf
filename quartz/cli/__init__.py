"""The `quartz` command line: one sub-command module per subsystem (gen, verify, ...)."""
from __future__ import annotations

import argparse
import importlib
import sys

from quartz.cli.options import use_formatter
from quartz.errors import QuartzError

# Each module defines add_parser(subparsers) and run(args) -> int.
SUBCOMMANDS = ("gen", "verify", "optimize", "bench", "rl")


def build_parser() -> argparse.ArgumentParser:
    from quartz import __version__

    parser = argparse.ArgumentParser(prog="quartz", description="Superoptimize quantum circuits.")
    parser.add_argument("--version", action="version", version=f"quartz {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        mod = importlib.import_module(f"quartz.cli.{name}_cmd")
        p = mod.add_parser(sub)
        p.set_defaults(_run=mod.run)
    use_formatter(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except QuartzError as e:
        print(f"quartz {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"quartz {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
