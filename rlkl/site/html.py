"""Lesson text to HTML: always escaped, numbers wrapped in marks that carry their record.

A lesson is data, never markup: every string goes through :func:`markupsafe.escape` (text and
attribute values alike), so ``<script>``, ``onerror=``, ``javascript:`` and Markdown are shown
as the characters they are. Line breaks become character references so that no lesson string
can end a raw HTML block in the Markdown the page is embedded in.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from markupsafe import Markup, escape

from rlkl.site.records import Mark


def text(value: object) -> Markup:
    """``value`` as escaped HTML text (newlines kept as character references)."""
    escaped = str(escape(str(value)))
    return Markup(escaped.replace("\r", "&#13;").replace("\n", "&#10;"))


def mark(item: Mark) -> Markup:
    """One number: a focusable element whose status and detail live in escaped attributes.

    The site's CSS shows ``data-detail`` on hover and on focus (generated content, which
    browsers also expose to assistive technology while it is shown); one copy per number
    keeps a 1,000-lesson site small.
    """
    return Markup(
        '<span class="rlkl-num rlkl-{status}" tabindex="0" data-status="{status}" '
        'data-detail="{detail}">{number}</span>'
    ).format(status=item.status, detail=text(item.detail), number=text(item.text))


def marked(value: str, marks: Sequence[Mark]) -> Markup:
    """``value`` escaped, each of its ``marks`` (sorted, non-overlapping spans) wrapped."""
    parts: list[str] = []
    at = 0
    for item in marks:
        if item.start < at or item.end > len(value) or value[item.start : item.end] != item.text:
            continue  # a mark that does not fit the text is left as plain text
        parts.append(text(value[at : item.start]))
        parts.append(mark(item))
        at = item.end
    parts.append(text(value[at:]))
    return Markup("".join(parts))


def href(url: str) -> str | None:
    """``url`` if it is an absolute http(s) link, else ``None`` (then no link is made)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or not parts.netloc:
        return None
    return url.strip()
