"""Faults during writes: ``regen`` and ``regen --fix`` SIGKILLed in their write phase on a
200-lesson corpus leave every file either as it was or as a finished run writes it, and two
``regen`` runs at once end in the same files as one run.

The write phase is found by watching the corpus (the first file that changes); the kill
lands at fixed fractions of the write phase measured on a reference run. Leftover
temporary files (``.<name>.*.tmp``, from a kill between creating and renaming one) are the
only other files allowed, and the next regen finishes the job.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .big_corpus import INPUT, STALE, build_corpus, contents

LESSONS = 200
COMMAND = [sys.executable, "-c", "from rlkl.cli import main; main()", "regen"]


def _stamps(content: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in content.glob("*/*.json")}


def _regen(content: Path, fix: bool) -> subprocess.Popen[bytes]:
    args = [*COMMAND, str(content), *(["--fix"] if fix else [])]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _first_write(process: subprocess.Popen[bytes], content: Path, before: dict[Path, int]) -> float:
    """Wait until some file of the corpus changes (the write phase began); return when."""
    while process.poll() is None:
        now = _stamps(content)
        if now != before or any(p.name.endswith(".tmp") for p in content.glob("*/.*")):
            return time.monotonic()
        time.sleep(0.002)
    raise AssertionError("regen finished before any write was seen")


def _reference(tmp_path: Path, edit: tuple[str, str], fix: bool) -> tuple[
        dict[str, bytes], dict[str, bytes], float]:
    """Old files, new files, and how long the write phase of a whole run lasts (from the
    first to the last change seen while watching the corpus)."""
    content = build_corpus(tmp_path / "reference", LESSONS, edit)
    old = contents(content)
    before = _stamps(content)
    process = _regen(content, fix)
    first = last = _first_write(process, content, before)
    while process.poll() is None:
        now = _stamps(content)
        if now != before:
            before, last = now, time.monotonic()
        time.sleep(0.005)
    assert process.returncode == 0
    new = contents(content)
    assert new != old
    return old, new, last - first


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (its pool workers), from Linux's /proc."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:  # already gone
        return []


def _assert_gone(pids: list[int], within: float = 10.0) -> None:
    """Every one of ``pids`` has exited (or is a zombie nobody reaped) within ``within`` s."""
    deadline = time.monotonic() + within
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if _running(p)]
        time.sleep(0.05)
    assert not alive, f"worker processes outlived the killed regen: {alive}"


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _assert_old_or_new(content: Path, old: dict[str, bytes], new: dict[str, bytes]) -> None:
    """Every file is old or new, none is missing; temporary leftovers are the only extras."""
    found = contents(content)
    for name, data in found.items():
        if name not in old:
            assert Path(name).name.startswith(".") and name.endswith(".tmp"), name
            continue
        assert data in (old[name], new[name]), f"{name} is neither old nor new"
    assert set(old) <= set(found), "a file disappeared"


@pytest.mark.parametrize(("edit", "fix"), [(STALE, False), (INPUT, True)], ids=["regen", "fix"])
def test_sigkill_in_the_write_phase_leaves_old_or_new_files(
    tmp_path: Path, edit: tuple[str, str], fix: bool
) -> None:
    old, new, span = _reference(tmp_path, edit, fix)
    for number, fraction in enumerate((0.0, 0.5)):
        content = build_corpus(tmp_path / f"kill-{number}", LESSONS, edit)
        assert contents(content) == old
        before = _stamps(content)
        process = _regen(content, fix)
        _first_write(process, content, before)
        time.sleep(fraction * span)
        workers = _children(process.pid)
        killed = process.poll() is None
        if killed:
            os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        if killed and (os.cpu_count() or 1) > 1:  # 200 lessons: regen writes from its workers
            assert workers, "regen wrote without worker processes"
        _assert_gone(workers)  # its worker processes die with it: none waits or writes on
        _assert_old_or_new(content, old, new)
        # the next run finishes the job: exactly the new files, no leftovers in the way
        assert subprocess.run([*COMMAND, str(content), *(["--fix"] if fix else [])],
                              capture_output=True, timeout=600).returncode == 0
        assert {k: v for k, v in contents(content).items() if k in new} == new


def test_two_concurrent_regens_end_as_one(tmp_path: Path) -> None:
    content = build_corpus(tmp_path / "both", LESSONS, STALE)
    expected = build_corpus(tmp_path / "one", LESSONS, STALE)
    assert subprocess.run([*COMMAND, str(expected)], capture_output=True, timeout=600
                          ).returncode == 0
    first, second = _regen(content, False), _regen(content, False)
    assert first.wait(timeout=600) == 0
    assert second.wait(timeout=600) == 0
    assert contents(content) == contents(expected)
