"""Reading ECC files for `quartz verify`, class by class: a corrupt class is reported, not fatal.

The file formats belong to quartz.ecc_sets (`loads`, `quartz_format`, `native_format`); they
are parsed with trust=True, since verifying every class is what `quartz verify` does next. When the
whole file parses, that result is used as is. When it does not, each class is parsed on its own
to find the corrupt ones (reported with their ids), and the good ones are parsed together again.
"""
from __future__ import annotations

import json

from quartz.ecc_sets.files import decode_json
from quartz.ecc_sets.model import ECCSet
from quartz.errors import QuartzError
from quartz.verifier.ecc_set import ClassTask


def _decode(path: str):
    from quartz.io_utils import read_input_bytes

    return decode_json(read_input_bytes(path), str(path))


def _tasks(ecc_set: ECCSet, labels: list[str], check_limits: bool) -> list[ClassTask]:
    return [ClassTask(i, list(e.circuits), (ecc_set.q or None) if check_limits else None,
                      ecc_set.m if check_limits else None,
                      tuple(ecc_set.gate_set) if check_limits else (), labels[i], phases=list(e.phases))
            for i, e in enumerate(ecc_set.classes)]


def _quartz_key_order(keys: list[str]) -> list[str]:
    try:
        return sorted(keys, key=lambda k: int(str(k).split("_")[0]))
    except ValueError:
        return list(keys)


def load_tasks(path: str) -> tuple[ECCSet, list[ClassTask]]:
    """The file's ECCSet and one ClassTask per class (corrupt classes carry their problem)."""
    import quartz.ecc_sets as ecc_sets

    obj = _decode(path)
    is_quartz = isinstance(obj, list) and len(obj) == 2 and isinstance(obj[1], dict)
    try:
        s = ecc_sets.loads(json.dumps(obj), source=path, trust=True)
    except QuartzError as whole_error:
        return _isolate(path, obj, is_quartz, whole_error)
    labels = _quartz_key_order(list(obj[1])) if is_quartz else [str(i) for i in range(len(s.classes))]
    if len(labels) != len(s.classes):
        labels = [str(i) for i in range(len(s.classes))]
    return s, _tasks(s, labels, check_limits=not is_quartz)


def _isolate(path: str, obj, is_quartz: bool, whole_error: QuartzError):
    """Parse class by class; corrupt classes become tasks with a problem."""
    import quartz.ecc_sets as ecc_sets

    if is_quartz:
        head, body = obj
        keys = _quartz_key_order(list(body))
        parts = [(k, [head, {k: body[k]}]) for k in keys]
        rebuild = lambda good: [head, {k: body[k] for k in good}]  # noqa: E731
    elif isinstance(obj, dict) and isinstance(obj.get("classes"), list):
        keys = [str(i) for i in range(len(obj["classes"]))]
        parts = [(k, dict(obj, classes=[c])) for k, c in zip(keys, obj["classes"])]
        rebuild = lambda good: dict(obj, classes=[obj["classes"][int(k)] for k in good])  # noqa: E731
    else:
        raise whole_error
    problems: dict[str, str] = {}
    for key, part in parts:
        try:
            ecc_sets.loads(json.dumps(part), source=f"{path} class {key}", trust=True)
        except QuartzError as e:
            problems[key] = str(e)
    good = [k for k in keys if k not in problems]
    if not good:  # nothing parses: a file-level problem, report it as such
        raise whole_error
    try:
        s = ecc_sets.loads(json.dumps(rebuild(good)), source=path, trust=True)
    except QuartzError:  # the classes only fail together: report the file
        raise whole_error from None
    by_key = dict(zip(good, s.classes))
    tasks = []
    for i, k in enumerate(keys):
        if k in problems:
            tasks.append(ClassTask(i, [], label=k, problem=problems[k]))
        else:
            e = by_key[k]
            limits = not is_quartz
            tasks.append(ClassTask(i, list(e.circuits), (s.q or None) if limits else None,
                                   s.m if limits else None, tuple(s.gate_set) if limits else (), k,
                                   phases=list(e.phases)))
    return s, tasks
