"""One definition of verified: check, claims, regen and the pytest plugin agree on every case.

Each case mutates a copy of the seed lesson (its prose or its committed fixtures) and runs
all four consumers; they must give the same verdict for the lesson and fail the same claims.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl.check import check_paths
from rlkl.cli import main
from rlkl.regen import regen_paths
from tests.claims.helpers import CONTENT, SEED

pytest_plugins = ["pytester"]

Mutation = Callable[[Path], None]


def _lesson(text: Callable[[str], str]) -> Mutation:
    def mutate(folder: Path) -> None:
        path = folder / "lesson.json"
        path.write_text(text(path.read_text(encoding="utf-8")), encoding="utf-8")

    return mutate


def _fixtures(change: Callable[[dict[str, object]], None]) -> Mutation:
    def mutate(folder: Path) -> None:
        path = folder / "fixtures.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    return mutate


def _claim(data: dict[str, object], claim_id: str) -> dict[str, object]:
    claims = data["claims"]
    assert isinstance(claims, list)
    return next(c for c in claims if c["id"] == claim_id)


def _set(claim_id: str, key: str, value: object) -> Mutation:
    return _fixtures(lambda data: _claim(data, claim_id).__setitem__(key, value))


def _drop(claim_id: str) -> Mutation:
    def change(data: dict[str, object]) -> None:
        claims = data["claims"]
        assert isinstance(claims, list)
        claims.remove(_claim(data, claim_id))

    return _fixtures(change)


def _orphan(data: dict[str, object]) -> None:
    claims = data["claims"]
    assert isinstance(claims, list)
    claims.append({**claims[0], "id": "gone.claim@/nowhere"})


RATIO = "ppo-ratio.ratio@/engineeringExample"
CASES: dict[str, tuple[Mutation, bool]] = {  # name -> (mutation, lesson passes)
    "unchanged": (lambda folder: None, True),
    "ascii-minus-in-quiz-key": (
        _lesson(lambda t: t.replace('"options":["−2.8', '"options":["-2.8', 1)), True),
    "computed-with-float-noise": (_set(RATIO, "computed", 1.4000000000000001), True),
    "wrong-prose-number": (_lesson(lambda t: t.replace("ratio is 1.4", "ratio is 1.5", 1)), False),
    "drifted-value": (_set(RATIO, "computed", 1.5), False),
    "stale-quote": (_set(RATIO, "quote", "ratio was 1.4"), False),
    "new-claim": (_drop(RATIO), False),
    "orphaned-claim": (_fixtures(_orphan), False),
    "other-core": (_fixtures(lambda data: data.__setitem__("core", "0.0.0-other")), False),
}


def _copy(root: Path, mutation: Mutation) -> Path:
    content = root / "content"
    content.mkdir()
    shutil.copy(CONTENT / "catalog.json", content / "catalog.json")
    shutil.copytree(CONTENT / SEED, content / SEED)
    mutation(content / SEED)
    return content / SEED


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_consumer_gives_the_same_verdict(case: str, pytester: pytest.Pytester) -> None:
    mutation, passes = CASES[case]
    folder = _copy(pytester.path, mutation)
    fixture = json.loads((folder / "fixtures.json").read_text(encoding="utf-8"))
    items = {c["id"] for c in fixture["claims"]}  # the plugin has one item per recorded claim

    checked = check_paths([folder])
    check_ok = checked.summary()["errors"] == 0
    failing = {c.id for r in checked.reports for c in r.changes if not c.ok}

    listed = CliRunner().invoke(main, ["claims", str(folder), "--format", "json"])
    claims_ok = listed.exit_code == 0

    outcome = pytester.runpytest(str(folder), "-p", "no:cacheprovider")
    reports = outcome.reprec.getreports("pytest_runtest_logreport")  # type: ignore[attr-defined]
    failed_items = {r.nodeid.rsplit("::", 1)[1] for r in reports if r.when == "call" and r.failed}
    plugin_ok = outcome.ret == 0

    report, _ = regen_paths([folder])
    regen_ok = all(c.ok for c in report.changes.get(folder / "lesson.json", ()))

    assert (check_ok, claims_ok, plugin_ok, regen_ok) == (passes,) * 4
    assert failed_items - {"lesson"} == failing & items
