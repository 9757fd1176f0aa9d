"""The number pattern of template slots matches exactly what its plain character classes say.

:data:`rlkl.claims.matching._NUM` is written for ``re`` to compile fast (classes split into
branches); these are the same classes written plainly, and the two must agree on every
string: where a match starts and ends, and every match ``finditer`` finds.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rlkl.claims import matching

PLAIN_NUM = (
    r"(?:[+\-\u2212\u2010-\u2013\ufe63\uff0d]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+\-\u2212]?\d+)?%?"
    r"|[\u00bc-\u00be\u2150-\u215e\u221e]|\u207b?[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+)"
)
PLAIN_LIST = rf"\[\s*{PLAIN_NUM}(?:\s*,\s*{PLAIN_NUM})*\s*\]"

# Every character the classes name, their neighbours just outside each range, and the
# characters numbers are written between.
ALPHABET = (
    "0123456789.eE%+-x ,[]\n\u0660\u00b4\u00b2\u00b3\u00b9\u00bb\u00bc\u00bd\u00be\u00bf"
    "\u200f\u2010\u2011\u2012\u2013\u2014\u2212\u2213\ufe62\ufe63\ufe64\uff0d\uff0e"
    "\u214f\u2150\u2155\u215e\u215f\u221d\u221e\u221f\u206f\u2070\u2071\u2073\u2074\u2079"
    "\u207a\u207b\u207c"
)
TEXTS = st.text(alphabet=ALPHABET, max_size=12)


def _same(fast: str, plain: str, text: str, flags: int) -> None:
    a, b = re.compile(fast, flags), re.compile(plain, flags)
    for position in range(len(text) + 1):
        one, other = a.match(text, position), b.match(text, position)
        assert (one and one.span()) == (other and other.span()), (text, position)
    assert [m.span() for m in a.finditer(text)] == [m.span() for m in b.finditer(text)]


@settings(max_examples=3000, deadline=None)
@given(TEXTS)
def test_the_slot_number_pattern_matches_like_its_plain_classes(text: str) -> None:
    for flags in (0, re.DOTALL):
        _same(matching._NUM, PLAIN_NUM, text, flags)


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_the_slot_list_pattern_matches_like_its_plain_classes(text: str) -> None:
    _same(matching._LIST, PLAIN_LIST, text, re.DOTALL)


def test_a_template_finds_every_kind_of_number_a_slot_takes() -> None:
    text = "values −2.5, ‐1e−3, 12.5%, ½, ∞ and ⁻³ here"
    says = "values {a}, {b}, {c}, {d}, {e} and {f} here"
    [found] = matching.find(says, "/x", text, [])
    assert [s.word for s in found.slots] == ["−2.5", "‐1e−3", "12.5%", "½", "∞", "⁻³"]
