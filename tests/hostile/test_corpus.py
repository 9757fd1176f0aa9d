"""The hostile corpus: every case in ``cases/`` run through the real CLI in a subprocess.

Each case states its command, the exit status, the diagnostics (code, file, pointer) that
must appear, the codes that must not, and which files may change. Every case also gets the
invariants that hold for any input: the run ends within the case's time bound (enforced by
the harness with ``subprocess.run(timeout=...)``, never by timing assertions), no
traceback, ``--format json`` prints exactly one JSON object, no internal error (RLKL901),
``check`` writes nothing, and nothing outside ``content/`` is ever written.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

import pytest

from .harness import DEFAULT_TIMEOUT, Entry, Unprivileged, load_cases, run

CASES = load_cases()


def _params() -> list[Any]:
    params = []
    for name, case, folder in CASES:
        marks = []
        if case.get("pending"):
            marks.append(pytest.mark.xfail(reason=case["pending"], strict=True))
        params.append(pytest.param(case, folder, id=name, marks=marks))
    return params


def _matches(pattern: str, key: str) -> bool:
    return fnmatch.fnmatchcase(key, pattern)


def _changed(before: dict[str, Entry], after: dict[str, Entry]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def _found(payload: dict[str, Any], want: dict[str, Any]) -> bool:
    return any(all(d.get(k) == v for k, v in want.items()) for d in payload["diagnostics"])


@pytest.mark.parametrize(("case", "folder"), _params())
def test_hostile_case(case: dict[str, Any], folder: Path) -> None:
    try:
        outcome = run(case, folder)
    except Unprivileged as reason:
        pytest.skip(str(reason))
    bound = case.get("timeout", DEFAULT_TIMEOUT)
    assert outcome.status is not None, f"no result within {bound} s"
    assert "Traceback" not in outcome.stderr, outcome.stderr
    expect = case["expect"]
    assert outcome.status == expect["exit"], outcome.stdout + outcome.stderr
    payload = outcome.payload
    assert payload is not None, f"stdout is not one JSON object: {outcome.stdout!r}"
    assert set(payload) >= {"diagnostics", "summary"}
    for want in expect.get("diagnostics", []):
        assert _found(payload, want), f"missing {want} in {payload['diagnostics']}"
    codes = {d["code"] for d in payload["diagnostics"]}
    assert not codes & {"RLKL901", *expect.get("absent", [])}, payload["diagnostics"]
    summary = payload["summary"]
    if "lessons" in summary and "finished" in summary:
        assert summary["finished"] == summary["lessons"]
    changed = _changed(outcome.before, outcome.after)
    allowed = [] if case["run"][0] == "check" else expect.get("may_change", ["content/*"])
    stray = {k for k in changed if not any(_matches(p, k) for p in allowed)}
    stray -= {k for k in stray if k.rsplit("/", 1)[-1].startswith(".") and k.endswith(".tmp")}
    assert not stray, f"written where it must not be: {sorted(stray)}"
    leftovers = [k for k in outcome.after if k.endswith(".tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"
    for pattern in expect.get("changed", []):
        assert any(_matches(pattern, k) for k in changed), f"{pattern} was not rewritten"
    for key in expect.get("symlinks", []):
        assert outcome.after[key].kind == "link", f"{key} is no longer a symlink"
    for key, kind in expect.get("kinds", {}).items():
        assert outcome.after[key].kind == kind, f"{key} is a {outcome.after[key].kind}"


def test_the_corpus_has_at_least_60_cases() -> None:
    assert len(CASES) >= 60


def test_every_case_states_its_expectations() -> None:
    for name, case, _ in CASES:
        assert case.get("about"), f"{name}: say what the hostile input is"
        expect = case["expect"]
        assert isinstance(expect["exit"], int), name
        assert "--format" in case["run"], f"{name}: run with --format json"
        if expect["exit"] != 0:
            assert expect.get("diagnostics"), f"{name}: a failing case names its diagnostics"
        for want in expect.get("diagnostics", []):
            assert {"code", "pointer"} <= set(want), f"{name}: code and pointer for {want}"
