"""The site's generated pages besides lessons: catalog, verification report, references.

Lesson-derived text goes through the autoescaped templates; the CLI, configuration, rules and
schema references are rendered from rlkl's own code (trusted Markdown).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from rlkl.site.lesson import Blocks, Link, macros
from rlkl.site.records import ClaimRow, ExemptRow, LessonEntry, SiteCheck

OTHER = "other"


@dataclass(frozen=True)
class Branch:
    """A branch of the curriculum as the catalog and the navigation show it."""

    slug: str
    title: str
    anchor: str


def branch_of(record: LessonEntry) -> Branch:
    """The lesson's branch (``other`` when it names none), titled from its slug."""
    slug = record.lesson.branch or OTHER
    title = slug.replace("-", " ").capitalize()
    return Branch(slug, title, "branch-" + slug)


def subbranch_of(record: LessonEntry) -> str:
    return record.lesson.subbranch or "General"


def grouped(check: SiteCheck) -> list[tuple[Branch, list[tuple[str, list[LessonEntry]]]]]:
    """The checked lessons by branch, then sub-branch, in learning order: one order for the
    catalog, the navigation and the home page.

    The order is the catalog's (each lesson after its prerequisites, which the corpus check
    and the shipped catalog's tests hold): a branch or sub-branch comes where its first
    lesson does, and a lesson the catalog does not list comes after the listed ones, by name."""
    place = {entry.id: index for index, entry in enumerate(check.catalog)}

    def key(record: LessonEntry) -> tuple[int, str]:
        return place.get(record.lesson.id, len(place)), record.lesson.name.casefold()

    tree: dict[Branch, dict[str, list[LessonEntry]]] = {}
    for record in sorted(check.lessons, key=key):
        tree.setdefault(branch_of(record), {}).setdefault(subbranch_of(record), []).append(record)
    return [(branch, list(subs.items())) for branch, subs in tree.items()]  # insertion order


LEARNING_PATH = "<!-- rlkl:learning-path -->"
"""Written on a site's home page (``index.md``), it is replaced by the published lessons in
learning order."""


def _link(record: LessonEntry, url: Callable[[str], str], summaries: dict[str, str]) -> Link:
    return Link(record.lesson.name, url(f"lessons/{record.lesson.id}.md"),
                summaries.get(record.lesson.id) or record.lesson.tagline or "",
                record.explorable)


def learning_path(check: SiteCheck, url: Callable[[str], str]) -> tuple[str, tuple[str, ...]]:
    """The published lessons as one numbered path, in learning order, each with its
    sub-branch and summary: a placeholder for a page's Markdown and its HTML block."""
    summaries = {c.id: c.summary for c in check.catalog}
    steps = [(sub, [_link(r, url, summaries) for r in items])
             for _, subs in grouped(check) for sub, items in subs]
    blocks = Blocks()
    return blocks.add(macros("pages.html")("path")(steps)), tuple(blocks.items)


def catalog_markdown(check: SiteCheck, url: Callable[[str], str]) -> tuple[str, tuple[str, ...]]:
    """The catalog: published lessons by branch and sub-branch, then the planned ones."""
    published = {r.lesson.id for r in check.lessons}
    summaries = {c.id: c.summary for c in check.catalog}
    groups = [
        (
            branch,
            [(sub, [_link(r, url, summaries) for r in items]) for sub, items in subs],
        )
        for branch, subs in grouped(check)
    ]
    planned = [Link(c.title, None, c.summary) for c in check.catalog
               if c.status == "planned" and c.id not in published]
    html = macros("pages.html")("catalog")(groups, planned)
    intro = (
        "Every lesson below was built only after `rlkl check` verified every number in it. "
        "They are listed in learning order, each after its prerequisites, and grouped by "
        "branch and sub-branch, as in the navigation."
    )
    blocks = Blocks()
    markdown = f"---\ntitle: Lessons\n---\n\n# Lessons\n\n{intro}\n{blocks.add(html)}"
    return markdown, tuple(blocks.items)


def _claim_tables(rows: Sequence[ClaimRow]) -> list[tuple[str, int, Markup]]:
    """A lesson's claims by status (in status order), each group's table rows rendered,
    every value escaped as the template escapes it (``markupsafe.escape``): the report of
    1,000 PPO copies (47,000 rows) took 0.76 s through the template, 0.25 s so."""
    tables = []
    for status, group in itertools.groupby(sorted(rows, key=lambda r: r.status),
                                           key=lambda r: r.status):
        trs = [f"<tr><td>{escape(r.name)}</td><td>{escape(r.kind)}</td><td>{escape(r.pointer)} "
               f"{escape(r.line)}:{escape(r.column)}</td><td>{escape(r.text)}</td>"
               f"<td>{escape(r.computed)}</td></tr>\n" for r in group]
        tables.append((status, len(trs), Markup("".join(trs))))
    return tables


def report_markdown(check: SiteCheck, url: Callable[[str], str]) -> tuple[str, tuple[str, ...]]:
    """Every claim with its status, per lesson, and the numeric core's version."""
    claims: dict[str, list[ClaimRow]] = {}
    for claim in check.claims:
        claims.setdefault(claim.lesson, []).append(claim)
    exempt: dict[str, list[ExemptRow]] = {}
    for row in check.exempt:
        exempt.setdefault(row.lesson, []).append(row)
    lessons = [
        (r.lesson.id, r.lesson.name, url(f"lessons/{r.lesson.id}.md"),
         _claim_tables(claims.get(r.lesson.id, [])), exempt.get(r.lesson.id, []))
        for r in check.lessons
    ]
    html = macros("pages.html")("report")(check, lessons)
    blocks = Blocks()
    markdown = (
        "---\ntitle: Verification report\nsearch:\n  exclude: true\n---\n\n"
        "# Verification report\n\n"
        "The same records `rlkl check` produces: every checked number with the expression "
        "rlkl.core computed, where it is written, and whether it holds at its written "
        "precision (a lesson page shows each number's expression and inputs on hover).\n"
        f"{blocks.add(html)}"
    )
    return markdown, tuple(blocks.items)


