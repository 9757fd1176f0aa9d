"""A site from any repository: `rlkl site build` in a folder that holds only content/ (the
built-in configuration), and an author's own mkdocs.yml with `plugins: [rlkl]`. The site's
stylesheet and script come from the package, so neither needs a copy of rlkl's site/."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.site.helpers import CONTENT

LESSON = "ppo-clipped-objective"


def _repository(tmp_path: Path) -> Path:
    root = tmp_path / "author repo"
    (root / "content").mkdir(parents=True)
    shutil.copy(CONTENT / "catalog.json", root / "content")
    shutil.copytree(CONTENT / LESSON, root / "content" / LESSON)
    return root


def _rlkl(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rlkl", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def _uses_the_packaged_assets(page: Path, site: Path) -> None:
    html = page.read_text(encoding="utf-8")
    for asset in ("assets/rlkl.css", "assets/rlkl.js"):
        assert asset in html, asset
        shipped = Path(__file__).resolve().parents[2] / "rlkl" / "site" / asset
        assert (site / asset).read_bytes() == shipped.read_bytes()


def test_a_repository_with_only_content_gets_the_built_in_site(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    built = _rlkl(root, "site", "build")
    assert built.returncode == 0, built.stdout + built.stderr
    site = root / "site" / "build"
    page = site / "lessons" / LESSON / "index.html"
    assert page.is_file() and (site / "index.html").is_file() and (site / "report").is_dir()
    _uses_the_packaged_assets(page, site)
    assert page.read_text(encoding="utf-8").count('class="rlkl-num') > 20  # marked numbers
    # no content/ here: one usage error, not a traceback
    lost = _rlkl(tmp_path, "site", "build")
    assert lost.returncode == 2 and "no ./content/" in lost.stderr, lost.stderr


def test_an_authors_own_mkdocs_yml_with_the_plugin(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Our lessons\n\nWelcome.\n", encoding="utf-8")
    (root / "docs" / "about.md").write_text("# About us\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: Our verified lessons\n"
        "theme:\n  name: material\n  font: false\n  palette:\n    primary: teal\n"
        "plugins:\n  - search\n  - rlkl:\n      content: content\n      experiment: false\n"
        "nav:\n  - Home: index.md\n  - Lessons: lessons/index.md\n  - About: about.md\n",
        encoding="utf-8")
    built = _rlkl(root, "site", "build", "--config", "mkdocs.yml", "--out", "public")
    assert built.returncode == 0, built.stdout + built.stderr
    site = root / "public"
    assert "Our lessons" in (site / "index.html").read_text(encoding="utf-8")
    assert (site / "about" / "index.html").is_file()
    page = site / "lessons" / LESSON / "index.html"
    _uses_the_packaged_assets(page, site)
    assert re.search(r'data-md-color-primary="?teal', page.read_text(encoding="utf-8"))


def test_the_built_in_site_reads_the_content_folder_the_configuration_names(
    tmp_path: Path,
) -> None:
    """Without a `content` option the plugin takes the project's first content folder (else
    ./content): plain `mkdocs build` of the packaged configuration works too, as `rlkl site
    serve` uses it."""
    root = _repository(tmp_path)
    (root / "content").rename(root / "lessons")
    (root / "rlkl.toml").write_text('content = ["lessons"]\n[site]\ntitle = "Ours"\n',
                                    encoding="utf-8")
    from rlkl.site.build import BUILT_IN

    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(BUILT_IN),
                            "-d", str(root / "out")], cwd=root, capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stderr
    assert (root / "out" / "lessons" / LESSON / "index.html").is_file()
    rlkl = _rlkl(root, "site", "build")  # the CLI also takes the title
    assert rlkl.returncode == 0, rlkl.stderr
    page = (root / "site" / "build" / "lessons" / LESSON / "index.html").read_text("utf-8")
    assert "Ours" in page
