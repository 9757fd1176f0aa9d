"""How fast is ``rlkl check`` on a large corpus? One run prints every figure and its ratio.

    python benchmarks/bench_check.py            # 1,000 lessons (several minutes)
    python benchmarks/bench_check.py --n 200    # quicker
    python benchmarks/bench_check.py --against 3ddc28d --rounds 3   # and an A/B with a ref

Measures, on a synthetic corpus made by ``benchmarks/corpus.py`` (new ids, numbers varied
consistently, bindings, fixtures written by ``rlkl regen``):

1. ``rlkl regen --fix`` and ``rlkl regen`` on the N lessons;
2. ``rlkl check --no-cache`` (cold) against ``check-jsonschema --schemafile
   schema/lesson.schema.json`` on the same lesson files (goal: ratio <= 0.5, at worst 1.0);
   the same cold check in one process (``--jobs 1``); and cold on a second corpus whose
   lessons each have templates of their own (``make_corpus(distinct=True)``), as lessons
   written apart do (the copies of the first share theirs, so each is compiled once);
3. ``rlkl check`` warm, after one lesson changed, through the content-hash cache (goal:
   <= 0.1 of the cold run), and ``rlkl regen`` after it (through the same cache);
4. the first ``rlkl check`` of N copies of the seed lesson into an empty cache folder (it
   fills the lesson cache and the equation readings), against check-jsonschema on the same
   files (the pytest plugin has its own benchmark, ``bench_plugin.py``);
5. CLI start-up (``rlkl --version``) and ``rlkl check --no-cache content/`` (the shipped lessons).

Every figure is the wall time of one subprocess run (start-up included), on this machine,
now: a measurement, not a guarantee. rlkl runs as ``pip install`` leaves it, with its
modules compiled to bytecode: ``PYTHONDONTWRITEBYTECODE`` is dropped from the commands'
environment (otherwise an editable checkout compiles every module on every run, ~0.1 s).

With ``--against REF`` it then runs the cold check, the warm check after one change, the cold
check of the own-template corpus and of ``content/`` with the ``rlkl`` package of git ref
``REF`` (``git archive`` into a temporary folder, put first on ``PYTHONPATH``) and with this
checkout, interleaved, ``--rounds`` times on the same corpora, and prints each variant's
median and this checkout's ratio to the ref's: on a shared machine, the comparison that load
does not decide.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import make_corpus

REPO = Path(__file__).resolve().parents[1]
SEED = "policy-gradient-kl-control"
BIN = Path(sys.executable).parent
# the environment of every timed command: rlkl's bytecode is written once and then used
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _run(*args: str, env: dict[str, str] | None = None, ok: tuple[int, ...] = (0,)) -> float:
    started = time.perf_counter()
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, env=env or ENV,
                          check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(args[:3])}… exited {done.returncode}:\n{done.stderr[-2000:]}")
    return elapsed


def _against(ref: str, root: Path, own: Path, changed: Path, tmp: Path, rounds: int) -> None:
    """Interleaved medians of this checkout and git ref ``ref`` (see the module docstring)."""
    code = tmp / "ref"
    code.mkdir()
    archive = subprocess.run(["git", "archive", ref, "rlkl", "schema"], cwd=REPO,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
    variants = {ref: code, "this checkout": REPO}
    shell = "import sys; from rlkl.cli import main; sys.argv[0] = 'rlkl'; main()"

    def run(name: str, *args: str) -> float:
        index = list(variants).index(name)  # each variant its own cache (equation readings too)
        env = {**ENV, "PYTHONPATH": str(variants[name]),
               "RLKL_CACHE_DIR": str(tmp / f"cache-{index}")}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", shell, *args], cwd=tmp, env=env,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{name}: rlkl {' '.join(args)} exited {done.returncode}:\n"
                             f"{done.stderr[-2000:]}")
        return time.perf_counter() - started

    for name in variants:
        run(name, "check", str(root))  # fills the caches: the rounds time only what they say
    times: dict[tuple[str, str], list[float]] = {}
    text = changed.read_text(encoding="utf-8")
    for turn in range(rounds):
        for name in variants:
            times.setdefault((name, "cold"), []).append(run(name, "check", "--no-cache", str(root)))
            # bytes never seen before (trailing newlines, one more each round): one miss
            changed.write_text(text + "\n" * (turn + 1), encoding="utf-8")
            times.setdefault((name, "warm"), []).append(run(name, "check", str(root)))
            changed.write_text(text, encoding="utf-8")
            times.setdefault((name, "own"), []).append(run(name, "check", "--no-cache", str(own)))
            shipped = run(name, "check", "--no-cache", str(REPO / "content"))
            times.setdefault((name, "content/"), []).append(shipped)
    print(f"interleaved, {rounds} rounds (median s): {ref} vs this checkout")
    for what in ("cold", "warm", "own", "content/"):
        old, new = (statistics.median(times[(n, what)]) for n in variants)
        print(f"  {what:<9} {old:7.2f} {new:7.2f}  this checkout / {ref}: {new / old:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="lessons in the corpus")
    parser.add_argument("--against", help="git ref to compare with, interleaved")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --against")
    args = parser.parse_args()
    rlkl = str(BIN / "rlkl")
    with tempfile.TemporaryDirectory(prefix="rlkl-bench-") as tmp:
        root = Path(tmp) / "content"
        folders = make_corpus(root, args.n)
        env = {**ENV, "RLKL_CACHE_DIR": str(Path(tmp) / "cache")}
        fix = _run(rlkl, "regen", "--fix", str(root), env=env)
        regen = _run(rlkl, "regen", str(root), env=env)
        cold = _run(rlkl, "check", "--no-cache", str(root), env=env)
        serial = _run(rlkl, "check", "--no-cache", "--jobs", "1", str(root), env=env)
        own = Path(tmp) / "own" / "content"
        make_corpus(own, args.n, distinct=True)
        _run(rlkl, "regen", "--fix", str(own), env=env)
        distinct = _run(rlkl, "check", "--no-cache", str(own), env=env)
        lessons = [str(f / "lesson.json") for f in folders]
        schema = str(REPO / "schema" / "lesson.schema.json")
        baseline = _run(str(BIN / "check-jsonschema"), "--schemafile", schema, *lessons)
        _run(rlkl, "check", str(root), env=env)  # the cache as a check leaves it
        changed = folders[len(folders) // 2] / "lesson.json"
        text = changed.read_text(encoding="utf-8")
        changed.write_text(text.replace("independently", "separately", 1), encoding="utf-8")
        warm = _run(rlkl, "check", str(root), env=env)
        regen_warm = _run(rlkl, "regen", str(root), env=env)  # after that check, through its cache
        seeds = Path(tmp) / "seeds" / "content"  # one lesson, copied: its equations alike
        seed_folders = make_corpus(seeds, args.n, sources=[SEED])
        _run(rlkl, "regen", "--fix", str(seeds), env=env)
        empty = {**ENV, "RLKL_CACHE_DIR": str(Path(tmp) / "empty-cache")}
        first = _run(rlkl, "check", str(seeds), env=empty)  # fills an empty cache folder
        seed_baseline = _run(str(BIN / "check-jsonschema"), "--schemafile", schema,
                             *[str(f / "lesson.json") for f in seed_folders])
        startup = min(_run(rlkl, "--version") for _ in range(3))
        shipped = min(_run(rlkl, "check", "--no-cache", "content", env=env) for _ in range(3))
        if args.against:
            _against(args.against, root, own, changed, Path(tmp), args.rounds)
    rows = [
        ("regen --fix (writes fixtures)", fix, ""),
        ("regen (nothing to write, nothing cached)", regen, ""),
        ("check-jsonschema (lesson schema only)", baseline, ""),
        ("check, cold (--no-cache)", cold, f"{cold / baseline:.2f}x check-jsonschema (goal <=0.5)"),
        ("check, cold, one process (--jobs 1)", serial, f"{serial / cold:.2f}x the pooled run"),
        ("check, cold, templates not shared", distinct, f"{distinct / cold:.2f}x cold"),
        ("check, warm after one change", warm, f"{warm / cold:.3f}x cold (goal <= 0.1)"),
        ("regen after that check", regen_warm, f"{regen_warm / regen:.3f}x regen, nothing cached"),
        (f"check of {args.n} seed copies, empty cache", first,
         f"{first / seed_baseline:.2f}x check-jsonschema on them ({seed_baseline:.2f} s)"),
        ("rlkl --version (start-up)", startup, ""),
        ("check --no-cache content/ (shipped lessons)", shipped, ""),
    ]
    print(f"{args.n} lessons, {os.cpu_count()} CPUs")
    for name, seconds, ratio in rows:
        print(f"  {name:<40} {seconds:8.2f} s  {ratio}")


if __name__ == "__main__":
    main()
