"""The pre-commit hooks, driven the way an author uses them: a commit in a git repository.

The hooks manifest (``.pre-commit-hooks.yaml``) is copied into a throw-away hooks repository
so the test uses this checkout's file as it is, offline: the ``-system`` hooks run the rlkl
of this test run instead of installing one. The ``language: python`` hooks must say the same
thing (same entry, same files), which the last test pins.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.authoring.gitenv import git_env

REPO = Path(__file__).resolve().parents[2]
CONTENT = REPO / "content"
SEED = "policy-gradient-kl-control"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")



def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _git(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    result = _run(["git", "-c", "init.defaultBranch=main", *args], cwd, env)
    assert result.returncode == 0, result.stderr
    return result


def _hooks_repo(tmp_path: Path, env: dict[str, str]) -> tuple[Path, str]:
    """A git repository holding this checkout's hooks manifest; its path and commit."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    shutil.copy(REPO / ".pre-commit-hooks.yaml", hooks / ".pre-commit-hooks.yaml")
    _git(hooks, env, "init", "-q")
    _git(hooks, env, "add", ".")
    _git(hooks, env, "commit", "-q", "-m", "hooks")
    return hooks, _git(hooks, env, "rev-parse", "HEAD").stdout.strip()


@pytest.fixture
def author_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A lessons repository with the seed lesson and pre-commit installed (rlkl-check-system)."""
    env = git_env(tmp_path)
    hooks, rev = _hooks_repo(tmp_path, env)
    lessons = tmp_path / "lessons"
    (lessons / "content").mkdir(parents=True)
    shutil.copy(CONTENT / "catalog.json", lessons / "content" / "catalog.json")
    shutil.copytree(CONTENT / SEED, lessons / "content" / SEED)
    (lessons / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {hooks.as_posix()}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: rlkl-check-system\n",
        encoding="utf-8",
    )
    _git(lessons, env, "init", "-q")
    installed = _run([sys.executable, "-m", "pre_commit", "install"], lessons, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return lessons, env


def test_a_good_commit_passes(author_repo: tuple[Path, dict[str, str]]) -> None:
    lessons, env = author_repo
    _git(lessons, env, "add", ".")
    commit = _run(["git", "commit", "-m", "seed lesson"], lessons, env)
    assert commit.returncode == 0, commit.stdout + commit.stderr
    assert "rlkl check" in commit.stdout + commit.stderr
    assert "Passed" in commit.stdout + commit.stderr


def test_a_wrong_number_blocks_the_commit_with_the_located_diagnostic(
    author_repo: tuple[Path, dict[str, str]],
) -> None:
    lessons, env = author_repo
    _git(lessons, env, "add", ".")
    _run(["git", "commit", "-q", "-m", "seed lesson"], lessons, env)
    lesson = lessons / "content" / SEED / "lesson.json"
    text = lesson.read_text(encoding="utf-8")
    assert text.count("ratio is 1.4") == 2
    lesson.write_text(text.replace("ratio is 1.4", "ratio is 1.5"), encoding="utf-8")
    _git(lessons, env, "add", ".")
    commit = _run(["git", "commit", "-m", "typo"], lessons, env)
    output = commit.stdout + commit.stderr
    assert commit.returncode != 0, output
    assert "Failed" in output
    assert f"content/{SEED}/lesson.json:" in output
    assert "/engineeringExample RLKL401" in output
    assert "1.4" in output and "1.5" in output
    head = _git(lessons, env, "log", "--format=%s").stdout.split()
    assert head == ["seed", "lesson"]  # the typo was not committed


def test_try_repo_runs_the_hooks_of_this_checkout(tmp_path: Path) -> None:
    env = git_env(tmp_path)
    hooks, _ = _hooks_repo(tmp_path, env)
    lessons = tmp_path / "lessons"
    (lessons / "content").mkdir(parents=True)
    shutil.copy(CONTENT / "catalog.json", lessons / "content" / "catalog.json")
    shutil.copytree(CONTENT / SEED, lessons / "content" / SEED)
    _git(lessons, env, "init", "-q")
    _git(lessons, env, "add", ".")
    args = [sys.executable, "-m", "pre_commit", "try-repo", str(hooks)]
    good = _run([*args, "rlkl-validate-system", "--all-files"], lessons, env)
    assert good.returncode == 0, good.stdout + good.stderr
    lesson = lessons / "content" / SEED / "lesson.json"
    text = lesson.read_text(encoding="utf-8")
    assert text.count('"answer":0') == 1
    lesson.write_text(text.replace('"answer":0', '"answer":7'), encoding="utf-8")
    _git(lessons, env, "add", ".")
    bad = _run([*args, "rlkl-validate-system", "--all-files"], lessons, env)
    assert bad.returncode != 0
    assert "/check/answer RLKL208" in bad.stdout + bad.stderr


def test_python_and_system_hooks_say_the_same() -> None:
    hooks = {h["id"]: h for h in YAML(typ="safe").load(REPO / ".pre-commit-hooks.yaml")}
    assert set(hooks) == {
        "rlkl-check",
        "rlkl-validate",
        "rlkl-check-system",
        "rlkl-validate-system",
    }
    for name in ("rlkl-check", "rlkl-validate"):
        python, system = hooks[name], hooks[f"{name}-system"]
        assert python["language"] == "python"
        assert system["language"] == "system"
        for key in ("entry", "files", "pass_filenames"):
            assert python[key] == system[key]
    # a change to the configuration, or to a module of your own functions, is checked too
    for changed in ("content/x/lesson.json", "rlkl.toml", "pyproject.toml",
                    "lesson_functions.py", "content/x/claims.yaml"):
        assert re.search(hooks["rlkl-check"]["files"], changed), changed
    assert not re.search(hooks["rlkl-check"]["files"], "notes.md")


def test_the_python_hook_installs_rlkl_from_its_repository_at_a_rev(tmp_path: Path) -> None:
    """`language: python` as an author's .pre-commit-config.yaml gets it: pre-commit clones
    rlkl's repository at a `rev:` and pip-installs it into its own environment (the
    committed state of this checkout, cloned, stands for the published repository); the
    lessons repository's rlkl.toml applies to the hook, and a wrong number blocks the commit."""
    env = git_env(tmp_path)
    published = tmp_path / "rlkl-repo"
    cloned = _run(["git", "clone", "-q", str(REPO), str(published)], tmp_path, env)
    assert cloned.returncode == 0, cloned.stderr
    rev = _git(published, env, "rev-parse", "HEAD").stdout.strip()
    lessons = tmp_path / "lessons"
    (lessons / "content").mkdir(parents=True)
    shutil.copy(CONTENT / "catalog.json", lessons / "content" / "catalog.json")
    shutil.copytree(CONTENT / SEED, lessons / "content" / SEED)
    (lessons / "rlkl.toml").write_text('ignore = ["RLKL306"]  # the other lessons live elsewhere\n',
                                       encoding="utf-8")
    (lessons / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {published.as_posix()}\n    rev: {rev}\n    hooks:\n"
        "      - id: rlkl-check\n", encoding="utf-8")
    _git(lessons, env, "init", "-q")
    installed = _run([sys.executable, "-m", "pre_commit", "install"], lessons, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    _git(lessons, env, "add", ".")
    good = _run(["git", "commit", "-m", "lessons"], lessons, env)
    assert good.returncode == 0, good.stdout + good.stderr
    hook_env = next((tmp_path / "pre-commit-home").glob("repo*/py_env-*"))
    assert (hook_env / "bin" / "rlkl").is_file()  # rlkl, installed from the repository
    lesson = lessons / "content" / SEED / "lesson.json"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("ratio is 1.4", "ratio is 1.5"),
                      encoding="utf-8")
    _git(lessons, env, "add", ".")
    bad = _run(["git", "commit", "-m", "typo"], lessons, env)
    output = bad.stdout + bad.stderr
    assert bad.returncode != 0 and "/engineeringExample RLKL401" in output, output
    assert "RLKL306" not in output  # the lessons repository's configuration applies
