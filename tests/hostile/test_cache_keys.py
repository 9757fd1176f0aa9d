"""The check cache's key reads files the way the loaders do: a FIFO never blocks it, and a
file that cannot be read never shares a key with one that is missing (found by the hostile
corpus running with one shared cache)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from rlkl.cache import lesson_key

from .harness import CONTENT

SEED = "policy-gradient-kl-control"


def test_keys_tell_missing_fifo_and_folder_apart(tmp_path: Path) -> None:
    folder = tmp_path / SEED
    shutil.copytree(CONTENT / SEED, folder)
    lesson = folder / "lesson.json"
    fixtures = folder / "fixtures.json"
    keys = {"present": lesson_key(lesson, "x")}
    fixtures.unlink()
    keys["missing"] = lesson_key(lesson, "x")
    os.mkfifo(fixtures)
    keys["fifo"] = lesson_key(lesson, "x")  # would block forever if it opened the FIFO
    fixtures.unlink()
    fixtures.mkdir()
    keys["folder"] = lesson_key(lesson, "x")
    assert len(set(keys.values())) == 4, keys
