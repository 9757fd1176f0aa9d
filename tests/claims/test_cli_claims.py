"""`rlkl check`, `rlkl regen` and `rlkl claims` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl.cli import main
from tests.claims.helpers import SEED, Workspace


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_check_json_summary_counts_claims(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    code, out, _ = _run("check", str(space.root / SEED), "--format", "json")
    payload = json.loads(out)
    assert code == 0 and payload["diagnostics"] == []
    summary = payload["summary"]
    assert summary["claims"] == summary["verified"] > 0 and summary["exempt"] == 1
    space.edit("ratio is 1.4. With", "ratio is 1.5. With")
    code, out, _ = _run("check", str(space.root), "--format", "github")
    assert code == 1 and "::error file=" in out and "title=RLKL401" in out


def test_claims_lists_every_mention_and_fails_on_an_unaccounted_one(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    code, out, _ = _run("claims", str(space.root / SEED), "--format", "json")
    rows = json.loads(out)["mentions"]
    assert code == 0 and len(rows) == 50
    assert {r["status"] for r in rows} == {"verified", "input", "exempt"}
    decoder = next(r for r in rows if r["text"] == "423")
    assert decoder["status"] == "exempt" and "decoder" in decoder["reason"]
    space.edit("PPO is worked here only.", "PPO is worked 3 times.")
    code, out, _ = _run("claims", str(space.root / SEED))
    assert code == 1
    assert any("UNACCOUNTED" in line and "/description" in line for line in out.splitlines())


def test_claims_reports_an_unreadable_lesson(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.path().write_text('{"id": ', encoding="utf-8")
    code, _, err = _run("claims", str(space.root / SEED))
    assert code == 1 and "RLKL105" in err


def test_regen_prints_counts_and_is_idempotent(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    code, _, err = _run("regen", str(space.root))
    assert code == 0 and "0 updated, 1 unchanged, 0 removed" in err
    space.edit("current probability 0.7", "current probability 0.8", count=-1)
    code, _, err = _run("regen", str(space.root), "--fix")
    assert code == 0 and "fixed 10 numbers" in err and "1 updated" in err


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert _run("check", str(tmp_path / "missing"))[0] == 2
    assert _run("regen", "--frobnicate")[0] == 2


def test_jobs_choose_processes_and_never_change_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent import futures

    from rlkl import pool

    space = Workspace.copy(tmp_path, SEED, "ppo-clipped-objective")
    space.edit("ratio is 1.4. With", "ratio is 1.5. With")
    monkeypatch.setattr(pool, "POOL_MIN_LESSONS", 1)
    pools: list[int] = []
    real = futures.ProcessPoolExecutor  # the pool imports it where it starts one
    monkeypatch.setattr(futures, "ProcessPoolExecutor",
                        lambda **kw: pools.append(kw["max_workers"]) or real(**kw))
    root = str(space.root)
    serial = _run("check", "--no-cache", "-j", "1", root, "--format", "json")
    assert pools == []  # -j 1: every lesson in this process
    pooled = _run("check", "--no-cache", "-j", "2", root, "--format", "json")
    assert pools == [2] and pooled == serial and serial[0] == 1
    assert _run("regen", "-j", "2", root)[0] == 1  # the failing claim stays reported
    assert pools == [2, 2]
    assert _run("check", "-j", "0", str(space.root))[0] == 2
