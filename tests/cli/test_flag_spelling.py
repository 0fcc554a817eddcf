"""One spelling of every option across the sub-commands (`--gateset`, `--ecc-set`, `--jobs`/`-j`),
read from each command's --help; the other spellings still parse, as hidden aliases."""
from __future__ import annotations

import argparse
import re

import pytest

from quartz.cli import build_parser, main
from quartz.cli.options import ALIASES, HIDDEN


def leaf_commands(parser: argparse.ArgumentParser, prefix=()) -> list[tuple[str, ...]]:
    """Every runnable command: ('gen',), ..., ('rl', 'train')."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return [prefix]
    out = []
    for action in subs:
        for name, sub in action.choices.items():
            out += leaf_commands(sub, prefix + (name,))
    return out


COMMANDS = leaf_commands(build_parser())
# the least each command needs to parse (besides the option under test)
REQUIRED = {("gen",): ["-n", "2", "-q", "2"], ("verify",): ["a.json"],
            ("optimize",): ["in.qasm"], ("bench",): ["tof"],
            ("rl", "train"): ["--circuits", "c", "--minutes", "1", "-o", "m.pt"]}
VALUES = {"--gateset": "ibm", "--ecc-set": "x.json", "--jobs": "3"}
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def help_text(command: tuple[str, ...], capsys) -> str:
    with pytest.raises(SystemExit) as e:
        main([*command, "--help"])
    assert e.value.code == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def helps() -> dict[tuple[str, ...], str]:
    parser = build_parser()
    out = {}
    for command in COMMANDS:
        p = parser
        for name in command:
            p = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
        out[command] = p.format_help()
    return out


def test_every_command_is_covered():
    assert set(COMMANDS) == set(REQUIRED) == {("gen",), ("verify",), ("optimize",), ("bench",),
                                              ("rl", "train")}


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_runs_and_shows_no_alias(command, capsys):
    text = help_text(command, capsys)
    shown = set(OPTION.findall(text))
    assert not shown & HIDDEN, f"quartz {' '.join(command)} --help shows {shown & HIDDEN}"


def test_one_spelling_per_option_across_commands(helps):
    spellings: dict[str, set[str]] = {}
    for command, text in helps.items():
        for opt in OPTION.findall(text):
            spellings.setdefault(re.sub(r"[-_]", "", opt), set()).add(opt)
    mixed = {k: v for k, v in spellings.items() if len(v) > 1}
    assert not mixed, f"options spelled more than one way: {mixed}"


def test_shared_options_have_one_spelling(helps):
    gate_set = {c for c, t in helps.items() if re.search(r"--gate-?set\b", t)}
    assert gate_set == {("gen",), ("optimize",), ("bench",), ("rl", "train")}
    for c in gate_set:
        assert "--gateset GATESET" in helps[c]
    for c in {c for c, t in helps.items() if "--ecc" in t}:
        assert "--ecc-set ECC" in helps[c] and not re.search(r"--ecc\b(?!-)", helps[c]), c
    jobs = {c for c, t in helps.items() if "--jobs" in t}
    assert jobs == {("gen",), ("verify",), ("bench",), ("optimize",), ("rl", "train")}
    for c in jobs:
        assert "--jobs JOBS, -j JOBS" in helps[c], c
    for c, t in helps.items():
        if "--output" in t:
            assert re.search(r"-o \S+, --output", t), c
    assert all("--no-progress" in t for t in helps.values())


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_aliases_parse_like_the_primary_spelling(command, helps):
    parser = build_parser()
    checked = 0
    for primary, aliases in ALIASES.items():
        if primary not in helps[command]:
            continue
        base = list(REQUIRED[command])
        if command == ("gen",) and primary != "--gateset":
            base += ["--gates", "h,cx"]
        want = vars(parser.parse_args([*command, *base, primary, VALUES[primary]]))
        for alias in aliases:
            got = vars(parser.parse_args([*command, *base, alias, VALUES[primary]]))
            assert got == want, (command, alias)
            checked += 1
    assert checked >= 1


def test_old_spellings_still_work():
    parser = build_parser()
    assert parser.parse_args(["bench", "tof", "--gate-set", "ibm"]).gateset == "ibm"
    assert parser.parse_args(["optimize", "in.qasm", "--ecc", "e.json"]).ecc_set == "e.json"
    assert parser.parse_args(["rl", "train", *REQUIRED[("rl", "train")][0:6],
                              "--workers", "2"]).jobs == 2
    assert parser.parse_args(["verify", "a.json", "-j", "2"]).jobs == 2


def test_bench_report_command_uses_the_primary_spelling():
    from quartz.cli.bench_cmd import command_line

    args = build_parser().parse_args(["bench", "tof", "--gate-set", "ibm", "--ecc", "e.json",
                                      "--workers", "2"])
    assert command_line(args) == ("quartz bench tof --timeout 60 --jobs 2 --gateset ibm "
                                  "--ecc-set e.json")


def test_rl_train_no_progress_reaches_train(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    import quartz.cli.rl_cmd as rl_cmd

    seen = {}

    def fake_train(circuits, ecc, **kw):
        seen.update(kw)
        raise KeyboardInterrupt

    monkeypatch.setattr(rl_cmd, "load_training_circuits", lambda *a: ["c"])
    monkeypatch.setattr("quartz.rl.train.train", fake_train)
    assert main(["rl", "train", "--circuits", "c", "--minutes", "1", "-o",
                 str(tmp_path / "m.pt"), "--no-progress", "-j", "1"]) == 130
    assert seen["progress"] is False and seen["workers"] == 1