CLI_PAGE = Path(__file__).with_name("reference") / "cli.md"
"""The CLI reference page, generated from the click commands by ``python -m rlkl.cli.reference
--page`` and shipped with the package (the site sits below the CLI and imports none of it;
a test keeps the file current)."""


def cli_markdown() -> str:
    """The CLI reference page (:data:`CLI_PAGE`)."""
    return CLI_PAGE.read_text(encoding="utf-8")


def configuration_markdown() -> str:
    """The configuration reference: every key of :data:`rlkl.config.SETTINGS`, generated
    when the site is built."""
    from rlkl.config import settings_table

    return (
        "---\ntitle: Configuration\n---\n\n# Configuration\n\n"
        "rlkl reads `rlkl.toml`, or the `[tool.rlkl]` table of `pyproject.toml`: the first "
        "of the two found from the working folder up (a `pyproject.toml` without "
        "`[tool.rlkl]` is passed over). Paths are relative to that file; command-line "
        "options override it, and `--isolated` reads none. `rlkl init` writes an "
        "`rlkl.toml` with every key commented out. An unknown key, a value of the wrong "
        "type and a selector that names no code stop the command with a located error "
        "(RLKL801-806).\n\n"
        "In `rlkl.toml` the `site.*` keys are a `[site]` table; in `pyproject.toml`, "
        "`[tool.rlkl.site]`.\n\n"
        f"{settings_table()}\n"
        "## Adopting a rule lesson by lesson\n\n"
        "A new rlkl may report a rule an existing corpus does not yet pass. Ignore it for "
        "the lessons that do not, and remove each pattern when its lessons pass (an entry "
        "that suppresses nothing is reported as RLKL810):\n\n"
        "```toml\n[tool.rlkl.per-path-ignores]\n"
        "\"content/legacy-*\" = [\"RLKL430\"]  # equations of older lessons, not yet bound\n"
        "```\n\n"
        "A new rule can also arrive as a *preview* rule: a warning until the release its "
        "entry names (`rlkl explain CODE`), then an error. `preview = true` makes it one "
        "now. `rlkl check --statistics` counts the diagnostics of each code.\n"
    )


def rules_markdown() -> str:
    """The rules reference: one section per code of the one codes table (as ruff has a
    page per rule), generated when the site is built."""
    from rlkl.diagnostics import CODES, codes_table, severity_text

    parts = ["---\ntitle: Rules\n---\n\n# Rules\n",
             "Every diagnostic rlkl reports has a stable code and a name; either selects it "
             "in the configuration (`select`, `ignore`, `per-path-ignores`) and `rlkl explain` "
             "prints its entry. Codes a lesson cannot be checked past (RLKL1xx reading, "
             "RLKL2xx schema, RLKL8xx configuration, RLKL9xx the run) cannot be ignored.",
             codes_table()]
    for key, entry in sorted(CODES.items()):
        parts.append(
            f"## {key} `{entry.name}`\n\n*{_cell(severity_text(entry))}*: {_cell(entry.meaning)}"
            f"\n\n**Example.** {_cell(entry.example)}\n\n**How to fix.** {_cell(entry.fix)}")
    return "\n\n".join(parts) + "\n"


def _type(spec: dict[str, Any]) -> str:
    if "$ref" in spec:
        return str(spec["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in spec:
        return " or ".join(_type(s) for s in spec["anyOf"])
    kind = spec.get("type", "")
    if kind == "array":
        return f"list of {_type(spec.get('items', {}))}"
    if "enum" in spec:
        return " | ".join(json.dumps(v) for v in spec["enum"])
    if "const" in spec:
        return json.dumps(spec["const"])
    return str(kind) if isinstance(kind, str) else " or ".join(kind)


def _cell(value: object) -> str:
    return str(escape(str(value))).replace("|", "&#124;").replace("\n", " ")


def _object_table(name: str, spec: dict[str, Any]) -> str:
    required = set(spec.get("required", []))
    rows = [f"### `{name}`", "", _cell(spec.get("description", "")), "",
            "| field | type | required | description |", "|---|---|---|---|"]
    for field, member in spec.get("properties", {}).items():
        rows.append(
            f"| `{field}` | {_cell(_type(member))} | {'yes' if field in required else 'no'} "
            f"| {_cell(member.get('description', member.get('title', '')))} |"
        )
    return "\n".join(rows)


def schema_markdown(schema_dir: Path) -> str:
    """Every schema in ``schema/``: each object's fields, types and descriptions."""
    parts = ["---\ntitle: Schema reference\n---\n\n# Schema reference\n",
             "Generated from the JSON Schemas in `schema/` when the site is built."]
    for path in sorted(schema_dir.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        parts.append(f"## `{path.name}`\n\n{_cell(schema.get('description', ''))}")
        objects = [(schema.get("title", path.stem), schema)]
        objects += list((schema.get("$defs") or {}).items())
        parts += [_object_table(str(n), s) for n, s in objects if s.get("properties")]
    return "\n\n".join(parts) + "\n"
