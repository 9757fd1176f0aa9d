"""Lesson pages kept from an earlier build: a rebuild renders only the pages that changed.

MkDocs renders every page on every build; for 1,000 lessons that is most of a rebuild after
one lesson changed. A lesson page's HTML is a function of its lesson's report (the cache key
of the check, :attr:`rlkl.check.CheckResult.keys`, covers its files and rlkl's code), the
lessons it links to, and the site around it: the configuration, the navigation, the theme
and the versions of what renders it (:func:`context_key`). A page rendered once is kept in
the cache under the hash of all of these (:func:`page_key`), with the anchors it has and the
search index entries it gave; the next build whose key is the same writes the kept HTML
through an empty template instead of rendering it (:data:`TEMPLATE`) and gives the search
index the kept entries. The output is byte-identical to a build that renders every page.

Only sites whose plugins are rlkl's and the search index are kept (another plugin may add
what no key here covers, such as a file's last commit date); MkDocs' own ``--dirty``
builds are not used (they leave stale pages and a partial search index).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from rlkl.cache import Cache, code_fingerprint

KIND = "site-page"
TEMPLATE = "rlkl-kept.html"
"""The template a kept page is rendered with: empty (its HTML is written as it was kept)."""
PLUGINS = frozenset({"rlkl", "search", "material/search"})
"""The plugins a site may have for its pages to be kept."""
_RENDERERS = ("mkdocs", "mkdocs-material", "markdown", "pymdown-extensions", "minify-html",
              "jinja2", "markupsafe", "pygments", "latex2mathml")
_CONFIG = ("site_name", "site_url", "site_description", "site_author", "copyright",
           "repo_url", "repo_name", "edit_uri", "edit_uri_template", "use_directory_urls",
           "extra", "extra_css", "extra_javascript", "extra_templates", "markdown_extensions",
           "mdx_configs", "nav")
_SITE_FILES = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Kept:
    """A page as an earlier build wrote it: its HTML, its anchors (for the links other pages
    make to them) and its search index entries."""

    html: str
    anchors: tuple[str, ...]
    search: tuple[dict[str, Any], ...]


def _search(config: Any) -> Any:
    return next((config.plugins[n] for n in ("search", "material/search")
                 if n in config.plugins), None)


def keepable(config: Any) -> bool:
    """Whether the site's pages can be kept: its plugins are rlkl's and mkdocs-material's
    search index, or rlkl's alone (another plugin may add what no key here covers)."""
    search = _search(config)
    return set(config.plugins) <= PLUGINS and (
        search is None or type(search).__module__.startswith("material.plugins.search"))


def search_entries(config: Any) -> list[dict[str, Any]]:
    """The entries the site's search index is building ([] without one): asked for once
    every plugin's ``on_config`` has run, since the index makes them there."""
    search = _search(config)
    entries = getattr(getattr(search, "search_index", None), "entries", None)
    return entries if isinstance(entries, list) else []


def _stable(value: Any) -> Any:
    """A configuration value as JSON can hold it (an object by its text)."""
    return str(value)


def _files_under(folder: Path, read: bool) -> list[tuple[str, str]]:
    """Each file under ``folder``: its path and a SHA-256 of its bytes (``read``) or its
    size and modification time."""
    found = []
    for root, _dirs, names in os.walk(folder):
        for name in sorted(names):
            path = Path(root) / name
            try:
                if read:
                    mark = hashlib.sha256(path.read_bytes()).hexdigest()
                else:
                    info = path.stat()
                    mark = f"{info.st_size} {info.st_mtime_ns}"
            except OSError:
                mark = "unread"
            found.append((path.as_posix(), mark))
    return sorted(found)


def _installed(folder: str) -> bool:
    """Whether a theme folder is an installed package's (its version names it)."""
    prefixes = {sys.prefix, sys.base_prefix}
    return any(Path(folder).resolve().is_relative_to(Path(p).resolve()) for p in prefixes)


def context_key(config: Any) -> str:
    """A SHA-256 of the site around the lesson pages: rlkl's code and templates, the
    renderers' versions, the configuration (its file and the values read from it, the final
    navigation included), every plugin's options, the theme (its options; the files of a
    folder of its own), and the Markdown pages of ``docs_dir`` (whose headings can title the
    navigation)."""
    versions = {}
    for name in _RENDERERS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = ""
    theme = config.theme
    own_theme = [_files_under(Path(d), read=False) for d in theme.dirs if not _installed(d)]
    docs = Path(config.docs_dir)
    pages = [(p, h) for p, h in _files_under(docs, read=True) if p.endswith(".md")]
    config_file = config.config_file_path
    try:
        config_bytes = Path(config_file).read_bytes().hex() if config_file else ""
    except OSError:
        config_bytes = "unread"
    parts = {
        "rlkl": [code_fingerprint(), _files_under(_SITE_FILES, read=True)],
        "versions": versions,
        "python": sys.version,
        "config": {k: config.get(k) for k in _CONFIG},
        "config_file": config_bytes,
        "plugins": {name: dict(plugin.config) for name, plugin in config.plugins.items()},
        "theme": {"name": theme.name, "options": dict(theme), "dirs": list(theme.dirs),
                  "own": own_theme},
        "docs": pages,
    }
    text = json.dumps(parts, sort_keys=True, default=_stable)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def page_key(context: str, lesson_key: str, uri: str, links: Sequence[Sequence[Any]]) -> str:
    """The key of one lesson page: the site's :func:`context_key`, its report's cache key,
    its path and the links it makes to other lessons (their titles, URLs and summaries)."""
    text = json.dumps([context, lesson_key, uri, [list(link) for link in links]])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def kept_page(cache: Cache, key: str) -> Kept | None:
    """The page kept under ``key``, None when there is none (or it is damaged)."""
    data = cache.derived(KIND, key)
    try:
        html, anchors, search = data["html"], data["anchors"], data["search"]
    except (KeyError, TypeError):
        return None
    if not (isinstance(html, str) and html.strip() and isinstance(anchors, list)
            and all(isinstance(a, str) for a in anchors) and isinstance(search, list)
            and all(isinstance(e, dict) for e in search)):
        return None
    return Kept(html, tuple(anchors), tuple(search))


def keep_page(cache: Cache, key: str, page: Kept) -> None:
    """Keep a page as this build wrote it, for the next build with the same ``key``."""
    cache.put_derived(KIND, key, {"html": page.html, "anchors": sorted(page.anchors),
                                  "search": [dict(e) for e in page.search]})


def kept_markdown(title: str) -> str:
    """The source of a kept page: its title (front matter, as :func:`~rlkl.site.lesson.
    page_title` writes it), rendered with the empty :data:`TEMPLATE`, out of the search
    index (the kept entries are given to it instead)."""
    return f"---\ntitle: {title}\ntemplate: {TEMPLATE}\nsearch:\n  exclude: true\n---\n"
