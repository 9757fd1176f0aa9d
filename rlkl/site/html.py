"""Lesson text to HTML: always escaped, numbers wrapped in marks that carry their record.

A lesson is data, never markup: every string goes through :func:`markupsafe.escape` (text and
attribute values alike), so ``<script>``, ``onerror=``, ``javascript:`` and Markdown are shown
as the characters they are. Line breaks become character references so that no lesson string
can end a raw HTML block in the Markdown the page is embedded in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from markupsafe import Markup, escape

from rlkl.site.mathml import MathError, to_mathml
from rlkl.site.records import Mark


def text(value: object) -> Markup:
    """``value`` as escaped HTML text (newlines kept as character references)."""
    escaped = str(escape(str(value)))
    return Markup(escaped.replace("\r", "&#13;").replace("\n", "&#10;"))


# A symbol with a subscript as lessons write it in prose: one letter (Latin or Greek, perhaps
# with a combining hat, a star or a prime) not inside a word, "_", then up to four letters or
# digits or a {group}: π_ref, Â_t, y_w, V_{t+1}. Identifiers (dpo_loss, n_steps) are left alone.
_SUBSCRIPTED = re.compile(
    r"(?<![\w\u0300-\u036f])([^\W\d_][\u0300-\u036f]?[*'′]?)_"
    r"(?:\{([^{}\s]{1,12})\}|([^\W_]{1,4}))(?![\w])"
)


_MARKED_MATH = re.compile(r"\\\((.+?)\\\)", re.DOTALL)  # \( … \): notation the author marks


def prose(value: str) -> Markup:
    """``value`` as escaped text: notation the author marks as ``\\( … \\)`` set as inline
    MathML (through the same sanitiser as the equations; left as text when it cannot be),
    the subscripts of symbols set as subscripts (``π_ref`` → π<sub>ref</sub>), everything
    else exactly as :func:`text` gives it."""
    if "\\(" not in value:  # the common case: no marked notation
        return _subscripted(value)
    parts: list[str] = []
    at = 0
    for match in _MARKED_MATH.finditer(value):
        try:
            math = to_mathml(match.group(1), "inline")
        except MathError:
            continue
        parts.append(_subscripted(value[at : match.start()]))
        parts.append(math)
        at = match.end()
    parts.append(_subscripted(value[at:]))
    return Markup("".join(parts))


def _subscripted(value: str) -> Markup:
    if "_" not in value:  # the common case: no subscript to look for
        return text(value)
    parts: list[str] = []
    at = 0
    for match in _SUBSCRIPTED.finditer(value):
        parts.append(text(value[at : match.start()]))
        parts.append(f"{text(match.group(1))}<sub>{text(match.group(2) or match.group(3))}</sub>")
        at = match.end()
    parts.append(text(value[at:]))
    return Markup("".join(parts))


def mark(item: Mark) -> Markup:
    """One number: a focusable element whose status is its class (``rlkl-verified``,
    ``rlkl-input``, …) and whose detail lives in an escaped attribute.

    The site's CSS shows ``data-detail`` on hover and on focus (generated content, which
    browsers also expose to assistive technology while it is shown); one copy per number
    keeps a 1,000-lesson site small. A number a control moves carries its ``data-n``. A
    keyboard stops at a number whose record says something (checked, exempt, failing), not
    at an input: its record only repeats it, and its control is in "Change one variable".
    """
    status = str(escape(item.status))
    moves = f' data-n="{int(item.n)}"' if item.n is not None else ""
    stop = "" if item.status == "input" else ' tabindex="0"'
    # plain concatenation of escaped parts: Markup.format costs ~0.2 ms a number
    return Markup(f'<span class="rlkl-num rlkl-{status}"{stop}{moves} '
                  f'data-detail="{text(item.detail)}">{text(item.text)}</span>')


def marked(value: str, marks: Sequence[Mark]) -> Markup:
    """``value`` escaped (:func:`prose`), each of its ``marks`` (sorted, non-overlapping
    spans) wrapped."""
    parts: list[str] = []
    at = 0
    for item in marks:
        if item.start < at or item.end > len(value) or value[item.start : item.end] != item.text:
            continue  # a mark that does not fit the text is left as plain text
        parts.append(prose(value[at : item.start]))
        parts.append(mark(item))
        at = item.end
    parts.append(prose(value[at:]))
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
