"""Random text mutations for fuzzing: delete, duplicate, replace characters, truncate, swap tokens."""
from __future__ import annotations

import random
import re

# Characters that matter to QASM and JSON parsers, plus a few that matter to neither.
_ALPHABET = "0123456789.-+*/^e()[]{};:,\"'qpi \n\t\\#$%&!<>=_abcxyzhtsrOPENQASM"
_TOKEN_RE = re.compile(r"\s+|[A-Za-z_][A-Za-z0-9_]*|\d+\.?\d*(?:e-?\d+)?|.", re.S)
_INTERESTING = ["0", "-1", "1e308", "-0", "1e-320", "nan", "inf", "99999999999999999999", "pi",
                "2147483648", "4294967296", "q[0]", "q", ";", ",", "(", ")", "[", "]", "{", "}",
                "\"", "null", "true", "[]", "{}", "-", "OPENQASM 3.0;", "gate", "qreg", "creg",
                "measure", "if", "barrier", "u3", "ccz", "rz", "cx"]


def _tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(text)


def delete_chars(text: str, rng: random.Random) -> str:
    """Remove a short random run of characters."""
    if not text:
        return text
    i = rng.randrange(len(text))
    return text[:i] + text[i + rng.randint(1, 4):]


def duplicate_chars(text: str, rng: random.Random) -> str:
    """Repeat a short random run of characters in place."""
    if not text:
        return text
    i = rng.randrange(len(text))
    j = min(len(text), i + rng.randint(1, 12))
    return text[:j] + text[i:j] * rng.randint(1, 3) + text[j:]


def replace_chars(text: str, rng: random.Random) -> str:
    """Replace one to three characters by characters that parsers care about."""
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        if chars:
            chars[rng.randrange(len(chars))] = rng.choice(_ALPHABET)
    return "".join(chars)


def truncate(text: str, rng: random.Random) -> str:
    """Cut the text at a random point."""
    return text[: rng.randrange(len(text) + 1)]


def swap_tokens(text: str, rng: random.Random) -> str:
    """Exchange two random tokens."""
    toks = _tokens(text)
    if len(toks) < 2:
        return text
    i, j = rng.randrange(len(toks)), rng.randrange(len(toks))
    toks[i], toks[j] = toks[j], toks[i]
    return "".join(toks)


def replace_token(text: str, rng: random.Random) -> str:
    """Replace a random token by an interesting one (a huge number, a keyword, a bracket)."""
    toks = _tokens(text)
    if not toks:
        return rng.choice(_INTERESTING)
    toks[rng.randrange(len(toks))] = rng.choice(_INTERESTING)
    return "".join(toks)


def shuffle_lines(text: str, rng: random.Random) -> str:
    """Delete, duplicate or move one line."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(3)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    else:
        lines.insert(rng.randrange(len(lines) + 1), lines.pop(i))
    return "\n".join(lines)


MUTATORS = (delete_chars, duplicate_chars, replace_chars, truncate, swap_tokens, replace_token,
            shuffle_lines)


def mutate(text: str, rng: random.Random, max_steps: int = 3) -> str:
    """Apply one to `max_steps` random mutations."""
    for _ in range(rng.randint(1, max_steps)):
        text = rng.choice(MUTATORS)(text, rng)
    return text
