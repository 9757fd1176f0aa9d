"""The environment the authoring tests run git and pre-commit in: isolated from the user's."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def git_env(tmp_path: Path) -> dict[str, str]:
    """This venv's tools first on PATH; pre-commit's cache, git's global config and the
    author identity all local to ``tmp_path``; no colour, no pager."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    env["NO_COLOR"] = "1"
    env["GIT_AUTHOR_NAME"] = env["GIT_COMMITTER_NAME"] = "rlkl-author"
    env["GIT_AUTHOR_EMAIL"] = env["GIT_COMMITTER_EMAIL"] = "author@rlkl.invalid"
    env["GIT_CONFIG_GLOBAL"] = str(tmp_path / "gitconfig")
    env["GIT_PAGER"] = "cat"
    return env
