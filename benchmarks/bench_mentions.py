"""Check time against the number of numbers in one prose field (issue 8, item 5).

    python benchmarks/bench_mentions.py

Plants "1 " x n in the seed lesson's /tradeoff for n = 4,000 and 16,000 and prints each
check time and the ratio; linear time gives a ratio near 4 (quadratic: near 16).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from rlkl.check import check_paths

CONTENT = Path(__file__).resolve().parents[1] / "content"
SEED = "policy-gradient-kl-control"


def check_seconds(root: Path, count: int) -> float:
    folder = root / str(count)
    shutil.copytree(CONTENT / SEED, folder / SEED)
    shutil.copy(CONTENT / "catalog.json", folder / "catalog.json")
    lesson = folder / SEED / "lesson.json"
    text = lesson.read_text(encoding="utf-8")
    lesson.write_text(text.replace('"tradeoff":"', '"tradeoff":"' + "1 " * count, 1),
                      encoding="utf-8")
    started = time.perf_counter()
    result = check_paths([folder / SEED])
    seconds = time.perf_counter() - started
    assert result.summary()["errors"] >= count  # each planted number is unaccounted
    return seconds


def main() -> int:
    root = Path(tempfile.mkdtemp())
    try:
        check_seconds(root, 10)  # warm imports and caches
        small, large = check_seconds(root, 4_000), check_seconds(root, 16_000)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"4,000 mentions: {small:.2f} s; 16,000 mentions: {large:.2f} s; "
          f"ratio {large / small:.1f} (linear: 4, quadratic: 16)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
