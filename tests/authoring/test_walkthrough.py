"""The README's first-lesson walkthrough, followed literally in a temporary folder.

Every fenced block after a ``<!-- walkthrough: ... -->`` marker is a step: ``run`` blocks are
run line by line with bash (``exits N``: the last line must exit N), ``write PATH`` blocks
become that file, and ``expect PATH`` blocks must equal that file at that point. So the
walkthrough cannot drift from what rlkl does.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from rlkl.cache_dir import cache_root
from rlkl.claims.prose import fields
from tests.authoring.gitenv import git_env

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
_STEP = re.compile(r"<!-- walkthrough: ([^>]*?) -->\n```(\w+)\n(.*?)```", re.DOTALL)

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("bash") is None, reason="needs git and bash"
)


def _steps() -> list[tuple[str, str, str]]:
    return [(m.group(1).strip(), m.group(2), m.group(3)) for m in _STEP.finditer(README)]



def test_the_walkthrough_runs_as_written(tmp_path: Path) -> None:
    steps = _steps()
    kinds = [kind.split()[0].rstrip(",") for kind, _, _ in steps]
    assert kinds.count("run") >= 8 and kinds.count("write") >= 3 and "expect" in kinds
    folder = tmp_path / "lessons"
    folder.mkdir()
    env = git_env(tmp_path)
    (tmp_path / "gitconfig").write_text("[init]\n\tdefaultBranch = main\n", encoding="utf-8")
    transcript = []
    for kind, _, body in steps:
        if kind.startswith("write "):
            target = folder / kind.split(" ", 1)[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
            continue
        if kind.startswith("expect "):
            shown = (folder / kind.split(" ", 1)[1]).read_text(encoding="utf-8")
            assert shown == body, f"the README shows {body!r}, rlkl wrote {shown!r}"
            continue
        if not kind.startswith("run"):
            continue
        expected = int(kind.split("exits", 1)[1]) if "exits" in kind else 0
        lines = [line for line in body.splitlines() if line.strip()]
        for number, line in enumerate(lines, start=1):
            done = subprocess.run(
                ["bash", "-c", line], cwd=folder, env=env, capture_output=True, text=True,
                timeout=300,
            )
            transcript.append(f"$ {line}\n{done.stdout}{done.stderr}")
            want = expected if number == len(lines) else 0
            assert done.returncode == want, "\n".join(transcript)
    log = "\n".join(transcript)
    # What the README promises along the way.
    assert "RLKL440" in log and "placeholder: write" in log
    assert "RLKL501" in log
    assert "ppo_ratio_from_probs(0.7, 0.5)" in log and "not 1.2" in log
    assert "fixed 1 number" in log
    assert "-With old probability 0.5 and current probability 0.7, the ratio is 1.2" not in log
    assert "the ratio is 1.4" in log  # the reviewed diff
    assert "RLKL401" in log and "not 1.5" in log  # the blocked commit
    history = subprocess.run(
        ["git", "log", "--format=%s"], cwd=folder, env=env, capture_output=True, text=True
    ).stdout.split("\n")
    assert history[:2] == ["Current probability 0.7", "First lesson: the PPO ratio"]
    clean = subprocess.run(["rlkl", "check"], cwd=folder, env=env, capture_output=True, text=True)
    assert clean.returncode == 0, clean.stdout
    assert "1 exempt" in clean.stdout


def test_the_prose_field_list_is_the_one_rlkl_uses() -> None:
    listed = README.split("<!-- prose-fields:start -->", 1)[1].split("<!-- prose-fields:end", 1)[0]
    assert " ".join(listed.split()) == fields.described() + "."


def test_the_github_actions_job_runs_check_with_annotations() -> None:
    [(_, _, body)] = [s for s in _steps() if s[0] == "github-actions"]
    job = YAML(typ="safe").load(body)
    runs = [step.get("run", "") for step in job["jobs"]["rlkl"]["steps"]]
    assert any(run.startswith("rlkl check --format github") for run in runs)


def test_the_github_actions_job_keeps_the_folder_rlkl_caches_in(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The runner sets neither variable: the cache step's path is rlkl's default folder."""
    [(_, _, body)] = [s for s in _steps() if s[0] == "github-actions"]
    steps = YAML(typ="safe").load(body)["jobs"]["rlkl"]["steps"]
    [cached] = [step["with"]["path"] for step in steps if "cache" in step.get("uses", "")]
    for name in ("RLKL_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_root() == Path(cached).expanduser() == tmp_path / ".cache" / "rlkl"


def test_the_vscode_settings_name_the_shipped_schemas() -> None:
    [(_, _, body)] = [s for s in _steps() if s[0] == "vscode-settings"]
    settings = json.loads(body)
    urls = [entry["url"] for entry in settings["json.schemas"]] + list(settings["yaml.schemas"])
    for url in urls:
        assert (REPO / url).is_file(), url
