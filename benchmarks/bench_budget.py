"""The cold-check goal as a budget per lesson, against what a lesson costs now. One run prints it.

    python benchmarks/bench_budget.py            # 1,000 lessons (~1 minute)
    python benchmarks/bench_budget.py --n 300    # quicker

The goal of ``bench_check.py`` (``rlkl check --no-cache`` of N lessons within 1.0x the wall time
of ``check-jsonschema`` on the same lesson files) leaves each lesson a budget of CPU time:

    budget = (check-jsonschema's wall time - rlkl's fixed cost) * CPUs / N

where the fixed cost is the wall time of ``rlkl check --no-cache`` of a corpus of one lesson
(start-up, imports, one check). The budget is generous, an upper bound: it leaves out what a
pooled run adds (workers started, results sent back, the parent's pass over the corpus) and
takes two processes as twice as fast as one. Against it, in this process, the CPU time
(``time.process_time``) one lesson takes, best of ``--rounds`` passes:

1. the floor: reading the three files and parsing them with C parsers only (``json.loads`` of
   lesson and fixtures, libyaml's ``compose`` of ``claims.yaml``) and ``jsonschema_rs``'s
   ``is_valid`` of the lesson: what any engine in Python pays before it checks a number;
2. ``rlkl.validate.load_lesson`` (read, strict parse, schema and model), as a worker does it;
3. ``load_lesson`` and then ``rlkl.check.check_lesson`` (bindings, every claim stage, fixtures
   compared).

Every lesson kind is checked once first (imports, templates compiled, equations read: what a
worker pays once); equation readings are cached in the run's own folder, as in its commands.

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
from corpus import SHIPPED, make_corpus

SCHEMA = REPO / "schema" / "lesson.schema.json"


def _floor(validator: jsonschema_rs.Validator) -> Callable[[Path], object]:
    """Read the three files of a lesson and parse them with C parsers only."""

    def parse(folder: Path) -> object:
        lesson = json.loads((folder / "lesson.json").read_bytes())
        validator.is_valid(lesson)
        json.loads((folder / "fixtures.json").read_bytes())
        return yaml.compose((folder / "claims.yaml").read_bytes(), Loader=yaml.CSafeLoader)

    return parse


def _checked(folder: Path) -> object:
    """The lesson validated and checked; a lesson that does not pass ends the benchmark."""
    file, problems = load_lesson(folder / "lesson.json")
    run, error = check_lesson(file)
    if problems or error is not None or run is None or run.problems:
        found = [*problems, error, *(run.problems if run else [])]
        raise SystemExit(f"{folder} does not pass: {found}")
    return run


def _per_lesson(work: Callable[[Path], object], folders: list[Path], rounds: int) -> float:
    """CPU milliseconds a lesson, best of ``rounds`` passes over every folder."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for folder in folders:
            work(folder)
        best = min(best, time.process_time() - started)
    return best / len(folders) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="lessons in the corpus")
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the corpus")
    args = parser.parse_args()
    rlkl = str(BIN / "rlkl")
    with tempfile.TemporaryDirectory(prefix="rlkl-budget-") as tmp:
        root = Path(tmp) / "content"
        folders = make_corpus(root, args.n)
        env = {**ENV, "RLKL_CACHE_DIR": str(Path(tmp) / "cache")}
        _run(rlkl, "regen", "--fix", str(root), env=env)
        _run(rlkl, "regen", str(root), env=env)
        lessons = [str(f / "lesson.json") for f in folders]
        baseline = min(
            _run(str(BIN / "check-jsonschema"), "--schemafile", str(SCHEMA), *lessons)
            for _ in range(2)
        )
        one = Path(tmp) / "one"
        make_corpus(one, 1)
        _run(rlkl, "regen", str(one), env=env)
        fixed = min(_run(rlkl, "check", "--no-cache", str(one), env=env) for _ in range(3))
        validator = jsonschema_rs.validator_for(json.loads(SCHEMA.read_text(encoding="utf-8")))
        os.environ["RLKL_CACHE_DIR"] = env["RLKL_CACHE_DIR"]  # equation readings: the run's own
        for folder in folders[: len(SHIPPED)]:  # one of each kind (corpus.py: i % len(SHIPPED))
            if not validator.is_valid(json.loads((folder / "lesson.json").read_bytes())):
                raise SystemExit(f"{folder}: not schema-valid")
            _checked(folder)
        floor = _per_lesson(_floor(validator), folders, args.rounds)
        validated = _per_lesson(lambda f: load_lesson(f / "lesson.json"), folders, args.rounds)
        checked = _per_lesson(_checked, folders, args.rounds)
    cpus = os.cpu_count() or 1
    budget = (baseline - fixed) * cpus / args.n * 1e3
    left = budget - floor
    beyond = f"{(checked - floor) / left:.1f}x what is left" if left > 0 else "nothing is left"
    rows = [
        ("check-jsonschema, wall", f"{baseline:8.2f} s", ""),
        ("rlkl check --no-cache, a one-lesson corpus", f"{fixed:8.2f} s", ""),
        ("budget a lesson at 1.0x (CPU, at most)", f"{budget:8.2f} ms", ""),
        ("floor: C parsers, jsonschema_rs", f"{floor:8.2f} ms", f"{floor / budget:.2f}x budget"),
        ("load_lesson (validation)", f"{validated:8.2f} ms", ""),
        ("load_lesson + check_lesson", f"{checked:8.2f} ms", f"{checked / budget:.2f}x budget"),
        ("the check beyond the floor", f"{checked - floor:8.2f} ms", beyond),
    ]
    print(f"{args.n} lessons, {cpus} CPUs")
    for name, figure, ratio in rows:
        print(f"  {name:<42} {figure}  {ratio}".rstrip())


if __name__ == "__main__":
    main()
