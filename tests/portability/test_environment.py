"""The rest of portability: line endings, encodings, locales, a read-only tree, a cache folder
that is missing or unwritable, the working folder, and paths with spaces and non-ASCII
characters. Each gives the verdict of a plain run, or one clear located diagnostic; never a
traceback. The CLI runs in a subprocess, as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.harness import unprivileged
from tests.portability.shipped import CONTENT

SEED = "policy-gradient-kl-control"
DPO = "direct-preference-objective"  # several lines, and inputs computed through exp
WRONG = ("ratio is 1.4", "ratio is 1.5")  # one planted error, so a verdict has a location


def _corpus(parent: Path, name: str = "content") -> Path:
    root = parent / name
    root.mkdir(parents=True)
    shutil.copy(CONTENT / "catalog.json", root)
    for lesson in (SEED, DPO):
        shutil.copytree(CONTENT / lesson, root / lesson)
    lesson = root / SEED / "lesson.json"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(*WRONG, 1), encoding="utf-8")
    return root


def _env(tmp_path: Path, **changes: str | None) -> dict[str, str]:
    env = {**os.environ, "RLKL_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _rlkl(env: dict[str, str], *args: str, cwd: Path | None = None,
          prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [*(prefix or []), sys.executable, "-m", "rlkl", *args]
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, timeout=300)
    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err, out + err
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


def _verdict(run: subprocess.CompletedProcess[str]) -> tuple[int, Any, list[Any]]:
    """Exit code, summary, and each diagnostic's code, lesson (or catalog), pointer and
    position."""
    report = json.loads(run.stdout)
    found = sorted((d["code"], _owner(d["file"]), d["pointer"], d["line"], d["column"])
                   for d in report["diagnostics"])
    return run.returncode, report["summary"], found


def _owner(file: str) -> str:
    path = Path(file)
    return path.name if path.name == "catalog.json" else path.parent.name


def _check(env: dict[str, str], root: str, cwd: Path | None = None,
           prefix: list[str] | None = None) -> tuple[int, Any, list[Any]]:
    return _verdict(_rlkl(env, "check", root, "--format", "json", cwd=cwd, prefix=prefix))


@pytest.fixture
def plain(tmp_path: Path) -> tuple[int, Any, list[Any]]:
    """The verdict of a plain run: one RLKL401, warnings for the lessons not copied."""
    verdict = _check(_env(tmp_path), str(_corpus(tmp_path / "plain")))
    code, summary, found = verdict
    assert code == 1 and summary["errors"] == 1 and summary["claims"] > 50
    [error] = [f for f in found if f[0] == "RLKL401"]
    assert error[1:4] == (SEED, "/engineeringExample", 1)
    return verdict


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_crlf_files_get_the_same_verdict_and_keep_their_line_endings(
    tmp_path: Path, plain: tuple[int, Any, list[Any]]
) -> None:
    root = _corpus(tmp_path / "crlf")
    for path in [*root.glob("*.json"), *root.glob("*/*.json"), *root.glob("*/*.yaml")]:
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    env = _env(tmp_path)
    assert _check(env, str(root)) == plain
    before = _snapshot(root)
    fixed = _rlkl(env, "regen", "--fix", str(root))
    assert "fixed 1 number" in fixed.stderr, fixed.stderr
    after = _snapshot(root)
    changed = [name for name in before if before[name] != after[name]]
    assert changed == [f"{SEED}/lesson.json"]  # the fixtures were current, CRLF and all
    lesson = f"{SEED}/lesson.json"
    assert after[lesson] == before[lesson].replace(b"ratio is 1.5", b"ratio is 1.4", 1)
    assert b"\r\n" in after[f"{DPO}/lesson.json"]
    code, summary, _ = _check(env, str(root))
    assert (code, summary["errors"]) == (0, 0)


def test_a_byte_order_mark_in_claims_yaml_is_one_located_error(tmp_path: Path) -> None:
    root = _corpus(tmp_path / "bom")
    bindings = root / DPO / "claims.yaml"
    bindings.write_bytes(b"\xef\xbb\xbf" + bindings.read_bytes())
    code, _, found = _check(_env(tmp_path), str(root))
    assert code == 1
    assert [f for f in found if f[1] == DPO] == [
        ("RLKL601", DPO, "", 1, 1)]


@pytest.mark.parametrize("utf8", ["coerced", "ascii"])
def test_the_c_locale_gives_the_same_verdict(
    tmp_path: Path, plain: tuple[int, Any, list[Any]], utf8: str
) -> None:
    """``LC_ALL=C``: Python coerces it to UTF-8 by default; with coercion and UTF-8 mode off
    the streams are ASCII, and non-ASCII text (−, ‖, a path) must still not end the run."""
    extra = {"LC_ALL": "C", "LANG": "C"}
    if utf8 == "ascii":
        extra |= {"PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env = _env(tmp_path, **extra)
    root = _corpus(tmp_path / "locale")
    assert _check(env, str(root)) == plain
    text = _rlkl(env, "check", str(root))
    assert text.returncode == 1 and "RLKL401" in text.stdout
    listing = _rlkl(env, "claims", str(root / DPO))
    assert listing.returncode == 0
    assert "π" in listing.stdout or "\\u03c0" in listing.stdout  # UTF-8, or escaped on ASCII


def test_check_of_a_read_only_tree(tmp_path: Path, plain: tuple[int, Any, list[Any]]) -> None:
    prefix = unprivileged()
    if prefix is None:
        pytest.fail("needs setpriv to drop root's file-permission override")
    root = _corpus(tmp_path / "readonly")
    shutil.copytree(root, tmp_path / "pristine")
    cache = tmp_path / "user-cache"
    cache.mkdir()
    for path in [root, *root.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        env = _env(tmp_path, RLKL_CACHE_DIR=str(cache))
        assert _check(env, str(root), prefix=prefix) == plain
        assert _check(env, str(root), prefix=prefix) == plain  # answered by the cache
        assert any(cache.rglob("*.json"))
        # and a cache folder it cannot write either: slower, the same verdict
        cache.chmod(0o555)
        assert _check(env, str(root), prefix=prefix) == plain
    finally:
        for path in [root, *root.rglob("*"), cache]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    assert _snapshot(root) == _snapshot(tmp_path / "pristine")


@pytest.mark.parametrize("where", ["no-home", "xdg-is-a-file", "cache-dir-is-a-file",
                                   "xdg-relative"])
def test_a_missing_or_unusable_cache_folder_changes_nothing(
    tmp_path: Path, plain: tuple[int, Any, list[Any]], where: str
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n", encoding="utf-8")
    env = {
        "no-home": _env(tmp_path, RLKL_CACHE_DIR=None, XDG_CACHE_HOME=None, HOME=None),
        "xdg-is-a-file": _env(tmp_path, RLKL_CACHE_DIR=None, XDG_CACHE_HOME=str(a_file)),
        "cache-dir-is-a-file": _env(tmp_path, RLKL_CACHE_DIR=str(a_file)),
        "xdg-relative": _env(tmp_path, RLKL_CACHE_DIR=None, XDG_CACHE_HOME="relative",
                             HOME=str(tmp_path / "home")),
    }[where]
    root = _corpus(tmp_path / where)
    for _ in range(2):  # the second run would read what the first cached
        assert _check(env, str(root), cwd=tmp_path) == plain
    assert a_file.read_text(encoding="utf-8") == "not a folder\n"
    assert not (tmp_path / "relative").exists()  # XDG asks for an absolute path


def test_the_working_folder_does_not_change_the_verdict(
    tmp_path: Path, plain: tuple[int, Any, list[Any]]
) -> None:
    root = _corpus(tmp_path / "repo")
    env = _env(tmp_path)
    assert _check(env, str(root), cwd=Path("/")) == plain
    assert _check(env, ".", cwd=root) == plain
    assert _check(env, "..", cwd=root / DPO) == plain
    # a lesson's own folder as ".": the folder name is the lesson's, not ""
    code, summary, found = _check(env, ".", cwd=root / DPO)
    assert [f for f in found if f[0].startswith("RLKL3")] == []
    assert code == 0 and summary["lessons"] == 1 and summary["errors"] == 0
    # no path and no ./content/ here: one usage error naming what it looked for
    lost = _rlkl(env, "check", cwd=root / DPO)
    assert lost.returncode == 2 and "content/ does not exist" in lost.stderr


@pytest.mark.parametrize("utf8", ["utf-8", "ascii"])
def test_paths_with_spaces_and_non_ascii_characters(
    tmp_path: Path, plain: tuple[int, Any, list[Any]], utf8: str
) -> None:
    extra = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"} if utf8 == "ascii" \
        else {}
    env = _env(tmp_path, RLKL_CACHE_DIR=str(tmp_path / "cäche dir"), **extra)
    root = _corpus(tmp_path / "a folder with spaces" / "lëçons ü", "cöntent dir")
    for _ in range(2):  # the second run from the cache, which keys and stores these paths
        assert _check(env, str(root)) == plain
    assert any((tmp_path / "cäche dir").rglob("*.json"))
    fixed = _rlkl(env, "regen", "--fix", str(root))
    assert fixed.returncode == 0 and "fixed 1 number" in fixed.stderr, fixed.stderr
    assert _check(env, str(root))[1]["errors"] == 0
