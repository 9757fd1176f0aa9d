"""``regen`` with the check cache does what ``regen`` without it does, file for file.

A lesson regen has nothing to do for (:func:`rlkl.regen.nothing_to_do`) is left unread;
every other lesson is worked on. Each case below is set up twice: one copy is regenerated
without the cache, the other after a cached ``rlkl check`` (with the case's edit made before
it, after it, or not at all); the files, the report and the output must be the same.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rlkl import regen
from rlkl.cache import Cache
from rlkl.check import check_paths
from rlkl.cli import main
from rlkl.regen import RegenReport, regen_paths
from rlkl.render import render
from tests.claims.helpers import CONTENT, SEED, Workspace
from tests.claims.test_one_verdict import CASES

Build = Callable[[Path], list[Path]]  # lays out a corpus under a folder; the paths to regen
Change = Callable[[Path], None]  # the case's edit, in the corpus under that folder


def _seed(root: Path) -> list[Path]:
    return [Workspace.copy(root).root / SEED]


def _wrong_number(name: str = "lesson.json") -> Change:
    """The seed lesson file ``name`` says a ratio of 1.5 where the core computes 1.4."""
    def change(root: Path) -> None:
        Workspace(root / "content").edit("ratio is 1.4", "ratio is 1.5", name=name)

    return change


def _case(name: str) -> Change:
    return lambda root: CASES[name][0](root / "content" / SEED)


def _outside(root: Path) -> list[Path]:
    """The seed lesson's folder is a symlink out of the corpus (RLKL902)."""
    space = Workspace.copy(root)
    outside = root / "outside" / "x"
    shutil.copytree(space.root / SEED, outside)
    shutil.rmtree(space.root / SEED)
    (space.root / SEED).symlink_to(outside, target_is_directory=True)
    return [space.root / SEED]


def _second_file(root: Path) -> list[Path]:
    """A second lesson file beside ``lesson.json`` (RLKL512: the fixtures are not its own)."""
    space = Workspace.copy(root)
    shutil.copy(space.path(), space.path(name="lesson-copy.json"))
    return [space.path(), space.path(name="lesson-copy.json")]


def _named(root: Path) -> list[Path]:
    """The lesson file named for its id, not ``lesson.json``."""
    space = Workspace.copy(root)
    space.path().rename(space.path(name=f"{SEED}.json"))
    return [space.path(name=f"{SEED}.json")]


def _unfound_template(root: Path) -> None:
    """Bindings with a template the lesson does not have (RLKL607), fixtures current:
    ``--fix`` reports that it leaves the lesson alone."""
    Workspace(root / "content").edit(
        "claims:\n", 'claims:\n  - id: nowhere\n    in: /engineeringExample\n'
        '    says: "from {y} a ratio of {x} nowhere"\n    where:\n      x: y + 1\n\n',
        name="claims.yaml")


def _corpus(root: Path) -> list[Path]:
    """Every shipped lesson."""
    shutil.copytree(CONTENT, root / "content")
    return [root / "content"]


SETUPS: dict[str, tuple[Build, Change]] = {
    **{name: (_seed, _case(name)) for name in CASES},
    "outside-the-corpus": (_outside, _wrong_number()),
    "second-lesson-file": (_second_file, _wrong_number("lesson-copy.json")),
    "named-for-its-id": (_named, _wrong_number(f"{SEED}.json")),
    "template-not-found": (_seed, _unfound_template),
    "corpus-one-wrong": (_corpus, _wrong_number()),
}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def _report(report: RegenReport, root: Path) -> dict[str, Any]:
    def names(paths: list[Path]) -> list[str]:
        return sorted(p.relative_to(root).as_posix() for p in paths)

    return {
        "updated": names(report.updated), "unchanged": names(report.unchanged),
        "removed": names(report.removed),
        "fixed": {k.relative_to(root).as_posix(): v for k, v in report.fixed.items()},
        "not_fixed": {k.relative_to(root).as_posix(): v for k, v in report.not_fixed.items()},
    }


def _regen(root: Path, paths: list[Path], fix: bool, cache: Cache | None) -> dict[str, Any]:
    report, result = regen_paths(paths, fix=fix, cache=cache)
    output = render(result.diagnostics, result.summary(), "json")
    return {"report": _report(report, root), "files": _files(root),
            "output": output.replace(str(root), "ROOT")}  # messages may name absolute paths


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """The lessons regen worked on (each call of :func:`rlkl.regen.regen_lesson`)."""
    seen: list[Path] = []
    real = regen.regen_lesson

    def counted(file: Any, **options: Any) -> Any:
        seen.append(file.path)
        return real(file, **options)

    monkeypatch.setattr(regen, "regen_lesson", counted)
    yield seen


