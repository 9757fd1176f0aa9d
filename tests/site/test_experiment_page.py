"""The experiment page is run once per code and library versions, then read from the cache."""

from __future__ import annotations

import json

import pytest

import rlkl.site.experiment as experiment
from rlkl.cache import Cache


def test_a_second_build_reads_the_run_from_the_cache(tmp_path, monkeypatch) -> None:
    cache = Cache(tmp_path)
    markdown, png = experiment.experiment_page(cache)
    assert png.startswith(b"\x89PNG") and "Summary of this run" in markdown

    def no_run() -> None:
        raise AssertionError("the experiment ran again")

    monkeypatch.setattr(experiment, "_run_page", no_run)
    assert experiment.experiment_page(cache) == (markdown, png)


@pytest.mark.parametrize("damage", ["not json", '{"key": 1}', "png"])
def test_a_damaged_entry_is_run_again(tmp_path, monkeypatch, damage) -> None:
    cache = Cache(tmp_path)
    monkeypatch.setattr(experiment, "_run_page", lambda: ("page", b"\x89PNG-1"))
    experiment.experiment_page(cache)
    (entry,) = tmp_path.glob("experiment-*.json")
    if damage == "png":
        data = json.loads(entry.read_text())
        data["data"]["png"] = "%%%"
        entry.write_text(json.dumps(data))
    else:
        entry.write_text(damage)
    monkeypatch.setattr(experiment, "_run_page", lambda: ("page", b"\x89PNG-2"))
    assert experiment.experiment_page(cache) == ("page", b"\x89PNG-2")


def test_a_new_budget_is_a_new_key(monkeypatch) -> None:
    before = experiment.experiment_key()
    monkeypatch.setattr(experiment, "COMMAND", experiment.COMMAND + " --other")
    assert experiment.experiment_key() != before


LATER = """
import logging, os, sys
import rlkl.site.experiment as experiment

parent = os.getpid()
experiment._run_page = lambda: ("page", str(os.getpid()).encode())
page, made_by = experiment.Later(None).page()
assert page == "page" and int(made_by) != parent, "not made by the forked process"

def broken():
    raise RuntimeError("the run failed")

experiment._run_page = broken
try:
    experiment.Later(None).page()
except RuntimeError as error:
    print("raised here:", error)

def dies():
    if os.getpid() != parent:
        os._exit(3)
    return ("page", b"made here")

experiment._run_page = dies
assert experiment.Later(None).page() == ("page", b"made here")

def warns():
    if os.getpid() != parent:
        logging.getLogger("mkdocs").warning("a warning a strict build must see")
    return ("page", str(os.getpid()).encode())

experiment._run_page = warns
assert experiment.Later(None).page() == ("page", str(parent).encode())
print("ok")
"""


def test_the_page_made_beside_the_build_is_made_here_when_its_process_cannot(
    tmp_path, monkeypatch
) -> None:
    """A batch build makes the page in a forked process (``Later``); a run that raises there
    raises again in the build, and a process that dies or logs a warning leaves the page to
    the build (which logs it, so a strict build fails). (In a
    fresh interpreter: an xdist worker runs threads, and a process with threads is never
    forked.)"""
    import subprocess
    import sys

    monkeypatch.setenv("RLKL_CACHE_DIR", str(tmp_path))
    done = subprocess.run([sys.executable, "-c", LATER], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["raised here: the run failed", "ok"]
