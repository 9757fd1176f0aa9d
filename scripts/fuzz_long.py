"""The long fuzz run: the targets of ``tests/hostile/fuzz.py`` for 100,000+ cases.

    python scripts/fuzz_long.py                 # the documented run (100,000 cases)
    python scripts/fuzz_long.py --scale 0.01    # a quick look

Prints, per target, the cases run, the seconds taken and the first failure hypothesis found
(shrunk), then the totals; exits 1 when any target failed. Hypothesis runs without its
example database, so every run explores afresh (``--seed`` makes one repeatable).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.hostile import fuzz

# target name -> (cases at scale 1, strategy, function taking one drawn value and a folder)
PLAN: dict[str, tuple[int, st.SearchStrategy[Any], Callable[[Any, Path], None]]] = {
    "loader: mutated lesson bytes": (
        30_000, fuzz.mutated_bytes(), lambda raw, _: fuzz.target_loader(raw)),
    "loader: schema-generated lessons": (
        500, fuzz.from_schema(fuzz.SCHEMAS["lesson"], fuzz.SCHEMAS["lesson"]),
        lambda doc, _: fuzz.target_loader(json.dumps(doc).encode())),
    "scanner: generated prose": (35_000, fuzz.PROSE, lambda text, _: fuzz.target_scanner(text)),
    "scanner: any text": (15_000, st.text(max_size=80), lambda text, _: fuzz.target_scanner(text)),
    "bindings: mutated claims.yaml": (
        3_000, fuzz.mutated_yaml(), lambda text, folder: fuzz.target_bindings(text, folder)),
    "bindings: schema-generated": (
        1_000, fuzz.from_schema(fuzz.SCHEMAS["bindings"], fuzz.SCHEMAS["bindings"]),
        lambda data, folder: fuzz.target_bindings(json.dumps(data), folder)),
    "evaluator: generated expressions": (
        15_000, fuzz.expressions(), lambda source, _: fuzz.target_expression(source)),
    "check+regen: mutated numbers": (
        300, st.tuples(st.data(), st.booleans()),
        lambda drawn, folder: fuzz.target_check_regen(
            drawn[0].draw(fuzz.mutated_numbers(fuzz.SEED_TEXT)), fuzz.BINDINGS_TEXT, folder,
            fix=drawn[1])),
    "check+regen: mutated bindings": (
        150, st.tuples(fuzz.mutated_yaml(), st.booleans()),
        lambda drawn, folder: fuzz.target_check_regen(
            fuzz.SEED_TEXT, drawn[0], folder, fix=drawn[1])),
    "check+regen: schema-generated lessons": (
        50, fuzz.from_schema(fuzz.SCHEMAS["lesson"], fuzz.SCHEMAS["lesson"]),
        lambda doc, folder: fuzz.target_check_regen(
            json.dumps({**doc, "id": fuzz.SEED}), None, folder)),
}


def run_target(name: str, scale: float, folder: Path, run_seed: int | None) -> dict[str, Any]:
    cases, strategy, function = PLAN[name]
    before = fuzz.COUNTS.copy()

    @settings(max_examples=max(1, int(cases * scale)), deadline=None, database=None,
              suppress_health_check=list(HealthCheck), print_blob=True)
    @given(strategy)
    def one(value: Any) -> None:
        function(value, folder)

    if run_seed is not None:
        one = seed(run_seed)(one)
    started = time.perf_counter()
    failure = ""
    try:
        one()
    except Exception as error:  # hypothesis re-raises the shrunk failing example
        failure = f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"
    seconds = time.perf_counter() - started
    ran = sum((fuzz.COUNTS - before).values())
    return {"target": name, "cases": ran, "seconds": round(seconds, 1), "failure": failure}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case count")
    parser.add_argument("--only", action="append", default=[], help="run targets containing this")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    folder = fuzz.scratch()
    rows = []
    try:
        for name in PLAN:
            if args.only and not any(word in name for word in args.only):
                continue
            row = run_target(name, args.scale, folder, args.seed)
            rows.append(row)
            status = f"FAILED {row['failure']}" if row["failure"] else "ok"
            print(f"{name:40} {row['cases']:>8} cases {row['seconds']:>8.1f} s  {status}",
                  flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    total = sum(r["cases"] for r in rows)
    failed = [r for r in rows if r["failure"]]
    seconds = sum(r["seconds"] for r in rows)
    print(f"{'total':40} {total:>8} cases {seconds:>8.1f} s  {len(failed)} target(s) failed")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "total": total}, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
