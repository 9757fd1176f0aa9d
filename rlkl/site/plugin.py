"""The MkDocs plugin (entry point ``rlkl``): check once, then add one page per lesson.

``on_config`` runs the same check as ``rlkl check`` (through :mod:`rlkl.site.records`) and
stops the build with the located diagnostics when anything is wrong, so nothing unverified is
published; it also groups the navigation by branch and sub-branch under the entry whose page
is ``lessons/index.md``. ``on_files`` adds the generated pages: the catalog, one page per
lesson, the verification report, the experiment, the authoring guide, and the CLI and schema
references. A lesson page an earlier build rendered in the same site is written as it was kept
(:mod:`rlkl.site.kept`), and a batch build renders the others on every CPU
(:mod:`rlkl.site.shared`). ``rlkl site build|serve`` are thin wrappers; ``mkdocs build -f
site/mkdocs.yml`` works the same.
"""

from __future__ import annotations

import contextlib
import logging
import re
from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel

from rlkl.cache import Cache, default_dir
from rlkl.config import Config as Project
from rlkl.config import ConfigError, export_cache
from rlkl.config import load as load_project
from rlkl.extensions import ExtensionError, activate
from rlkl.pool import cpu_jobs
from rlkl.resources import schema_dir
from rlkl.rules import Rules, SelectorError
from rlkl.site.experiment import Later, experiment_page
from rlkl.site.kept import (
    TEMPLATE,
    Kept,
    context_key,
    keep_page,
    keepable,
    kept_markdown,
    kept_page,
    page_key,
    search_entries,
)
from rlkl.site.lesson import (
    Link,
    hold_back,
    lesson_page,
    links_from,
    page_title,
    put_back,
)
from rlkl.site.pages import (
    LEARNING_PATH,
    catalog_markdown,
    cli_markdown,
    configuration_markdown,
    grouped,
    learning_path,
    report_markdown,
    rules_markdown,
    schema_markdown,
)
from rlkl.site.records import SiteCheck, check_site
from rlkl.site.shared import HERE, SHARED_MIN, Made, Pages, Warnings, can_fork
from rlkl.site.shared import SOURCE as SHARED_SOURCE
from rlkl.site.shared import TEMPLATE as SHARED_TEMPLATE

CATALOG = "lessons/index.md"
ASSETS = Path(__file__).resolve().parent / "assets"
STYLE, SCRIPT = "assets/rlkl.css", "assets/rlkl.js"  # shipped in the package, added to any site
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_TITLE_TOKEN = "rlkl-title-placeholder"
_MARKER = re.compile(rf"^[ \t]*{re.escape(LEARNING_PATH)}[ \t]*$", re.MULTILINE)


class RlklConfig(Config):  # type: ignore[no-untyped-call]
    """Plugin options (paths relative to the folder of ``mkdocs.yml``)."""

    # unset: the project configuration's first content folder, else ./content
    content = config_options.Optional(config_options.Type(str))
    experiment = config_options.Type(bool, default=True)
    minify = config_options.Type(bool, default=True)
    # reuse `rlkl check`'s cache of unchanged lessons (RLKL_CACHE_DIR=off turns it off too)
    cache = config_options.Type(bool, default=True)


class BuildFailed(PluginError):
    """The check (or a page) found errors; ``report`` holds the located diagnostics."""

    def __init__(self, report: str) -> None:
        super().__init__("rlkl: the site is not built, because:\n" + report)
        self.report = report


