"""What the configuration tests share: the CLI run in-process, and an author's repository
holding the seed lesson alone."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rlkl.cli import main
from tests.claims.helpers import SEED, Workspace


def run(*args: str) -> tuple[int, str, str]:
    """``rlkl ARGS`` in this process, in the working folder: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def seed_alone(tmp_path: Path) -> Workspace:
    """``tmp_path/content`` with the seed lesson; the catalog's other lessons are planned
    (they are not in this repository), so a check reports only the seed."""
    space = Workspace.copy(tmp_path)
    catalog = json.loads((space.root / "catalog.json").read_text(encoding="utf-8"))
    for entry in catalog["lessons"]:
        entry["status"] = "published" if entry["id"] == SEED else "planned"
    (space.root / "catalog.json").write_text(json.dumps(catalog), encoding="utf-8")
    return space
