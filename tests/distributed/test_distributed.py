"""quartz.distributed and the Ray paths built on it, on a real two-node Ray cluster."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import quartz
from quartz import Circuit, QuartzError
from quartz.bench.runner import run_suite
from quartz.bench.suite import load_suite
from quartz.distributed import cluster_address, map_ordered, run_tasks, session

ray = pytest.importorskip("ray")
# The task functions below live in this test module, which Ray's workers cannot import.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


def square(x: int) -> int:
    return x * x


def fails(x: int) -> int:
    raise ValueError(f"bad item {x}")


def dies_once(path: str) -> str:
    """Kills its worker process the first time (a crashed or preempted node), then works."""
    if not os.path.exists(path):
        open(path, "w").close()
        os._exit(1)
    return "second try"


def always_dies(path: str) -> str:
    os._exit(1)


def node_of(_: int) -> str:
    import time

    time.sleep(0.5)
    return ray.get_runtime_context().get_node_id()


def meet_then_node(item: tuple[str, int]) -> str:
    """Waits (up to 120 s) until both tasks of the pair have started, then names its node.

    Each node has one CPU, so two tasks running at once must be on different nodes: the pair
    proves both nodes take work however slowly the second node's worker starts (a fixed sleep
    did not: on a loaded machine the head finished every task first).
    """
    import time

    folder, i = item
    open(os.path.join(folder, f"started-{i}"), "w").close()
    deadline = time.monotonic() + 120
    while len(os.listdir(folder)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    return ray.get_runtime_context().get_node_id()


def test_tasks_run_on_both_nodes_in_item_order(ray_cluster, tmp_path):
    with session() as r:  # a Ray this process started: used as it is, left running
        assert r is ray
        assert map_ordered(square, range(10)) == [x * x for x in range(10)]
        assert map_ordered(square, range(5), in_flight=1) == [0, 1, 4, 9, 16]
        assert len(set(map_ordered(meet_then_node, [(str(tmp_path), 0), (str(tmp_path), 1)]))) == 2
    assert ray.is_initialized()


def test_a_killed_worker_is_retried(ray_cluster, tmp_path):
    marker = str(tmp_path / "died")
    assert map_ordered(dies_once, [marker]) == ["second try"]
    assert os.path.exists(marker)


def test_a_task_that_keeps_dying_is_an_error_naming_it(ray_cluster, tmp_path):
    with pytest.raises(QuartzError, match=r"task for 'x-item' failed"):
        map_ordered(always_dies, ["x-item"], retries=1)


def test_an_exception_in_a_task_names_the_item_and_the_cause(ray_cluster):
    with pytest.raises(QuartzError, match=r"task for 3 failed: ValueError: bad item 3"):
        map_ordered(fails, [3])


def test_stop_cancels_and_ends_the_run(ray_cluster):
    got = list(run_tasks(node_of, list(range(6)), stop=lambda: True))
    assert got == []


def test_bench_on_ray_matches_local_processes(ray_cluster):
    suite = load_suite("tof", sizes="3,4")
    kw = dict(methods=["search"], baselines=["qiskit"], timeout=1.0, seed=0, check_timeout=60,
              progress=False)
    local = run_suite(suite.circuits, suite.gate_set, **kw)
    seen: list[int] = []
    remote = run_suite(suite.circuits, suite.gate_set, jobs=2, address=ray_cluster.address,
                       on_result=lambda rs: seen.append(len(rs)), **kw)
    assert [r.circuit for r in remote] == [r.circuit for r in local] == ["tof_3", "tof_4"]
    assert seen == [1, 2]
    for a, b in zip(local, remote):
        assert [o.optimizer for o in a.outcomes] == [o.optimizer for o in b.outcomes]
        assert all(o.verified for o in a.outcomes + b.outcomes)
        assert a.outcome("qiskit").gates == b.outcome("qiskit").gates  # deterministic
        assert b.outcome("search").gates <= a.gates
        assert quartz.qasm.loads(b.outcome("search").qasm).num_qubits == a.qubits


def test_bench_with_a_work_budget_gives_the_same_circuits_on_ray(ray_cluster):
    # with seconds only the search outputs above may differ; with --work they may not
    suite = load_suite("tof", sizes="3,4")
    kw = dict(methods=["search"], timeout=120.0, seed=3, progress=False, work=1_000_000)
    local = run_suite(suite.circuits, suite.gate_set, **kw)
    remote = run_suite(suite.circuits, suite.gate_set, jobs=2, address=ray_cluster.address, **kw)
    def outputs(results):
        return [[(o.gates, o.qasm, o.cut) for o in r.outcomes] for r in results]

    assert outputs(remote) == outputs(local)
    assert all(r.outcome("search").verified and not r.outcome("search").cut for r in remote)


def test_bench_refuses_in_process_functions_on_ray():
    c = [("c", Circuit(1).h(0).h(0))]
    with pytest.raises(QuartzError, match="in-process only"):
        run_suite(c, "nam", address="local", method_fns={"f": lambda *a: (a[0], [])},
                  progress=False)


def test_cluster_address_prefers_the_argument(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert cluster_address("h:1") == "h:1"
    assert cluster_address(None) == "10.0.0.1:6379"
    monkeypatch.delenv("RAY_ADDRESS")
    assert cluster_address(None) is None


def test_session_starts_and_stops_a_local_ray_in_a_fresh_process():
    code = textwrap.dedent("""
        import ray
        from quartz.distributed import map_ordered, session
        with session(workers=2):
            print(map_ordered(abs, [-1, -2, 3]), ray.cluster_resources()["CPU"])
        print(ray.is_initialized())
    """)
    env = dict(os.environ)
    env.pop("RAY_ADDRESS", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["[1, 2, 3] 2.0", "False"]


def test_session_with_an_unreachable_address_is_one_clear_error():
    code = textwrap.dedent("""
        from quartz.distributed import session
        from quartz.errors import QuartzError
        try:
            with session(address="127.0.0.1:1"):
                pass
        except QuartzError as e:
            print("ERR", e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert "ERR could not start the Ray cluster at 127.0.0.1:1: nothing answers there" \
        in out.stdout, out.stderr


def test_bench_cli_with_workers_writes_the_same_report(ray_cluster, tmp_path, capsys):
    from quartz.cli import main

    out = tmp_path / "rep"
    code = main(["bench", "tof:3,4", "--timeout", "0.5", "--workers", "2", "--baselines",
                 "none", "--address", ray_cluster.address, "--no-progress", "--no-plots", "-o",
                 str(out)])
    assert code == 0
    text = (out / "results.md").read_text()
    assert "tof_3" in text and "tof_4" in text
    assert f"Ray at {ray_cluster.address}, 2 task(s) at once" in text
    assert (out / "results.csv").read_text().count("\n") >= 3
    assert "--jobs 2" in text and "--address" in text  # the command that reproduces the run


def test_bench_cli_without_ray_says_how_to_install_it(monkeypatch, capsys):
    from quartz.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)  # as if the ray extra were not installed
    assert main(["bench", "tof:3", "--address", "local"]) == 2
    assert "pip install 'quartz-superopt[ray]'" in capsys.readouterr().err


