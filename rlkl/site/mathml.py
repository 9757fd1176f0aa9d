"""LaTeX equations to MathML at build time (no TeX reaches the reader, no script runs).

Conversion by ``latex2mathml`` (https://github.com/roniemartinez/latex2mathml); browsers
render MathML Core natively, so the page needs no math library and no network.

The converter copies ``\\text{...}`` verbatim and turns ``\\href`` into an attribute, so its
output is not trusted: it is parsed as XML and written out again keeping only MathML
presentation elements and layout attributes. An equation holding any other element (a
``<script>`` in ``\\text``, say) is refused, never published.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Callable

from markupsafe import Markup

NS = "http://www.w3.org/1998/Math/MathML"
ELEMENTS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
    "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd",
    "mstyle", "mpadded", "mphantom", "menclose", "mmultiscripts", "mprescripts", "none",
    "merror",
})
ATTRIBUTES = frozenset({
    "display", "stretchy", "fence", "form", "columnalign", "mathvariant", "accent",
    "accentunder", "movablelimits", "lspace", "rspace", "width", "height", "depth",
    "linethickness", "displaystyle", "scriptlevel", "separator", "minsize", "maxsize",
    "symmetric", "largeop", "notation", "columnspacing", "rowspacing", "columnlines",
    "rowlines", "frame", "framespacing", "equalrows", "equalcolumns", "align", "rowalign",
    "columnspan", "rowspan", "mathsize",
})


class MathError(ValueError):
    """An equation that cannot be rendered safely; the message says why."""


def _clean(element: ET.Element) -> ET.Element:
    tag = element.tag.removeprefix("{" + NS + "}")
    if tag not in ELEMENTS:
        raise MathError(f"the equation produces a <{tag}> element, which is not MathML")
    copy = ET.Element(tag, {k: v for k, v in element.attrib.items() if k in ATTRIBUTES})
    copy.text = element.text
    copy.tail = element.tail
    copy.extend([_clean(child) for child in element])
    return copy


_SPACES = ("\\qquad", "\\quad")


def relations(latex: str) -> list[str]:
    """``latex`` cut at its top-level ``\\quad`` and ``\\qquad`` (outside braces and
    ``\\left … \\right``): the parts a page sets side by side, which wrap on a narrow
    screen instead of running off it. One part when there is no such space."""
    return _cut(latex, lambda text, i: next(
        (len(s) for s in _SPACES if text.startswith(s, i)
         and not text[i + len(s): i + len(s) + 1].isalpha()), 0), keep=False)


def sides(relation: str) -> list[str]:
    """A relation cut after each top-level ``=`` (``a=``, ``b=``, ``c``): where a relation
    too wide for a phone breaks, as a typesetter breaks a long display."""
    return _cut(relation, lambda text, i: 1 if text[i] == "=" else 0, keep=True)


def _cut(latex: str, at: Callable[[str, int], int], *, keep: bool) -> list[str]:
    """``latex`` cut where ``at`` (the length of the separator at an index, 0 for none)
    finds a separator at the top level; ``keep``: the separator ends the part before."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(latex):
        char = latex[i]
        size = at(latex, i) if depth == 0 else 0
        if size:
            parts.append(latex[start : i + size] if keep else latex[start:i])
            i = start = i + size
            continue
        if char == "\\":
            if latex.startswith("\\left", i) and not latex[i + 5: i + 6].isalpha():
                depth += 1
            elif latex.startswith("\\right", i) and not latex[i + 6: i + 7].isalpha():
                depth -= 1
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        i += 1
    parts.append(latex[start:])
    return [part.strip() for part in parts if part.strip()]


@functools.lru_cache(maxsize=4096)
def to_mathml(latex: str, display: str = "block") -> Markup:
    """``latex`` as a ``<math>`` element (``display`` block, or inline: notation an author
    marks in prose); raises :class:`MathError` when it cannot. Remembered by its text (a
    pure function of it): an equation a corpus writes again, and every equation of a
    rebuild in ``rlkl site serve``, is converted once."""
    from latex2mathml.converter import convert

    try:
        rendered = convert(latex, display=display)
    except Exception as error:  # latex2mathml raises many types for malformed input
        raise MathError(f"LaTeX not understood ({type(error).__name__}: {error})") from None
    if "<!" in rendered or "<?" in rendered:
        raise MathError("the equation holds markup declarations")
    try:
        root = ET.fromstring(rendered)
    except ET.ParseError as error:
        raise MathError(f"the equation holds markup that is not MathML ({error})") from None
    clean = _clean(root)
    clean.set("xmlns", NS)
    out = ET.tostring(clean, encoding="unicode", short_empty_elements=False)
    if "\\" in "".join(clean.itertext()):
        raise MathError("LaTeX commands were left unrendered")
    return Markup(out)
