"""One spelling of every option across the sub-commands, with the other spellings kept as hidden
aliases: `--gateset` (alias `--gate-set`), `--ecc-set` (alias `--ecc`), `--jobs`/`-j` (alias
`--workers`). An alias parses exactly like its option; help shows only the primary spelling.

>>> import argparse
>>> p = argparse.ArgumentParser(formatter_class=HelpFormatter)
>>> _ = p.add_argument(*spellings("--gateset"), default="nam")
>>> p.parse_args(["--gate-set", "ibm"]).gateset
'ibm'
>>> "--gate-set" in p.format_help()
False
"""
from __future__ import annotations

import argparse
import copy

# primary spelling -> the spellings that parse the same but are not shown in help
ALIASES = {
    "--gateset": ("--gate-set",),
    "--ecc-set": ("--ecc",),
    "--jobs": ("-j", "--workers"),
}
# short options that are shown in help beside the primary spelling
SHOWN_SHORT = {"-j"}
HIDDEN = {a for names in ALIASES.values() for a in names} - SHOWN_SHORT


def spellings(primary: str) -> tuple[str, ...]:
    """The option strings of `primary`: itself first (argparse takes `dest` from it), then its
    aliases."""
    return (primary, *ALIASES.get(primary, ()))


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, without the hidden aliases."""

    def _format_action_invocation(self, action):
        shown = [s for s in action.option_strings if s not in HIDDEN]
        if shown != list(action.option_strings):
            action = copy.copy(action)
            action.option_strings = shown
        return super()._format_action_invocation(action)


def use_formatter(parser: argparse.ArgumentParser) -> None:
    """Give `parser` and all its sub-parsers HelpFormatter."""
    parser.formatter_class = HelpFormatter
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                use_formatter(sub)
