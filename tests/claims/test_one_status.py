"""One status per number: ``rlkl claims``, the site and the pytest plugin read one report.

Each case mutates a copy of the seed lesson (its prose, its fixtures or its bindings) and
asks every consumer, uncached and cached, serially and across processes. ``rlkl claims`` and
the site must give every number the same status, in the same order; the plugin's claim
items must pass exactly at the numbers whose status needs nothing of the author.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl import pool
from rlkl.cache import Cache
from rlkl.cli import main
from rlkl.site.records import check_site
from tests.claims.test_one_verdict import CASES, _copy

pytest_plugins = ["pytester"]


def _no_fixtures(folder: Path) -> None:
    (folder / "fixtures.json").unlink()


def _broken_bindings(folder: Path) -> None:
    path = folder / "claims.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n  - [unclosed\n", encoding="utf-8")


MUTATIONS = {**{name: mutation for name, (mutation, _) in CASES.items()},
             "no-fixtures": _no_fixtures, "broken-claims-yaml": _broken_bindings}
MODES = {"uncached-serial": (False, 1), "cached-serial": (True, 1),
         "uncached-pooled": (False, 2), "cached-pooled": (True, 2)}

Rows = dict[str, list[tuple[int | None, str, str]]]
"""By prose pointer, in document order: (start if known, number as written, status)."""


def _claims_rows(folder: Path, cached: bool, jobs: int) -> Rows:
    args = ["claims", str(folder), "--format", "json", "--jobs", str(jobs)]
    listed = CliRunner().invoke(main, args + ([] if cached else ["--no-cache"]))
    assert listed.exit_code in (0, 1), listed.output
    assert listed.stdout, (listed.exit_code, listed.output, listed.exception, listed.stderr)
    rows: Rows = {}
    for row in json.loads(listed.stdout)["mentions"]:
        rows.setdefault(row["pointer"], []).append((None, row["text"], row["status"].lower()))
    return rows


def _site_rows(content: Path, cache: Path | None, jobs: int) -> Rows:
    site = check_site(content, jobs=jobs, cache=Cache(cache) if cache else None)
    [record] = site.records().values()
    return {pointer: [(m.start, m.text, m.status) for m in marks]
            for pointer, marks in record.marks.items()}


def _plugin_items(pytester: pytest.Pytester, folder: Path) -> dict[str, bool]:
    outcome = pytester.runpytest_inprocess(str(folder), "-p", "no:cacheprovider", "-p",
                                           "no:xdist")
    reports = outcome.reprec.getreports("pytest_runtest_logreport")  # type: ignore[attr-defined]
    return {r.nodeid.rsplit("::", 1)[1]: r.passed for r in reports if r.when == "call"}


SETTLED = ("verified", "input", "exempt")


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("case", sorted(MUTATIONS))
def test_claims_the_site_and_the_plugin_give_each_number_one_status(
    case: str, mode: str, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    cached, jobs = MODES[mode]
    monkeypatch.setattr(pool, "POOL_MIN_LESSONS", 1)  # one lesson is enough for the pool
    cache = pytester.path / "cache"
    monkeypatch.setenv("RLKL_CACHE_DIR", str(cache) if cached else "off")
    folder = _copy(pytester.path, MUTATIONS[case])
    fixtures = folder / "fixtures.json"
    recorded = json.loads(fixtures.read_text(encoding="utf-8")) if fixtures.exists() else None
    shown: Rows = {}
    for _ in range(2 if cached else 1):  # cached: the second run is answered by the cache
        listed = _claims_rows(folder, cached, jobs)
        shown = _site_rows(folder.parent, cache if cached else None, jobs)
        assert {p: [(t, s) for _, t, s in rows] for p, rows in shown.items()} == {
            p: [(t, s) for _, t, s in rows] for p, rows in listed.items()}
    statuses = {(p, start): s for p, rows in shown.items() for start, _, s in rows}
    assert any(s not in SETTLED for s in statuses.values()) == (case not in (
        "unchanged", "ascii-minus-in-quiz-key", "computed-with-float-noise", "orphaned-claim",
        "other-core"))
    items = _plugin_items(pytester, folder)
    if recorded is None:
        assert set(items) == {"lesson"} and not items["lesson"]
        return
    if case == "broken-claims-yaml":  # no claim is checked: every item says to fix it first
        assert not any(items.values())
        return
    at = {e["id"]: (e["pointer"], e["span"][0]) for e in recorded["claims"]
          if not e["id"].startswith("gone.")}  # the orphaned entry copies a real one's place
    failing = {at[claim] for claim, passed in items.items() if claim in at and not passed}
    for number, status in statuses.items():
        ids = [claim for claim, place in at.items() if place == number and claim in items]
        if not ids:
            continue
        # a claim item fails exactly at the numbers that need the author
        assert (number in failing) == (status not in SETTLED), (number, status)
