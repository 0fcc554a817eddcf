"""quartz.pools: worker processes that start whatever the caller's __main__ is (a script,
stdin, `python -c`), without running it, and the up-front error where that cannot be done."""
from __future__ import annotations

import json
import multiprocessing
import sys
import types

import pytest

from quartz import QuartzError, pools
from script_runs import run_python

# Pools of both modes of spawn_context from a caller; prints whether its __main__ looked
# importable and what the workers answered. With keep_main=True, a function of the caller's
# own reaches the workers where the caller is a script file (as with multiprocessing's spawn;
# such a script needs the `if __name__ == "__main__":` guard, as there).
SCRIPT = '''
import json, os, sys
from quartz import pools
print("caller's main ran", file=sys.stderr)


def twice(x):
    return 2 * x


def main(keep_main_pool):
    with pools.worker_pool(2) as ex:
        pids = sorted({f.result() for f in [ex.submit(os.getpid) for _ in range(4)]})
    doubled = None
    if keep_main_pool:
        script = pools.main_importable() and hasattr(sys.modules["__main__"], "__file__")
        with pools.spawn_context(keep_main=True).Pool(2) as p:
            doubled = p.map(twice if script else abs, [1, 2])
    print(json.dumps({"importable": pools.main_importable(), "parent": os.getpid(),
                      "pids": pids, "doubled": doubled}))
'''


def run(how: str, tmp_path) -> tuple[dict, int]:
    """What SCRIPT printed run `how`, and how often its top level ran (in all processes)."""
    script = SCRIPT + ("if __name__ == '__main__':\n    main(True)\n" if how == "script"
                       else f"main({how != 'unguarded script'})\n")
    proc = run_python(script, how, tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1]), proc.stderr.count("caller's main ran")


@pytest.mark.parametrize("how, importable, doubled, main_runs", [
    ("stdin", False, [1, 2], 1), ("-c", True, [1, 2], 1), ("unguarded script", True, None, 1),
    # the keep_main pool's workers run the script's top level (its guard keeps them out of
    # main()); the one that has not started yet when the pool is closed may be cut short
    ("script", True, [2, 4], (2, 3))])
def test_workers_start_from_stdin_python_c_and_scripts(how, importable, doubled, main_runs,
                                                       tmp_path):
    got, runs = run(how, tmp_path)
    assert got["importable"] is importable
    assert runs in main_runs if isinstance(main_runs, tuple) else runs == main_runs
    assert 1 <= len(got["pids"]) <= 2 and got["parent"] not in got["pids"]
    assert got["doubled"] == doubled


def test_nothing_global_is_changed():
    from multiprocessing import popen_spawn_posix, spawn

    stock = multiprocessing.get_context("spawn")
    ctx = pools.spawn_context()
    assert ctx.get_start_method() == "spawn" and ctx.Process is not stock.Process
    assert popen_spawn_posix.spawn is spawn and spawn.get_preparation_data.__module__ == spawn.__name__
    assert popen_spawn_posix.Popen._launch.__globals__ is vars(popen_spawn_posix)


def test_without_the_expected_launch_code_it_fails_up_front_from_stdin(monkeypatch):
    monkeypatch.setattr(pools, "_LAUNCHERS", {False: None, True: None})
    main = types.ModuleType("__main__")
    main.__file__ = "<stdin>"
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert not pools.main_importable()
    with pytest.raises(QuartzError, match="cannot start from code read from stdin") as e:
        pools.spawn_context()
    assert "\n" not in str(e.value)
    monkeypatch.setattr(main, "__file__", __file__)  # a script: the stock spawn
    assert pools.spawn_context() is multiprocessing.get_context("spawn")