@pytest.mark.parametrize("when", ["never", "before", "after"])
@pytest.mark.parametrize("fix", [False, True], ids=["regen", "fix"])
@pytest.mark.parametrize("name", sorted(SETUPS))
def test_regen_after_a_cached_check_does_what_regen_without_the_cache_does(
    name: str, fix: bool, when: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case's edit is not made, made before the cached check, or after it (so the cache
    has an entry for the files as they were); then regen runs twice (the second reads what
    the first cached)."""
    build, change = SETUPS[name]
    runs = []
    for side, cached in (("plain", False), ("cached", True)):
        root = tmp_path / side
        root.mkdir()
        monkeypatch.chdir(root)  # the same displayed paths on both sides
        paths = build(root)
        cache = Cache(tmp_path / "cache") if cached else None
        if when == "before":
            change(root)
        if cache is not None:
            check_paths(paths, cache=cache)
        if when == "after":
            change(root)
        runs.append([_regen(root, paths, fix, cache) for _ in range(2)])
    assert runs[0] == runs[1]


def test_an_unchanged_verified_lesson_is_not_worked_on_again(
    tmp_path: Path, calls: list[Path]
) -> None:
    space = Workspace.copy(tmp_path)
    cache, folder = Cache(tmp_path / "cache"), [space.root / SEED]
    check_paths(folder, cache=cache)
    report, result = regen_paths(folder, cache=cache)
    assert calls == [] and report.unchanged == [space.path(name="fixtures.json")]
    assert result.summary()["errors"] == 0 and result.summary()["verified"] > 0
    regen_paths(folder)
    assert calls == [space.path()]


def test_a_check_that_passes_with_fixtures_regen_would_rewrite_is_no_reason_to_skip(
    tmp_path: Path, calls: list[Path]
) -> None:
    """An ASCII minus for the quiz key's −2.8 passes the check (no diagnostic), but the
    fixtures record the old glyph, so regen still rewrites them."""
    space = Workspace.copy(tmp_path)
    CASES["ascii-minus-in-quiz-key"][0](space.root / SEED)
    cache, folder = Cache(tmp_path / "cache"), [space.root / SEED]
    assert check_paths(folder, cache=cache).diagnostics == []
    report, _ = regen_paths(folder, cache=cache)
    assert calls == [space.path()] and report.updated == [space.path(name="fixtures.json")]


def test_regen_caches_a_lesson_it_leaves_as_it_was_and_never_what_it_wrote(
    tmp_path: Path,
) -> None:
    space = Workspace.copy(tmp_path)
    cache, folder = Cache(tmp_path / "cache"), [space.root / SEED]

    def checked() -> tuple[str, bool]:
        """The cached check's output (always the uncached one's) and whether the cache
        answered it."""
        result, plain = check_paths(folder, cache=cache), check_paths(folder)
        output = render(result.diagnostics, result.summary(), "json")
        assert output == render(plain.diagnostics, plain.summary(), "json")
        return output, result.cached == len(result.reports) > 0

    regen_paths(folder, cache=cache)  # nothing to write: what it found is cached
    assert checked() == (checked()[0], True)
    drift = CASES["drifted-value"][0]
    drift(space.root / SEED)
    report, _ = regen_paths(folder, cache=cache)
    assert report.updated == [space.path(name="fixtures.json")]
    drift(space.root / SEED)  # the fixtures regen found, again: their drift is reported
    assert '"errors": 0' not in checked()[0]
    regen_paths(folder, cache=cache)
    assert '"errors": 0' in checked()[0]


def test_the_command_uses_the_cache_of_check_unless_told_not_to(
    tmp_path: Path, calls: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    space = Workspace.copy(tmp_path)
    monkeypatch.setenv("RLKL_CACHE_DIR", str(tmp_path / "cache"))
    folder = str(space.root / SEED)
    runner = CliRunner()
    assert runner.invoke(main, ["check", folder]).exit_code == 0
    warm = runner.invoke(main, ["regen", folder])
    assert warm.exit_code == 0 and "0 updated, 1 unchanged, 0 removed" in warm.output
    assert calls == []
    cold = runner.invoke(main, ["regen", "--no-cache", folder])
    assert cold.exit_code == 0 and calls == [space.path()]
    assert cold.output == warm.output
