"""A run checks every lesson it finds, and regen writes only what it owns.

Issue 8's first two defects: a stage that raised on one lesson silently ended the loop over
the corpus (a false pass on every later lesson), and regen's stale-fixture sweep deleted
``fixtures.json`` files in hidden and unrelated folders, or followed a symlinked lesson
folder out of the corpus.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl import check as pipeline
from rlkl import regen
from rlkl.cache import Cache
from rlkl.check import check_paths
from rlkl.cli import main
from rlkl.regen import regen_paths
from tests.claims.helpers import CONTENT, SEED, Workspace

LATER = "reinforce-baseline-kl"  # sorts after the seed lesson
UNIT_ONLY = '  - {id: unit-only, in: /engineeringExample, says: "{u:unit}", holds: ["u > 1"]}\n'


def _corpus(tmp_path: Path) -> Workspace:
    return Workspace.copy(tmp_path, SEED, LATER)


def _add_unit_only_claim(space: Workspace) -> None:
    path = space.path(name="claims.yaml")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\nclaims:\n", "\nclaims:\n" + UNIT_ONLY, 1), encoding="utf-8")


def _run(*args: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def test_a_template_of_only_unit_slots_does_not_end_the_run(tmp_path: Path) -> None:
    space = _corpus(tmp_path)
    _add_unit_only_claim(space)
    space.edit("0.024989", "0.999999", lesson=LATER)
    code, payload = _run("check", str(space.root))
    diagnostics = payload["diagnostics"]
    summary = payload["summary"]
    assert code == 1
    assert isinstance(diagnostics, list) and isinstance(summary, dict)
    later = [d for d in diagnostics if LATER in d["file"] and d["code"] == "RLKL401"]
    assert later, "the broken number in the later lesson must be reported"
    assert summary["lessons"] == summary["finished"] == 2
    # the authored template itself is reported where it is written
    assert any(d["code"] == "RLKL614" and d["file"].endswith("claims.yaml") for d in diagnostics)


def test_regen_processes_every_lesson_after_a_bad_template(tmp_path: Path) -> None:
    space = _corpus(tmp_path)
    _add_unit_only_claim(space)
    fixture = space.path(LATER, "fixtures.json")
    fixture.write_text(fixture.read_text(encoding="utf-8").replace("0.024989", "0.5"), "utf-8")
    report, _ = regen_paths([space.root])
    assert fixture in report.updated


def test_a_stage_that_raises_is_a_located_error_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = _corpus(tmp_path)
    real = pipeline.extract

    def explode_on_seed(document, bindings, **kwargs):  # type: ignore[no-untyped-def]
        if SEED in str(document.path):
            raise StopIteration  # the very exception that used to end map() silently
        return real(document, bindings, **kwargs)

    monkeypatch.setattr(pipeline, "extract", explode_on_seed)
    space.edit("0.024989", "0.999999", lesson=LATER)
    result = check_paths([space.root])
    internal = [d for d in result.diagnostics if d.code == "RLKL901"]
    assert len(internal) == 1 and SEED in internal[0].file
    assert "StopIteration" in internal[0].message
    assert any(d.code == "RLKL401" and LATER in d.file for d in result.diagnostics)
    summary = result.summary()
    assert summary["lessons"] == 2 and summary["finished"] == 1 and summary["errors"] >= 2


def test_regen_never_deletes_fixtures_it_does_not_own(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(CONTENT, project / "content")
    strays = [
        project / ".venv" / "lib" / "pkg" / "tests" / "fixtures.json",
        project / "data" / "fixtures.json",
        project / "content" / "ghost-lesson" / "fixtures.json",
    ]
    for stray in strays:
        stray.parent.mkdir(parents=True)
        stray.write_text('{"keep": true}\n', encoding="utf-8")
    report, _ = regen_paths([project])
    assert report.removed == []
    for stray in strays:
        assert stray.read_text(encoding="utf-8") == '{"keep": true}\n'


def test_regen_does_not_follow_a_symlinked_lesson_folder_out_of_the_corpus(
    tmp_path: Path,
) -> None:
    space = Workspace.copy(tmp_path)
    outside = tmp_path / "outside" / "x"
    shutil.copytree(space.root / SEED, outside)
    (outside / "fixtures.json").unlink()
    sub = outside / "sub"
    sub.mkdir()
    (sub / "fixtures.json").write_text('{"keep": true}\n', encoding="utf-8")
    link = space.root / "x"
    link.symlink_to(outside, target_is_directory=True)
    before = sorted(p.relative_to(outside) for p in outside.rglob("*"))
    report, result = regen_paths([link])
    assert report.updated == [] and report.removed == []
    assert sorted(p.relative_to(outside) for p in outside.rglob("*")) == before
    assert (sub / "fixtures.json").read_text(encoding="utf-8") == '{"keep": true}\n'
    assert any(d.code == "RLKL902" for d in result.diagnostics)


def test_regen_never_writes_a_folders_fixtures_for_its_second_lesson_file(
    tmp_path: Path,
) -> None:
    """``fixtures.json`` belongs to the folder's ``lesson.json``, valid or not just now: a
    second lesson file beside it is refused (RLKL512) even while ``lesson.json`` is broken,
    never written over the first lesson's fixtures."""
    space = Workspace.copy(tmp_path)
    folder = space.root / SEED
    fixtures_before = (folder / "fixtures.json").read_bytes()
    copy = folder / "copy.json"
    copy.write_text(space.read().replace("ratio is 1.4. With", "ratio is 1.5. With"),
                    encoding="utf-8")
    space.edit('"id"', '"id": 1, "oops"')  # lesson.json: no longer a valid lesson
    _, result = regen_paths([folder / "lesson.json", copy])
    assert (folder / "fixtures.json").read_bytes() == fixtures_before
    [refused] = [d for d in result.diagnostics if d.code == "RLKL512"]
    assert refused.file.endswith(f"{SEED}/copy.json")