class RlklPlugin(BasePlugin[RlklConfig]):  # type: ignore[no-untyped-call]
    """Adds the verified lessons to an MkDocs site."""

    def __init__(self) -> None:
        self.check: SiteCheck | None = None
        self.content: Path | None = None  # the lesson folder (watched by `rlkl site serve`)
        self.pages: dict[str, str] = {}
        self.blocks: dict[str, tuple[str, ...]] = {}
        self.held: dict[str, tuple[str, ...]] = {}  # by page: what hold_back held back
        self.binary: dict[str, bytes] = {}
        self.jobs = 1  # processes for the check: more only for a batch build, never in serve
        self.cache: Cache | None = None
        self.kept: dict[str, Kept] = {}  # by page: what an earlier build rendered of it
        self.keys: dict[str, str] = {}  # by lesson page rendered now: the key it is kept by
        self.fresh: list[str] = []  # the lesson pages rendered now
        self.keepable = False  # whether the site's plugins let its pages be kept or shared
        self.nav: Any = None
        self.shared: Pages | None = None  # the lesson pages rendered by forked processes too
        self.search: list[dict[str, Any]] | None = None  # the search index's entries
        self.indexed = 0  # how many of them the pages written so far gave
        self.pending: list[tuple[str, Kept]] = []  # pages to keep once the build is done
        self.warned = Warnings()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """``mkdocs build`` may check a large corpus in one process per CPU."""
        self.jobs = cpu_jobs() if command in ("build", "gh-deploy") else 1

    def _path(self, config: MkDocsConfig, value: str) -> Path:
        base = Path(config.config_file_path or ".").resolve().parent
        return (base / value).resolve()

    def _content(self, config: MkDocsConfig, project: Project) -> Path:
        """The lesson folder: the ``content`` option, else the project's first content
        folder, else ``./content``."""
        if self.config.content is not None:
            return self._path(config, self.config.content)
        return project.content[0] if project.content else Path.cwd() / "content"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        try:  # the project's rule selection and functions, as `rlkl check` here reads them
            project = load_project()
            export_cache(project)  # its cache-dir and cache-size, as rlkl check takes them
            rules = project.rules()
            activate(project.functions, project.root)
        except (ConfigError, SelectorError, ExtensionError) as error:
            raise PluginError(f"rlkl: {error}") from None
        content = self.content = self._content(config, project)
        if not content.is_dir():
            raise PluginError(f"rlkl: content folder {content} does not exist")
        folder = default_dir() if self.config.cache else None
        cache = self.cache = Cache(folder) if folder is not None else None
        later = None  # the experiment page, made beside the check in a batch build
        if self.config.experiment and self.jobs > 1 and can_fork():
            with contextlib.suppress(OSError):  # no process to be had: made in the build
                later = Later(cache)
        try:
            self._checked(config, content, rules, later)
        finally:
            if later is not None:
                later.close()
        return config

    def _checked(self, config: MkDocsConfig, content: Path, rules: Rules,
                 later: Later | None) -> None:
        """The check, the navigation and every generated page (:meth:`on_config`)."""
        cache = self.cache
        check = check_site(content, jobs=self.jobs, cache=cache, rules=rules)
        if check.errors:
            raise BuildFailed(check.report)
        self.check = check
        if STYLE not in map(str, config.extra_css):
            config.extra_css.append(STYLE)
        if SCRIPT not in map(str, config.extra_javascript):
            config.extra_javascript.append(SCRIPT)
        config.nav = self._nav(config.nav, check)
        self.kept, self.keys = {}, {}
        self.keepable = keepable(config)
        context = context_key(config) if cache is not None and self.keepable else ""
        self.pages = self._render(check, bool(config.use_directory_urls), context, later)

    def _render(self, check: SiteCheck, directory_urls: bool, context: str,
                later: Later | None = None) -> dict[str, str]:
        """Every generated page's Markdown. A lesson page an earlier build rendered in this
        same ``context`` (:mod:`rlkl.site.kept`; "" keeps none) is not made again: its
        Markdown only names the empty template its kept HTML is written through."""
        from rlkl.diagnostics import Severity
        from rlkl.render import render

        def url_from(source: str) -> Any:
            return links_from(source, directory_urls)

        summaries = {c.id: c.summary for c in check.catalog}
        planned = {c.id: Link(c.title, None, c.summary) for c in check.catalog}
        published = {r.lesson.id: r.lesson for r in check.lessons}
        pages: dict[str, str] = {}
        made: list[tuple[str, str, dict[str, Link]]] = []  # lesson id, page, its links
        for entry in check.lessons:
            uri = f"lessons/{entry.lesson.id}.md"
            page_links: dict[str, Link] = {}
            for other_id in [*entry.lesson.prerequisites, *entry.lesson.related]:
                other = published.get(other_id)
                if other is None:
                    page_links[other_id] = planned.get(other_id, Link(other_id, None))
                else:
                    page_links[other_id] = Link(
                        other.name,
                        url_from(uri)(f"lessons/{other_id}.md"),
                        summaries.get(other_id) or other.tagline or "",
                    )
            if context and entry.key and self.cache is not None:
                key = page_key(context, entry.key, uri,
                               [(i, *vars(link).values()) for i, link in page_links.items()])
                kept = kept_page(self.cache, key)
                if kept is not None:
                    self.kept[uri] = kept
                    pages[uri] = kept_markdown(page_title(entry.lesson.name))
                    continue
                self.keys[uri] = key
            pages[uri] = ""  # made below, in this place: the pages' order is the files'
            made.append((entry.lesson.id, uri, page_links))
        self.fresh = [uri for _, uri, _ in made]
        problems = []
        for (_, uri, _), (markdown, blocks, found) in zip(made, check.rendered(
                [(lesson_id, (page_links, uri, directory_urls, check.core_version))
                 for lesson_id, uri, page_links in made], lesson_page), strict=True):
            pages[uri], self.blocks[uri] = markdown, blocks
            problems.extend(found)
        if problems:
            errors = sum(p.severity is Severity.ERROR for p in problems)
            raise BuildFailed(render(problems, {"errors": errors}, "text"))
        pages[CATALOG], self.blocks[CATALOG] = catalog_markdown(check, url_from(CATALOG))
        pages["report.md"], self.blocks["report.md"] = report_markdown(check, url_from("report.md"))
        pages["reference/cli.md"] = cli_markdown()
        pages["reference/configuration.md"] = configuration_markdown()
        pages["reference/rules.md"] = rules_markdown()
        pages["reference/schema.md"] = schema_markdown(schema_dir())
        if self.config.experiment:
            pages["experiment.md"], self.binary["experiment/plot.png"] = (
                later.page() if later is not None else experiment_page(self.cache))
        return pages

    def _nav(self, nav: Any, check: SiteCheck) -> Any:
        """Replace the nav entry of the catalog by the catalog plus branch/sub-branch groups."""
        from markupsafe import escape

        if not isinstance(nav, list):
            return nav
        lessons: list[Any] = [{"Catalog": CATALOG}]
        for branch, subs in grouped(check):
            lessons.append({
                branch.title: [
                    {str(escape(sub)): [
                        {str(escape(r.lesson.name)): f"lessons/{r.lesson.id}.md"} for r in items
                    ]}
                    for sub, items in subs
                ]
            })
        out = []
        for entry in nav:
            if isinstance(entry, dict) and list(entry.values()) == [CATALOG]:
                out.append({next(iter(entry)): lessons})
            else:
                out.append(entry)
        return out

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        for uri, markdown in self.pages.items():
            existing = files.get_file_from_path(uri)
            if existing is not None:
                files.remove(existing)
            files.append(File.generated(config, uri, content=markdown))
        for uri, data in self.binary.items():
            files.append(File.generated(config, uri, content=data))
        for uri in (STYLE, SCRIPT):  # a site's own copy wins (an author's restyled page)
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(ASSETS / Path(uri).name)))
        return files

    def on_page_markdown(
        self, markdown: str, /, *, page: Any, config: MkDocsConfig, files: Files
    ) -> str:
        """The home page's learning-path marker, on a line of its own, replaced by the
        lessons in learning order (a page that quotes it, such as the publishing guide,
        keeps it)."""
        marker = _MARKER.search(markdown) if LEARNING_PATH in markdown else None
        if marker is None or self.check is None:
            return markdown
        uri = page.file.src_uri
        links = links_from(uri, bool(config.use_directory_urls))
        placeholder, blocks = learning_path(self.check, links)
        self.blocks[uri] = blocks  # a hand-written page: these are its only blocks
        return markdown[: marker.start()] + placeholder + markdown[marker.end() :]

    def on_nav(self, nav: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        self.nav = nav
        return nav

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        """The templates of kept and shared pages (:data:`rlkl.site.kept.TEMPLATE`,
        :data:`rlkl.site.shared.TEMPLATE`), the search index's count of entries before the
        first page, and, in a batch build of many lesson pages, the processes that render
        them too (:mod:`rlkl.site.shared`)."""
        from jinja2 import ChoiceLoader, DictLoader

        env.loader = ChoiceLoader([DictLoader({TEMPLATE: "", SHARED_TEMPLATE: SHARED_SOURCE}),
                                   env.loader])
        share = (self.jobs > 1 and self.keepable and len(self.fresh) >= SHARED_MIN
                 and can_fork())
        self.search = search_entries(config) if self.cache is not None or share else None
        self.indexed = len(self.search) if self.search is not None else 0
        self.shared = None
        if share:
            doc_files = files.documentation_pages(inclusion=InclusionLevel.is_included)
            fresh = set(self.fresh)
            pages = {f.src_uri: f.page for f in doc_files
                     if f.src_uri in fresh and f.page is not None}
            for page in pages.values():
                page.meta["template"] = SHARED_TEMPLATE

            def render(uri: str) -> Made:  # in a worker
                start = len(self.search or ())
                html = _rendered(pages[uri], config, self.nav, doc_files, env)
                return Made(html, tuple((self.search or [])[start:]))

            self.shared = Pages(list(pages), render, self.jobs - 1)
        return env

    @event_priority(50)  # before the search index reads the page
    def on_page_context(self, context: Any, /, *, page: Any, config: MkDocsConfig,
                        nav: Any) -> Any:
        """A shared lesson page: rendered here, or written as a worker rendered it (out of
        the search index, which gets the worker's entries)."""
        made = self.shared.take(page.file.src_uri) if self.shared is not None else None
        context[HERE] = made is None  # also in a worker, which has no pages of its own
        if made is not None:
            page.meta["search"] = {"exclude": True}
            anchors = tuple(sorted(page.present_anchor_ids or ()))
            self.kept[page.file.src_uri] = Kept(made.html, anchors, made.search)
        return context

    def on_page_content(
        self, html: str, /, *, page: Any, config: MkDocsConfig, files: Files
    ) -> str:
        kept = self.kept.get(page.file.src_uri)
        if kept is not None:  # its anchors, for the links other pages make to them
            page.present_anchor_ids = set(kept.anchors)
            return html
        blocks = self.blocks.get(page.file.src_uri)
        content, self.held[page.file.src_uri] = hold_back(html, blocks or ())
        return content

    def on_post_page(self, output: str, /, *, page: Any, config: MkDocsConfig) -> str:
        """The page as it is written: a kept page as an earlier build wrote it (its search
        entries given to the index), any other with its MathML and SVG put back (held back
        from the search index: :func:`~rlkl.site.lesson.hold_back`) and minified. A lesson
        page rendered now is kept when the whole build has gone without a warning."""
        uri = page.file.src_uri
        kept = self.kept.pop(uri, None)
        key = self.keys.pop(uri, None)  # a lesson page rendered now (here or by a worker)
        if kept is not None:
            if self.search is not None:
                self.search.extend(dict(e) for e in kept.search)
                self.indexed = len(self.search)
            self.held.pop(uri, None)
            if key is not None:
                self.pending.append((key, kept))
            return kept.html
        output = self._minified(put_back(output, self.held.pop(uri, ())))
        entries = self.search[self.indexed:] if self.search is not None else []
        self.indexed += len(entries)
        if key is not None:
            anchors = tuple(sorted(page.present_anchor_ids or ()))
            self.pending.append((key, Kept(output, anchors, tuple(entries))))
        return output

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self.pending = []
        logging.getLogger("mkdocs").addHandler(self.warned)
        self.warned.count = 0

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Keep this build's lesson pages, unless it logged a warning: a strict build fails
        then, and a kept page's own links are not validated again."""
        logging.getLogger("mkdocs").removeHandler(self.warned)
        self._unshare()
        if self.cache is not None and self.warned.count == 0:
            for key, page in self.pending:
                keep_page(self.cache, key, page)
        self.pending = []

    def on_build_error(self, *, error: Exception) -> None:
        logging.getLogger("mkdocs").removeHandler(self.warned)
        self._unshare()
        self.pending = []

    def _unshare(self) -> None:
        if self.shared is not None:
            self.shared.close()
            self.shared = None

    def _minified(self, output: str) -> str:
        """``output`` minified (``minify-html``: the theme's indentation is a third of a
        page), unless the ``minify`` option is off.

        The minifier writes ``<title>`` text (RCDATA) with literal ``<``, which is inert there
        but reads like markup; the title is kept exactly as escaped, so a page's source never
        shows lesson text unescaped.
        """
        if not self.config.minify:
            return output
        import minify_html

        title = _TITLE.search(output)
        kept = title.group(1) if title else ""
        if title:
            output = output[: title.start(1)] + _TITLE_TOKEN + output[title.end(1) :]
        minified: str = minify_html.minify(
            output, keep_closing_tags=False, keep_html_and_head_opening_tags=True
        )
        return minified.replace(_TITLE_TOKEN, kept, 1) if title else minified

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.content is not None:
            server.watch(str(self.content))
        self.jobs = 1  # rebuilds run beside the server's threads: no processes forked there
        return server


def _rendered(page: Any, config: MkDocsConfig, nav: Any, doc_files: Any, env: Any) -> str:
    """``page`` rendered as MkDocs' build renders it (its context, its template, the
    plugins' ``page_context`` and ``post_page`` events), not written."""
    from mkdocs.commands.build import get_context

    config._current_page = page
    page.active = True
    try:
        context = get_context(nav, doc_files, config, page)
        template = env.get_template(page.meta.get("template", "main.html"))
        context = config.plugins.on_page_context(context, page=page, config=config, nav=nav)
        output: str = config.plugins.on_post_page(template.render(context), page=page,
                                                  config=config)
        return output
    finally:
        page.active = False
        config._current_page = None

