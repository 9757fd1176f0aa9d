"""Correct edits are accepted; deliberate changes flow through regen (and --fix) cleanly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rlkl.cache import Cache
from rlkl.check import check_paths
from rlkl.regen import regen_paths
from rlkl.render import render
from tests.claims.helpers import SEED, Workspace, codes

VERIFY = {
    "RLKL401",
    "RLKL402",
    "RLKL403",
    "RLKL404",
    "RLKL405",
    "RLKL406",
    "RLKL407",
    "RLKL408",
    "RLKL410",
    "RLKL420",
    "RLKL607",
}


def _regen_then_clean(space: Workspace) -> None:
    report, result = regen_paths([space.root / SEED])
    assert [p.name for p in report.updated] == ["fixtures.json"]
    assert result.summary()["errors"] == 0, result.diagnostics


def test_shipped_seed_is_clean(tmp_path: Path) -> None:
    result = Workspace.copy(tmp_path).check()
    assert result.diagnostics == []
    summary = result.summary()
    assert summary["claims"] == summary["verified"] > 20
    assert summary["exempt"] == 1


def test_ascii_minus_is_accepted(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("\u2212", "-", count=-1)
    assert space.check().diagnostics == []  # the same numbers: verified, and not stale
    _regen_then_clean(space)  # regen still records the text as now written


def test_coarser_true_rounding_is_stale_then_clean(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("0.082283 nats", "0.0823 nats", count=-1)
    assert codes(space.check()) == {"RLKL502"}
    _regen_then_clean(space)


def test_unit_change_with_converted_value(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("0.082283 nats", "0.118709 bits", count=-1)
    assert codes(space.check()) == {"RLKL502"}
    _regen_then_clean(space)


def test_regen_fix_rewrites_only_dependent_numbers(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("current probability 0.7", "current probability 0.8", count=-1)
    before = space.read()
    report, result = regen_paths([space.root / SEED], fix=True)
    assert result.summary()["errors"] == 0, result.diagnostics
    assert report.fixed == {space.path(): 10}
    after = space.read()
    expected = (
        before.replace("ratio is 1.4", "ratio is 1.6")
        .replace("min(1.4×2,1.2×2)=2.4", "min(1.6×2,1.2×2)=2.4")
        .replace("min(−2.8,−2.4)=−2.8", "min(−3.2,−2.4)=−3.2")
        .replace("not the ratio 1.4", "not the ratio 1.6")
    )
    assert after == expected  # the numbers and nothing else; the quiz keeps its own inputs
    again, _ = regen_paths([space.root / SEED], fix=True)
    assert again.fixed == {} and again.updated == [] and len(again.unchanged) == 1
    assert space.read() == after


def test_regen_is_idempotent_and_writes_only_changes(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path, SEED, "ppo-clipped-objective")
    fixture = space.path(name="fixtures.json")
    other = space.path("ppo-clipped-objective", "fixtures.json")
    other_bytes = other.read_bytes() if other.exists() else None
    stamp = fixture.stat().st_mtime_ns
    report, _ = regen_paths([space.root / SEED])
    assert report.updated == [] and report.removed == []
    assert fixture.stat().st_mtime_ns == stamp
    fixture.write_text(fixture.read_text(encoding="utf-8").replace("1.4", "9.9"), encoding="utf-8")
    report, _ = regen_paths([space.root / SEED])
    assert report.updated == [fixture]
    first = fixture.read_bytes()
    regen_paths([space.root / SEED])
    assert fixture.read_bytes() == first
    # a lesson that was not processed keeps its fixtures untouched
    assert (other.read_bytes() if other.exists() else None) == other_bytes
    assert not list(fixture.parent.glob(".*.tmp"))


def test_fix_refuses_to_choose_between_disagreeing_inputs(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("current probability 0.7", "current probability 0.8")  # only the first place
    before = space.read()
    report, result = regen_paths([space.root / SEED], fix=True)
    assert report.fixed == {} and "different values" in report.not_fixed[space.path()]
    assert space.read() == before
    assert "RLKL420" in codes(result)


def test_moving_a_number_within_its_sentence_is_not_stale(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit('"engineeringExample":"For a sampled', '"engineeringExample":"Here: for a sampled')
    assert codes(space.check()) == set()


def test_regen_repairs_a_damaged_fixture(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.path(name="fixtures.json").write_text('{"claims": 5}', encoding="utf-8")
    assert "RLKL505" in codes(space.check())
    _regen_then_clean(space)


def test_a_true_infinite_kl_is_accepted(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit(
        "PPO is worked here only.", "PPO is worked here only. KL([0.7,0.3] || [1,0]) is ∞ nats."
    )
    result = space.check()
    assert not codes(result) & VERIFY, result.diagnostics


def test_a_changed_exempt_number_is_reported_at_the_number(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("423 parameters", "424 parameters")
    (stale,) = [d for d in space.check().diagnostics if d.code == "RLKL502"]
    assert stale.pointer == "/specs/0/context" and stale.file.endswith("lesson.json")


@pytest.mark.parametrize("fix", [False, True])
def test_regen_across_processes_does_what_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fix: bool
) -> None:
    """A large corpus is regenerated lesson by lesson in worker processes: the same files
    written, the same report and the same diagnostics as in one process."""
    from concurrent import futures

    from rlkl import pool

    lessons = (SEED, "ppo-clipped-objective", "kl-direction-estimators", "reinforce-baseline-kl")
    space = Workspace.copy(tmp_path, *lessons)  # the last is right as it is
    space.edit("current probability 0.7", "current probability 0.8", count=-1)  # --fix work
    space.edit("ratio is 1.4", "ratio is 1.5", lesson="ppo-clipped-objective")  # stays failing
    (space.root / "kl-direction-estimators" / "fixtures.json").unlink()  # to write
    pristine = tmp_path / "pristine"
    shutil.copytree(space.root, pristine)
    monkeypatch.setattr(pool, "POOL_MIN_LESSONS", 1)
    pools: list[int] = []
    real = futures.ProcessPoolExecutor  # the pool imports it where it starts one
    monkeypatch.setattr(futures, "ProcessPoolExecutor", lambda **kw: pools.append(1) or real(**kw))
    outcomes = []
    for jobs, cache in ((1, None), (2, None), (2, Cache(tmp_path / "cache"))):
        shutil.rmtree(space.root)
        shutil.copytree(pristine, space.root)
        if cache is not None:  # the check cache answers for the lesson that is right
            check_paths([space.root], cache=cache)
        pools.clear()
        report, result = regen_paths([space.root], fix=fix, jobs=jobs, cache=cache)
        files = {p.relative_to(space.root): p.read_bytes() for p in space.root.rglob("*.json")}
        shown = render(result.diagnostics, result.summary(), "json")
        outcomes.append((report, shown, files, bool(pools)))
    (serial, *one), (pooled, *other), (cached, *third) = outcomes
    assert one[:2] == other[:2] == third[:2]
    assert serial == pooled and (serial.updated, serial.fixed) == (cached.updated, cached.fixed)
    assert sorted(serial.unchanged) == sorted(cached.unchanged)
    right = space.path("reinforce-baseline-kl")  # worked on, except where the cache answered
    assert right in serial.changes and right not in cached.changes
    assert (one[2], other[2], third[2]) == (False, True, True)  # later runs used processes
    assert pooled.updated and (pooled.fixed if fix else True)
