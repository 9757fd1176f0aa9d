"""ruff on rlkl/, tests/ and benchmarks/; mypy --strict on rlkl/ (skipped without the tools)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True,
                          text=True, check=False)


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")
def test_ruff() -> None:
    targets = [t for t in ("rlkl", "tests", "benchmarks") if (REPO / t).exists()]
    done = _run("ruff", "check", *targets)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict() -> None:
    pytest.importorskip("mypy")
    done = _run("mypy", "--strict", "rlkl")
    assert done.returncode == 0, done.stdout + done.stderr
