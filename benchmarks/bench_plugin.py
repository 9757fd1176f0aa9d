"""The pytest plugin on a large corpus, one item per claim and one per lesson, serial and with
``-n 2``, against ``rlkl check`` and pytest's own cost per item.

    python benchmarks/bench_plugin.py                  # 1,000 lessons (made first, with regen)
    python benchmarks/bench_plugin.py --n 300 --rounds 2
    python benchmarks/bench_plugin.py --corpus /tmp/corp/content

Every run starts from an empty cache folder: the plugin checks the corpus cold and fills the
cache, as ``rlkl check`` does into an empty one, which is the reference (``rlkl check
--no-cache``, which writes no cache, is printed too) and with bytecode written
(``PYTHONDONTWRITEBYTECODE`` unset, after one collection: pytest's rewritten modules are then
read, not compiled again, as on a user's machine). The baseline of pytest's own cost per item
is as many trivial items (``def test(i): pass``) in the same run, serial and with ``-n 2``.
Runs are interleaved and the best of ``--rounds`` is kept (the machine is shared: compare
ratios within a run). Goals (issue 27): one item per claim serial ≤ 1.5x (check + as many
trivial items), one item per lesson serial ≤ 1.5x the check, and ``-n 2`` ≤ 0.75x serial in
both modes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import make_corpus

REPO = Path(__file__).resolve().parents[1]
TRIVIAL = "import pytest\n\n\n@pytest.mark.parametrize('i', range({n}))\ndef test(i):\n    pass\n"
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
RLKL = str(Path(sys.executable).parent / "rlkl")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall time of one subprocess and its last line (``N passed in …``)."""
    started = time.perf_counter()
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    last = (done.stdout.strip().splitlines() or [""])[-1]
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args[:4])}… exited {done.returncode}:\n{done.stdout[-2000:]}")
    return elapsed, last


def _passed(line: str) -> int:
    found = re.search(r"(\d+) passed", line)
    return int(found.group(1)) if found else 0


def _corpus(tmp: Path, given: Path | None, n: int) -> Path:
    if given is not None:
        return given
    root = tmp / "content"
    make_corpus(root, n)
    env = {**os.environ, "RLKL_CACHE_DIR": "off"}
    subprocess.run([RLKL, "regen", "--fix", str(root)], env=env, check=False, capture_output=True)
    subprocess.run([RLKL, "regen", str(root)], env=env, check=True, capture_output=True)
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, help="an existing content folder (with fixtures)")
    parser.add_argument("--n", type=int, default=1000, help="lessons, when making a corpus")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds")
    args = parser.parse_args()
    times: dict[str, list[float]] = {}
    items: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="rlkl-bench-plugin-") as tmp:
        root = _corpus(Path(tmp), args.corpus, args.n)
        runs = 0

        def timed(name: str, command: list[str]) -> str:
            nonlocal runs
            runs += 1  # a fresh cache folder per run: every run is cold
            env = {**ENV, "RLKL_CACHE_DIR": str(Path(tmp) / f"cache-{runs}")}
            seconds, last = _run(command, env)
            times.setdefault(name, []).append(seconds)
            print(f"  {name:<28} {seconds:7.1f} s   {last}", flush=True)
            return last

        # compiled once, as on a user's machine: pytest rewrites the asserts of every module
        # of a plugin's package (all of rlkl) and caches the result beside the bytecode
        _run([*PYTEST, str(root), "--co"], ENV)
        for _ in range(args.rounds):
            timed("rlkl check --no-cache", [RLKL, "check", "--no-cache", str(root)])
            timed("rlkl check, empty cache", [RLKL, "check", str(root)])
            for mode in ("claim", "lesson"):
                for label, extra in (("serial", []), ("-n 2", ["-n", "2"])):
                    last = timed(f"plugin per {mode}, {label}",
                                 [*PYTEST, str(root), f"--rlkl-items={mode}", *extra])
                    items[mode] = max(items.get(mode, 0), _passed(last))
            for mode, count in items.items():
                trivial = Path(tmp) / f"trivial-{mode}" / "test_trivial.py"
                trivial.parent.mkdir(exist_ok=True)
                trivial.write_text(TRIVIAL.format(n=count), encoding="utf-8")
                floor = [str(trivial), "--rootdir", str(trivial.parent)]
                for label, extra in (("serial", []), ("-n 2", ["-n", "2"])):
                    timed(f"{count} trivial items, {label}", [*PYTEST, *floor, *extra])
    best = {name: min(values) for name, values in times.items()}
    check = best["rlkl check, empty cache"]  # the plugin's work: it fills the cache too
    print(f"\n{args.corpus or args.n} lessons, {os.cpu_count()} CPUs; best of {args.rounds}:")
    rows = []
    for mode in ("claim", "lesson"):
        serial, parallel = best[f"plugin per {mode}, serial"], best[f"plugin per {mode}, -n 2"]
        floor = best[f"{items[mode]} trivial items, serial"]
        floor_n2 = best[f"{items[mode]} trivial items, -n 2"]
        reference, goal = (check + floor, "check + trivial") if mode == "claim" else (
            check, "check")
        rows.append((f"per {mode} serial / ({goal})", serial / reference, 1.5))
        rows.append((f"per {mode} -n 2 / serial", parallel / serial, 0.75))
        rows.append((f"  ({items[mode]} trivial items: -n 2 / serial)", floor_n2 / floor, None))
    for label, ratio, goal in rows:
        verdict = "" if goal is None else ("  met" if ratio <= goal else "  NOT met")
        print(f"  {label:<44} {ratio:6.2f}x" + (f"  goal <= {goal}x{verdict}" if goal else ""))


if __name__ == "__main__":
    main()
