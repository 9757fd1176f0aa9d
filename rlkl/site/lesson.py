"""One generated Markdown page per lesson: fixed headings (for the table of contents) and
raw HTML blocks rendered from the lesson by autoescaped templates.

The page follows the published guide (seed 003): what the paper establishes; the mechanism
with rendered equations; symbols; derivation; for PPO lessons the plot and the "change one
variable" controls; the worked example; the experiment; limits and reviewer questions; the
check question; sources; prerequisites and related lessons.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from mkdocs.utils import get_relative_url

from rlkl.diagnostics import Diagnostic
from rlkl.site.experiment import LESSONS as MATCHED_BUDGET_LESSONS
from rlkl.site.html import href, marked, text
from rlkl.site.mathml import MathError, relations, sides, to_mathml
from rlkl.site.plot import chart_svg, shipped
from rlkl.site.records import LessonRecord


@functools.lru_cache(maxsize=1)
def environment() -> Environment:
    """The site's template environment (autoescaping on, undefined names are errors)."""
    return Environment(
        loader=PackageLoader("rlkl.site", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def macros(template: str) -> Callable[[str], Callable[..., Markup]]:
    """The macros of one template, by name (each renders one raw HTML block)."""
    module = environment().get_template(template).module

    def macro(name: str) -> Callable[..., Markup]:
        found: Callable[..., Markup] = getattr(module, name)
        return found

    return macro


TOKEN = "rlkl-block-"
_FILLED = re.compile(r"<p>rlkl-block-(\d+)</p>")


class Blocks:
    """HTML kept out of Markdown: the page's Markdown holds one placeholder per block, and
    :func:`fill` puts the blocks into the rendered page. Markdown never sees lesson text
    (nothing in it can be read as Markdown), and large pages convert fast."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, html: object) -> str:
        """Keep ``html``; return the Markdown paragraph that stands for it."""
        self.items.append(str(html))
        return f"\n\n{TOKEN}{len(self.items) - 1}\n\n"


def fill(html: str, blocks: Sequence[str]) -> str:
    """Replace each placeholder paragraph in rendered ``html`` by its block."""
    return _FILLED.sub(lambda m: blocks[int(m.group(1))], html)


_HELD = re.compile(  # rlkl writes each whole; a number's text has no markup
    r"<math\b.*?</math>|<svg\b.*?</svg>|(<span class=\"rlkl-num[^>]*>)([^<]*)(</span>)",
    re.DOTALL)
_HELD_TOKEN = re.compile(r"<!--rlkl-held-(\d+)-->")
_EXCLUDED = re.compile(r"<([a-z][a-z0-9]*)\b[^>]*\sdata-search-exclude[\s>=]")
_HEADING = re.compile(r"<h[1-6]\b")


def _element_end(html: str, tag: str, start: int) -> int | None:
    """Where the element whose start tag opens before ``start`` ends (after its end tag),
    counting the ``tag`` elements nested in it; None when it is not closed."""
    depth = 1
    for found in _tag(tag).finditer(html, start):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return found.end()
    return None


@functools.lru_cache(maxsize=64)
def _tag(tag: str) -> re.Pattern[str]:
    """The start and end tags of ``tag`` elements (group 1: "/" for an end tag)."""
    return re.compile(rf"<(/?){tag}\b[^>]*>")


def hold_back(html: str, blocks: Sequence[str] = ()) -> tuple[str, tuple[str, ...]]:
    """``html`` with its placeholders filled (:func:`fill`), what no reader of the page's
    content before it is written (the search index) needs held back, a comment standing for
    each, and what was held. Held whole: MathML, SVG, and each element of the ``blocks`` rlkl
    marks ``data-search-exclude`` (with no heading in it); of each marked number, its tags
    (its text stays). MathML is two fifths of a lesson page's elements, the excluded parts
    (explorable data, code, tables) half its bytes, and parsing them was most of the index's
    time. Held whole, an excluded element is also excluded whole: the index's parser
    (mkdocs-material's) takes a ``</div>`` nested in an excluded ``<div>`` for its end and
    indexed the rest of it. (Lesson text is escaped, so only the markup rlkl writes holds
    ``<math``, ``<svg``, ``<span`` or a ``data-search-exclude`` attribute.)"""
    held: list[str] = []

    def token(markup: str) -> str:
        held.append(markup)
        return f"<!--rlkl-held-{len(held) - 1}-->"

    def excluded(block: str) -> str:
        parts, done, at = [], 0, 0
        while (found := _EXCLUDED.search(block, at)) is not None:
            end = _element_end(block, found.group(1), found.end())
            if end is None or _HEADING.search(block, found.start(), end):
                at = found.end()  # left to the index (an excluded element inside may not be)
                continue
            parts += [block[done:found.start()], token(block[found.start():end])]
            done = at = end
        return "".join(parts) + block[done:]

    def keep(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return token(match.group(0))
        return token(match.group(1)) + match.group(2) + token(match.group(3))

    if blocks:
        html = fill(html, [excluded(block) for block in blocks])
    return _HELD.sub(keep, html), tuple(held)


def put_back(html: str, held: Sequence[str]) -> str:
    """The written page with what :func:`hold_back` held back in its place again."""
    return _HELD_TOKEN.sub(lambda m: held[int(m.group(1))], html) if held else html


@dataclass(frozen=True)
class Link:
    """A lesson a page points to: a URL when it is published, none when it is planned."""

    title: str
    url: str | None
    summary: str = ""
    explorable: str = ""  # what a learner can change on the page ("" when nothing)


def explore_json(data: Any) -> Markup:
    """The page's explorable data as the text of a ``<script type="application/json">``:
    JSON with ``<``, ``>`` and ``&`` escaped, so no lesson text can end the element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e")
                  .replace("&", "\\u0026"))


def equation_html(latex: str) -> Markup:
    """A display equation as the page sets it: each relation (cut at ``\\quad``) and each
    side of it (cut after ``=``) a piece that wraps on a narrow screen; one block
    ``<math>`` when there is nothing to cut."""
    parts = [sides(part) for part in relations(latex)]
    if len(parts) == 1 and len(parts[0]) == 1:
        return to_mathml(latex)
    side = Markup('<span class="rlkl-side">{}</span>')
    relation = Markup('<span class="rlkl-relation">{}</span>')
    return Markup("").join(
        relation.format(Markup("").join(side.format(to_mathml(s)) for s in pieces))
        for pieces in parts)


def _equations(record: LessonRecord) -> tuple[list[Markup], list[Diagnostic]]:
    rendered, problems = [], []
    for index, science in enumerate(record.lesson.science):
        pointer = f"/science/{index}/equation"
        try:
            rendered.append(equation_html(science.equation))
        except MathError as error:
            line, column = record.located.get(pointer, (1, 1))
            problems.append(
                Diagnostic(record.source, line, column, pointer, "RLKL701",
                           f"equation {index + 1} cannot be shown on the site: {error}")
            )
            rendered.append(Markup(""))
    return rendered, problems



def quiz_order(lesson_id: str, count: int) -> list[int]:
    """The order a page shows the check question's ``count`` options in: fixed for a lesson
    (the same on every build and machine: a hash of its id and each index), and not the
    authored one, in which the key is usually first."""
    return sorted(range(count),
                  key=lambda i: hashlib.sha256(f"{lesson_id}\0{i}".encode()).digest())

def page_title(name: str) -> str:
    """A page's title as its front matter writes it: escaped text, as a JSON string (which
    YAML reads as the same string)."""
    return json.dumps(str(text(name)), ensure_ascii=True)


def lesson_markdown(
    record: LessonRecord,
    *,
    links: Mapping[str, Link],
    url: Callable[[str], str],
    core: str,
) -> tuple[str, tuple[str, ...], list[Diagnostic]]:
    """The page's Markdown, its HTML blocks (see :class:`Blocks`) and the problems that keep
    it from being published.

    ``links`` maps every lesson id (published or planned) to its link; ``url(target)`` gives
    the relative URL of a site page (``report.md``, ``experiment.md``) from this page.
    """
    lesson = record.lesson
    equations, problems = _equations(record)
    macro = macros("lesson.html")

    def p(pointer: str, value: str) -> Markup:
        return marked(value, record.marks.get(pointer, ()))

    def linked(ids: list[str]) -> list[Link]:
        return [links.get(i, Link(i, None)) for i in ids]

    sources = [
        {**s.model_dump(), "href": href(s.url)} for s in lesson.sources
    ]
    paper_href = href(lesson.paper.url) if lesson.paper else None
    sections: list[tuple[str, str, str]] = []
    blocks = Blocks()

    def add(anchor: str, heading: str, html: Any) -> None:
        sections.append((anchor, heading, blocks.add(html)))

    report_url = url("report.md") + "#" + lesson.id
    add("establishes", "01 · What the paper establishes" if lesson.paper else
        "01 · What this lesson establishes", macro("establishes")(lesson, p, paper_href))
    add("mechanism", "02 · The mechanism", macro("mechanism")(lesson, p, equations))
    if lesson.symbols:
        add("symbols", "Symbols", macro("symbols")(lesson, p))
    if lesson.derivation or lesson.tradeoff:
        add("derivation", "Worked derivation", macro("derivation")(lesson, p))
    explorable = record.explorable
    if explorable is not None:
        chart = chart_svg(explorable.chart) if explorable.chart is not None else None
        add("change-one-variable", "03 · Change one variable",
            macro("controls")(explorable, chart, explore_json(shipped(explorable.data))))
    add("example", "04 · Work through an example",
        macro("example")(lesson, p, record.script, record.core))
    matched_budget = url("experiment.md") if lesson.id in MATCHED_BUDGET_LESSONS else None
    if lesson.experiment or lesson.labScope or matched_budget:
        add("experiment", "05 · Design your experiment",
            macro("experiment")(lesson, p, matched_budget))
    if lesson.limits:
        add("limits", "06 · Limits & reviewer questions", macro("limits")(lesson, p))
    order = quiz_order(lesson.id, len(lesson.check.options))
    add("check", "Check your understanding", macro("quiz")(lesson, p, order, record.quiz))
    if lesson.sources or lesson.evidenceNotes:
        add("sources", "07 · Read the original", macro("sources")(lesson, p, sources))
    groups = [("Prerequisites", linked(lesson.prerequisites)), ("Related", linked(lesson.related))]
    if lesson.prerequisites or lesson.related:
        add("continue", "Continue this topic", macro("continue_topic")(groups))

    parts = [f"---\ntitle: {page_title(lesson.name)}\n---\n",
             blocks.add(macro("header")(lesson, p, record, core, report_url))]
    for anchor, heading, placeholder in sections:
        parts.append(f"## {heading} {{#{anchor}}}\n{placeholder}")
    return "\n".join(parts) + "\n", tuple(blocks.items), problems


def lesson_page(record: LessonRecord, job: tuple[Mapping[str, Link], str, bool, str]
                ) -> tuple[str, tuple[str, ...], list[Diagnostic]]:
    """:func:`lesson_markdown` of the page at ``uri`` (``job``: its links, ``uri``, whether
    the site uses directory URLs, and the core version), as a process of the check makes
    it (:meth:`rlkl.site.records.SiteCheck.rendered`)."""
    links, uri, directory_urls, core = job
    return lesson_markdown(record, links=links, url=links_from(uri, directory_urls), core=core)


def links_from(source: str, directory_urls: bool) -> Any:
    """The function giving the relative URL of a page (``lessons/x.md``) from page ``source``."""

    def url(target: str) -> str:
        return get_relative_url(_url(target, directory_urls), _url(source, directory_urls))

    return url


def _url(uri: str, directory_urls: bool) -> str:
    """The URL MkDocs gives the page at ``uri``."""
    stem = uri.removesuffix(".md")
    if not uri.endswith(".md"):
        return uri
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return stem + "/" if directory_urls else stem + ".html"

