"""What most users never run is an extra: ``pip install rlkl`` gives everything ``rlkl check``
needs, and ``rlkl site`` / ``rlkl experiment`` say which extra to install when it is missing.

The extras are read from the installed metadata (declared once, in ``pyproject.toml``)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl import resources
from rlkl.cli import main

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = {"site", "experiment"}


def _extra(extra: str) -> set[str]:
    """The distributions ``extra`` adds, as ``missing_extra`` sees them with none installed."""
    real = metadata.version

    def absent(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    metadata.version = absent  # type: ignore[assignment]
    try:
        return set(resources.missing_extra(extra))
    finally:
        metadata.version = real


def test_the_extras_are_installed_here_and_name_what_they_add() -> None:
    for extra in OPTIONAL:
        assert resources.missing_extra(extra) == []
    assert {"matplotlib", "tqdm"} == _extra("experiment")
    assert {"mkdocs", "mkdocs-material", "matplotlib"} <= _extra("site")  # site runs the experiment
    assert "parse" in _extra("dev") and not _extra("no-such-extra")


def test_checking_imports_nothing_of_an_extra(tmp_path: Path) -> None:
    """``rlkl check``, ``regen`` and ``claims`` on the shipped content load no module that only
    an optional extra (or the dev extra's reference-path ``parse``) installs."""
    optional = set().union(*(_extra(e) for e in OPTIONAL)) | {"parse"}
    script = (
        "import json, sys\n"
        "from importlib import metadata\n"
        "from click.testing import CliRunner\n"
        "from rlkl.cli import main\n"
        "for args in (['check', 'content'], ['regen', 'content'], ['claims', 'content']):\n"
        "    result = CliRunner().invoke(main, [*args, '--no-cache'])\n"
        "    assert result.exit_code == 0, result.output\n"
        "owners = metadata.packages_distributions()\n"
        "tops = {m.split('.')[0] for m in list(sys.modules)}\n"
        "print(json.dumps(sorted({d for top in tops for d in owners.get(top, [])})))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, check=True, env=env)
    loaded = {name.lower() for name in json.loads(run.stdout)}
    assert loaded, run.stderr
    assert not loaded & {name.lower() for name in optional}, loaded & optional


@pytest.mark.parametrize(("args", "extra"), [
    (["site", "build"], "site"),
    (["site", "serve"], "site"),
    (["experiment", "--out", "runs/x"], "experiment"),
])
def test_a_command_whose_extra_is_missing_says_what_to_install(
    args: list[str], extra: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = metadata.version

    def without_matplotlib(name: str) -> str:
        if name == "matplotlib":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", without_matplotlib)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert f"pip install 'rlkl[{extra}]'" in result.output and "matplotlib" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "runs").exists()
