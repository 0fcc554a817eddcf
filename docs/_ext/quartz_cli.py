"""``.. quartz-help:: optimize`` renders ``quartz optimize --help`` (from quartz.cli's parser;
no argument: ``quartz --help``), so the command-line reference is the one the code prints."""
from __future__ import annotations

import os

from docutils import nodes
from docutils.parsers.rst import Directive

WIDTH = "90"  # argparse wraps help to $COLUMNS


def _subparser(parser, words: list[str]):
    for word in words:
        actions = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
        if not actions or word not in actions[0].choices:
            raise KeyError(f"'quartz {' '.join(words)}' is not a command")
        parser = actions[0].choices[word]
    return parser


class QuartzHelp(Directive):
    """The --help text of a quartz sub-command, as a literal block."""

    required_arguments = 0
    optional_arguments = 3
    has_content = False

    def run(self):
        from quartz.cli import build_parser

        words = list(self.arguments)
        old = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = WIDTH
        try:
            text = _subparser(build_parser(), words).format_help()
        except KeyError as e:
            return [self.state.document.reporter.error(str(e), line=self.lineno)]
        finally:
            if old is None:
                os.environ.pop("COLUMNS", None)
            else:
                os.environ["COLUMNS"] = old
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app):
    app.add_directive("quartz-help", QuartzHelp)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
