"""The cold-check goal as a budget per lesson, against what a lesson costs now. One run prints it.

    python benchmarks/bench_budget.py            # 1,000 lessons (~1 minute)
    python benchmarks/bench_budget.py --n 300    # quicker

The goal of ``bench_check.py`` (``rlkl check --no-cache`` of N lessons within 1.0x the wall time
of ``check-jsonschema`` on the same lesson files) leaves each lesson a budget of CPU time:

    budget = (check-jsonschema's wall time - rlkl's fixed cost) * CPUs / N

where the fixed cost is the wall time of ``rlkl check --no-cache`` of a corpus of one lesson
(start-up, imports, one check). Against it, in this process, one lesson at a time (best of
``--rounds``):

1. the floor: reading the three files and parsing them with C parsers only (``json.loads`` of
   lesson and fixtures, libyaml's ``compose`` of ``claims.yaml``) and ``jsonschema_rs``'s
   ``is_valid`` of the lesson: what any engine in Python pays before it checks a number;
2. ``rlkl.validate.load_lesson`` (read, strict parse, schema and model), as a worker does it;
3. ``rlkl.check.check_lesson`` (bindings, every claim stage, fixtures compared).

Measured on this machine, now: a measurement, not a guarantee.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import jsonschema_rs
import yaml

from rlkl.check import check_lesson
from rlkl.validate import load_lesson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import BIN, ENV, REPO, _run
from corpus import make_corpus

SCHEMA = REPO / "schema" / "lesson.schema.json"


def _floor(validator: jsonschema_rs.Validator) -> Callable[[Path], object]:
    def parse(folder: Path) -> object:
        lesson = json.loads((folder / "lesson.json").read_bytes())
        validator.is_valid(lesson)
        json.loads((folder / "fixtures.json").read_bytes())
        return yaml.compose((folder / "claims.yaml").read_bytes(), Loader=yaml.CSafeLoader)

    return parse


def _checked(folder: Path) -> object:
    run, error = check_lesson(load_lesson(folder / "lesson.json")[0])
    assert error is None and run is not None and not run.problems, folder
    return run


def _per_lesson(work: Callable[[Path], object], folders: list[Path], rounds: int) -> float:
    """Milliseconds a lesson, best of ``rounds`` passes over every folder."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for folder in folders:
            work(folder)
        best = min(best, time.perf_counter() - started)
    return best / len(folders) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="lessons in the corpus")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the corpus")
    args = parser.parse_args()
    rlkl = str(BIN / "rlkl")
    with tempfile.TemporaryDirectory(prefix="rlkl-budget-") as tmp:
        root = Path(tmp) / "content"
        folders = make_corpus(root, args.n)
        env = {**ENV, "RLKL_CACHE_DIR": str(Path(tmp) / "cache")}
        _run(rlkl, "regen", "--fix", str(root), env=env)
        _run(rlkl, "regen", str(root), env=env)
        lessons = [str(f / "lesson.json") for f in folders]
        baseline = min(_run(str(BIN / "check-jsonschema"), "--schemafile", str(SCHEMA), *lessons)
                       for _ in range(2))
        one = Path(tmp) / "one"
        make_corpus(one, 1)
        _run(rlkl, "regen", str(one), env=env)
        fixed = min(_run(rlkl, "check", "--no-cache", str(one), env=env) for _ in range(3))
        validator = jsonschema_rs.validator_for(json.loads(SCHEMA.read_text(encoding="utf-8")))
        _checked(folders[0])  # imports, compiled templates: what every worker has paid once
        floor = _per_lesson(_floor(validator), folders, args.rounds)
        validated = _per_lesson(lambda f: load_lesson(f / "lesson.json"), folders, args.rounds)
        checked = _per_lesson(_checked, folders, args.rounds)
    cpus = os.cpu_count() or 1
    budget = (baseline - fixed) * cpus / args.n * 1e3
    rows = [
        ("check-jsonschema, wall", f"{baseline:8.2f} s", ""),
        ("rlkl check --no-cache, a one-lesson corpus", f"{fixed:8.2f} s", ""),
        ("budget a lesson at 1.0x (CPU)", f"{budget:8.2f} ms", ""),
        ("floor: C parsers, jsonschema_rs", f"{floor:8.2f} ms", f"{floor / budget:.2f}x budget"),
        ("load_lesson (validation)", f"{validated:8.2f} ms", ""),
        ("load_lesson + check_lesson", f"{checked:8.2f} ms", f"{checked / budget:.2f}x budget"),
        ("the check beyond the floor", f"{checked - floor:8.2f} ms",
         f"{(checked - floor) / (budget - floor):.1f}x the budget beyond the floor"),
    ]
    print(f"{args.n} lessons, {cpus} CPUs")
    for name, figure, ratio in rows:
        print(f"  {name:<42} {figure}  {ratio}".rstrip())

if __name__ == "__main__":
    main()
