"""Shared pieces of the site tests: building into a temp folder, hostile lessons, HTML parsing."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from rlkl.site.build import build_site

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "site" / "mkdocs.yml"
CONTENT = ROOT / "content"

# Markup of every kind, with no digit in it (a digit in prose would be a number to account for).
HOSTILE = (
    '<script>alert(document.cookie)</script> <img src=x onerror="alert(document.domain)"> '
    "[click](javascript:alert(document.domain)) **bold** _em_ `code` <b>b</b> &amp; "
    '"quoted" \'single\' {{ jinja }} {% raw %} ${x} # heading'
)
HOSTILE_URL = 'https://example.org/"><script>alert(document.cookie)</script>'


def build(tmp: Path, content: Path = CONTENT) -> Path:
    """Build the site from ``content`` into ``tmp/site``; return the output folder."""
    return build_site(CONFIG, tmp / "site", content)


def hostile_lesson(lesson_id: str = "hostile-lesson") -> dict[str, Any]:
    """A valid lesson with markup in every text field (and no number anywhere in its prose)."""
    h = HOSTILE
    return {
        "id": lesson_id,
        "name": "Hostile " + h,
        "shortName": h,
        "tagline": h,
        "role": h,
        "description": h,
        "paper": {"title": h, "authors": h, "arxiv": "1707.06347", "year": 2017,
                  "url": HOSTILE_URL, "checked": "2026-10-25"},
        "establishes": h,
        "contract": {"goal": h, "understand": h, "implement": h, "investigate": h},
        "mechanism": [h, h],
        "symbols": [{"symbol": h, "meaning": h}],
        "derivation": [h],
        "learningObjective": h,
        "engineeringExample": h,
        "evidenceNotes": h,
        "specs": [{"label": h, "value": h, "context": h}],
        "interfaces": [{"name": h, "direction": "in", "signal": h}],
        "tradeoff": h,
        "whyAI": h,
        "misconception": h,
        "check": {"question": h, "options": [h, h + " other"], "answer": 0, "explanation": h},
        "experiment": {"design": h, "reporting": h},
        "limits": {"caution": h, "questions": [{"question": h, "answer": h}]},
        "prerequisites": [],
        "related": ["planned-lesson"],
        "sources": [{"title": h, "url": HOSTILE_URL, "authors": h}],
        "branch": "hostile-branch",
        "subbranch": h,
        "science": [{"title": h, "equation": "x < y <script>alert(document.cookie)</script>",
                     "explanation": h, "assumptions": h}],
    }


def hostile_corpus(tmp: Path, lesson: dict[str, Any] | None = None) -> Path:
    """A corpus of the hostile lesson and a planned catalog entry whose title is markup too."""
    lesson = lesson or hostile_lesson()
    root = tmp / "content"
    (root / lesson["id"]).mkdir(parents=True)
    (root / lesson["id"] / "lesson.json").write_text(json.dumps(lesson, indent=2), "utf-8")
    catalog = {"lessons": [
        {"id": lesson["id"], "title": "Hostile", "status": "published"},
        {"id": "planned-lesson", "title": HOSTILE, "status": "planned", "summary": HOSTILE},
    ]}
    (root / "catalog.json").write_text(json.dumps(catalog, indent=2), "utf-8")
    return root


def copy_content(tmp: Path) -> Path:
    root = tmp / "content"
    shutil.copytree(CONTENT, root)
    return root


class Page(HTMLParser):
    """Elements, attributes and visible text of one HTML page."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []  # the text inside <script> elements
        self._skip = 0
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)
        elif self.elements and self.elements[-1][0] == "script":
            self.scripts.append(data)

    @property
    def visible(self) -> str:
        return "".join(self.text)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for t, attrs in self.elements if t == tag]


def page(site: Path, uri: str) -> Page:
    return Page((site / uri / "index.html").read_text("utf-8"))
