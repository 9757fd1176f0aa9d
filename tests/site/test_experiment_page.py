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