@pytest.mark.parametrize("stage", ["compare_fixtures", "write_checked"])
def test_a_regen_stage_that_raises_is_a_located_error_and_the_run_goes_on(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the claims (fixtures compared, written), too: the lesson is unfinished (RLKL901),
    never cached, and every other lesson is regenerated."""
    space = _corpus(tmp_path)
    real = getattr(regen, stage)

    def explode_on_seed(first, *args):  # type: ignore[no-untyped-def]
        path = first.file.path if hasattr(first, "file") else first  # a run, or a path
        if SEED in str(path):
            raise ValueError("boom")
        return real(first, *args)

    monkeypatch.setattr(regen, stage, explode_on_seed)
    for name in (SEED, LATER):  # both fixtures need writing
        space.path(name, "fixtures.json").write_text('{"claims": []}\n', encoding="utf-8")
    cache = Cache(tmp_path / "cache")
    report, result = regen_paths([space.root], cache=cache)
    internal = [d for d in result.diagnostics if d.code == "RLKL901"]
    assert len(internal) == 1 and SEED in internal[0].file and "boom" in internal[0].message
    assert report.updated == [space.path(LATER, "fixtures.json")]
    assert result.summary()["finished"] == 1
    monkeypatch.undo()
    assert check_paths([space.root / SEED], cache=cache).cached == 0  # not answered by it


def test_in_corpus_is_owns_of_the_lesson_and_its_fixtures(tmp_path: Path) -> None:
    """For every kind of folder, lesson file and fixtures file (a file, missing, a symlink
    inside or out of the corpus, dangling, in a loop)."""
    root, away = tmp_path / "corpus", tmp_path / "away"
    root.mkdir()
    away.mkdir()
    kinds = ["file", "missing", "link-in", "link-out", "dangling", "loop"]
    for index, (folder_kind, lesson_kind, fixtures_kind) in enumerate(
        itertools.product(["dir", "link-in", "link-out"], kinds[:1] + kinds[2:], kinds)
    ):
        real = (away if folder_kind == "link-out" else root) / f"real-{index}"
        real.mkdir(parents=True)
        folder = root / f"lesson-{index}"
        if folder_kind == "dir":
            folder = real
        else:
            folder.symlink_to(real, target_is_directory=True)
        for name, kind in (("lesson.json", lesson_kind), ("fixtures.json", fixtures_kind)):
            path, target = real / name, {"link-in": root, "link-out": away}.get(kind)
            if kind == "file":
                path.write_text("{}", encoding="utf-8")
            elif target is not None:
                (target / f"{index}-{name}").write_text("{}", encoding="utf-8")
                path.symlink_to(target / f"{index}-{name}")
            elif kind == "dangling":
                path.symlink_to(root / "nothing-here")
            elif kind == "loop":
                path.symlink_to(path)
        lesson = folder / "lesson.json"
        both = regen.owns(root, lesson) and regen.owns(root, folder / "fixtures.json")
        assert regen.in_corpus(lesson, root) == both, (folder_kind, lesson_kind, fixtures_kind)


def test_regen_refuses_a_fixtures_symlink_loop_with_a_located_error(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    fixture = space.path(name="fixtures.json")
    fixture.unlink()
    fixture.symlink_to(fixture)
    for fix in ([], ["--fix"]):
        done = CliRunner().invoke(main, ["regen", *fix, "--no-cache", str(space.root / SEED)])
        assert done.exit_code == 1 and isinstance(done.exception, SystemExit), done.output
        assert "RLKL902" in done.output and "in a loop" in done.output
        assert fixture.is_symlink() and os.readlink(fixture) == str(fixture)


def test_regen_never_writes_a_lessons_fixtures_through_anothers_symlink(tmp_path: Path) -> None:
    """A ``fixtures.json`` that is a symlink to another lesson's: that lesson owns the file,
    the linking one is refused (RLKL512), and the file is not overwritten back and forth."""
    space = _corpus(tmp_path)
    owner, link = space.path(name="fixtures.json"), space.path(LATER, "fixtures.json")
    before = owner.read_bytes()
    link.unlink()
    link.symlink_to(owner)
    for _ in range(2):
        report, result = regen_paths([space.root])
        [refused] = [d for d in result.diagnostics if d.code == "RLKL512"]
        assert LATER in refused.file and "symlink" in refused.message
        assert owner.read_bytes() == before and link.is_symlink() and report.updated == []
