"""The pytest plugin on a large corpus, serial and with ``-n 2``, against an older plugin.

    python benchmarks/bench_plugin.py --corpus /tmp/corp/content --against main
    python benchmarks/bench_plugin.py --n 200            # makes a corpus first (regen)

Prints, from one run with the runs interleaved (the machine is shared: compare ratios
within a run): the plugin of this checkout and, with ``--against REF``, the plugin file of
git ref ``REF`` (``rlkl/pytest_plugin.py`` only, loaded as a module next to this checkout's
``rlkl`` with ``-p no:rlkl``), each serial and with ``-n 2``; and the floor that
pytest-xdist sets on this machine: as many trivial test items (``def test(i): pass``),
serial and with ``-n 2``. When ``-n 2`` is slower than serial for trivial items, it is the
cost per item of xdist (reports sent to, and handled by, the controller), not the plugin.
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
REF_MODULE = "rlkl_plugin_ref"
TRIVIAL = "import pytest\n\n\n@pytest.mark.parametrize('i', range({n}))\ndef test(i):\n    pass\n"


def _run(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall time of one pytest subprocess and its last line (``N passed in …``)."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, help="an existing content folder (with fixtures)")
    parser.add_argument("--n", type=int, default=1000, help="lessons, when making a corpus")
    parser.add_argument("--against", help="git ref whose rlkl/pytest_plugin.py to compare")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rlkl-bench-plugin-") as tmp:
        env = {**os.environ, "RLKL_CACHE_DIR": str(Path(tmp) / "cache")}
        root = args.corpus
        if root is None:
            root = Path(tmp) / "content"
            make_corpus(root, args.n)
            rlkl = str(Path(sys.executable).parent / "rlkl")
            subprocess.run([rlkl, "regen", "--fix", str(root)], env=env, check=False,
                           capture_output=True)
            subprocess.run([rlkl, "regen", str(root)], env=env, check=True, capture_output=True)
        pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        variants = {"this checkout": [str(root)]}
        if args.against:
            source = subprocess.run(["git", "show", f"{args.against}:rlkl/pytest_plugin.py"],
                                    cwd=REPO, capture_output=True, text=True, check=True)
            (Path(tmp) / f"{REF_MODULE}.py").write_text(source.stdout, encoding="utf-8")
            env["PYTHONPATH"] = os.pathsep.join([tmp, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
            variants[args.against] = [str(root), "-p", "no:rlkl", "-p", REF_MODULE]
        times: dict[tuple[str, str], list[float]] = {}
        items = 0
        for round_ in range(args.rounds):
            order = list(variants.items())
            for mode, extra in (("serial", []), ("-n 2", ["-n", "2"])):
                for name, target in order if round_ % 2 == 0 else order[::-1]:
                    seconds, last = _run([*pytest, *target, *extra], env)
                    times.setdefault((name, mode), []).append(seconds)
                    items = max(items, _passed(last))
                    print(f"  {name:<16} {mode:<7} {seconds:7.1f} s   {last}", flush=True)
        trivial = Path(tmp) / "trivial" / "test_trivial.py"
        trivial.parent.mkdir()
        trivial.write_text(TRIVIAL.format(n=items), encoding="utf-8")
        floor = [str(trivial), "--rootdir", str(trivial.parent)]
        for mode, extra in (("serial", []), ("-n 2", ["-n", "2"])):
            seconds, last = _run([*pytest, *floor, *extra], env)
            times[(f"{items} trivial items", mode)] = [seconds]
            print(f"  {'trivial items':<16} {mode:<7} {seconds:7.1f} s   {last}", flush=True)
    print(f"\n{items} items, {os.cpu_count()} CPUs; best of {args.rounds} round(s):")
    for name in [*variants, f"{items} trivial items"]:
        serial, parallel = min(times[(name, "serial")]), min(times[(name, "-n 2")])
        print(f"  {name:<22} serial {serial:7.1f} s   -n 2 {parallel:7.1f} s   "
              f"({parallel / serial:.2f}x serial)")
    if args.against:
        for mode in ("serial", "-n 2"):
            ratio = min(times[("this checkout", mode)]) / min(times[(args.against, mode)])
            print(f"  {mode:<7} this checkout / {args.against}: {ratio:.2f}x")


if __name__ == "__main__":
    main()
