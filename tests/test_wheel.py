"""The wheel is complete: built from this checkout, installed (not editable) into a fresh
virtual environment, and used in an empty repository as an author would, from `rlkl new` to a
published site, with a configuration and an ignored rule.

It installs rlkl[site] from the package registry (pip's cache makes a second run quick), so
it takes a minute or two; it is part of the normal run, because a file left out of the wheel
fails here and nowhere else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LESSON = "ppo-clipped-objective"


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None,
         timeout: int = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtual environment with the wheel of this checkout."""
    root = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                  str(root / "dist"), str(REPO)], root)
    assert built.returncode == 0, built.stderr
    (wheel,) = (root / "dist").glob("rlkl-*.whl")
    venv.create(root / "env", with_pip=True)
    bin_dir = root / "env" / ("Scripts" if os.name == "nt" else "bin")
    done = _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet",
                 "--disable-pip-version-check", f"{wheel}[site]"], root)
    assert done.returncode == 0, done.stderr
    return bin_dir


def _environment(bin_dir: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["RLKL_CACHE_DIR"] = str(home / "cache")
    env["NO_COLOR"] = "1"
    return env


def test_an_author_goes_from_an_empty_repository_to_a_published_site(
    installed: Path, tmp_path: Path
) -> None:
    repo = tmp_path / "our-lessons"
    repo.mkdir()
    env = _environment(installed, tmp_path)

    def rlkl(*args: str) -> subprocess.CompletedProcess[str]:
        return _run([str(installed / "rlkl"), *args], repo, env)

    located = _run([str(installed / "python"), "-c", "import rlkl; print(rlkl.__file__)"],
                   repo, env)
    assert str(installed.parent) in located.stdout, "rlkl is not the installed wheel's"

    made = rlkl("new", LESSON)
    assert made.returncode == 0, made.stderr
    first = rlkl("check")
    assert first.returncode == 1 and "RLKL440 placeholder" in first.stdout
    # the author writes the lesson (here: the shipped one) and its bindings, no fixtures
    for name in ("lesson.json", "claims.yaml"):
        shutil.copy(REPO / "content" / LESSON / name, repo / "content" / LESSON / name)
    catalog = json.loads((REPO / "content" / "catalog.json").read_text(encoding="utf-8"))
    for entry in catalog["lessons"]:
        entry["status"] = "published" if entry["id"] == LESSON else "planned"
    (repo / "content" / "catalog.json").write_text(json.dumps(catalog, indent=2),
                                                   encoding="utf-8")
    assert rlkl("check").returncode == 1  # no fixtures yet: RLKL501
    regen = rlkl("regen")
    assert regen.returncode == 0, regen.stdout + regen.stderr
    assert (repo / "content" / LESSON / "fixtures.json").is_file()
    assert rlkl("check").returncode == 0

    # a configuration of their own, with an ignored rule and a site title
    init = rlkl("init")
    assert init.returncode == 0, init.stderr
    config = repo / "rlkl.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        '# ignore = ["RLKL430"]', 'ignore = ["computed-number-wrong"]').replace(
        '# title = "Our verified lessons"', 'title = "Our verified lessons"'),
        encoding="utf-8")
    lesson = repo / "content" / LESSON / "lesson.json"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(" 1.2 ", " 1.3 ", 1),
                      encoding="utf-8")
    statistics = rlkl("check", "--statistics", "--isolated")
    assert statistics.returncode == 1 and "RLKL401" in statistics.stdout
    assert "RLKL401" not in rlkl("check", "--statistics").stdout
    # the ignored number is recorded as it stands (verified: false), and nothing else fails
    assert rlkl("regen").returncode == 0 and rlkl("check").returncode == 0
    fixtures = json.loads((repo / "content" / LESSON / "fixtures.json").read_text("utf-8"))
    assert [c["authored"] for c in fixtures["claims"] if not c["verified"]] == ["1.3"]

    site = rlkl("site", "build")
    assert site.returncode == 0, site.stdout + site.stderr
    page = repo / "site" / "build" / "lessons" / LESSON / "index.html"
    html = page.read_text(encoding="utf-8")
    assert "<title>" in html and "Our verified lessons" in html
    for asset in ("assets/rlkl.css", "assets/rlkl.js"):
        assert (repo / "site" / "build" / asset).is_file()
    for reference in ("cli", "configuration", "rules", "schema"):
        assert (repo / "site" / "build" / "reference" / reference / "index.html").is_file()
    assert "https://cdn" not in html and "fonts.googleapis" not in html