def test_gen_on_ray_writes_the_same_file_bytes(ray_cluster, tmp_path):
    from quartz.ecc_sets import write
    from quartz.generator import generate

    local, _ = generate("nam", 3, 2, 1, jobs=1, progress=False)
    remote, report = generate("nam", 3, 2, 1, jobs=2, progress=False,
                              address=ray_cluster.address)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for ecc, path in ((local, a), (remote, b)):
        ecc.metadata["report"]["seconds"] = {}  # wall times differ; everything else must not
        write(ecc, str(path))
    assert len(remote.classes) == len(local.classes) > 10
    assert a.read_bytes() == b.read_bytes()


def test_gen_cli_with_address(ray_cluster, tmp_path, capsys):
    from quartz.cli import main

    out = tmp_path / "set.json"
    assert main(["gen", "--gateset", "nam", "-n", "2", "-q", "2", "-m", "1", "--jobs", "2",
                 "--address", ray_cluster.address, "--no-progress", "-o", str(out)]) == 0
    assert out.exists() and "proven" in capsys.readouterr().out


def test_partitioned_optimize_on_ray(ray_cluster):
    from quartz.pipeline.partition import optimize_partitioned

    c = Circuit(3)
    for i in range(40):
        c.cx(i % 3, (i + 1) % 3).cx(i % 3, (i + 1) % 3).h(i % 3).rz(0.1, (i + 2) % 3)
    out, rep = optimize_partitioned(c, "nam", workers=2, timeout=6, segment_gates=40,
                                    address=ray_cluster.address)
    assert rep.engine == "ray" and rep.improved >= 1 and len(out) < len(c)
    import numpy as np

    assert np.max(np.abs(out.unitary() - c.unitary())) < 1e-9


def test_optimize_cli_with_jobs_and_address(ray_cluster, tmp_path, capsys):
    from quartz.cli import main

    c = Circuit(2)
    for _ in range(30):
        c.cx(0, 1).cx(0, 1).h(1).h(1).x(0)
    src, dst = tmp_path / "in.qasm", tmp_path / "out.qasm"
    src.write_text(c.to_qasm())
    assert main(["optimize", str(src), "-o", str(dst), "--timeout", "4", "--jobs", "2",
                 "--address", ray_cluster.address, "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "equivalent by segments" in err
    assert len(quartz.qasm.load(str(dst))) <= 1
