"""Find every numeric mention in a prose string.

A mention is a number as an author wrote it: ``0.5``, ``+2``, ``−2.8`` (U+2212 minus),
``12.5%``, ``1e-3``, each number of a list ``[0.7,0.3]`` and each factor of ``1.2×2``.

Rules (documented in the authoring guide (site/docs/guide/authoring.md)):

* A sign belongs to the number only when it is attached (``−2``, not ``− 2``) and does not
  follow a letter, digit or closing bracket (``r−1`` is a subtraction of 1).
* A number glued to a word is part of that word, not a mention: ``k1``, ``R1``, ``v1``,
  ``GPT-4``, ``3D``, ``2nd``. (A date such as 2026-10-25 is
  three mentions: exempt it.)
* Index notation is not a number: an integer inside a subscript (``V_{t+1}``, ``x_{12}``)
  or added to an index letter (``t+1``, ``k−1``; the letters i, j, k, n, t).
* Written precision is the number of digits after the decimal point (``1.40`` has 2);
  a percentage is scaled to a fraction (``12.5%`` is 0.125 with 3 decimals).
* Dash look-alikes attached to a number are minus signs (``–2`` with an en dash is −2),
  ``.5`` is 0.5, and the symbols ``½ ¼ ¾ …``, superscripts (``²``, ``⁻³``) and ``∞`` are
  numbers too: nothing that reads as a number escapes the coverage rule.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, localcontext

from rlkl.numerals import (
    EXPONENT_SIGN_RUNS,
    FRACTION_RUNS,
    SIGN_RUNS,
    SUPERSCRIPT_MINUS,
    SUPERSCRIPT_RUNS,
    joined,
)

MINUS = "\u2212"
# hyphen, non-breaking hyphen, figure dash, en dash, small minus, fullwidth minus
DASHES = "\u2010\u2011\u2012\u2013\ufe63\uff0d"
MINUSES = "-" + MINUS + DASHES
SIGNS = "+" + MINUSES
MAX_DECIMALS = 300
# Decimal arithmetic on whatever an author writes (1e-999999999 included) never traps.
WIDE = Context(prec=1000, Emax=MAX_EMAX, Emin=MIN_EMIN)

_SIGN = joined(SIGN_RUNS)
# The lookahead (a number starts with a sign, a digit or a point) changes no match; it lets
# the regex engine skip to such a character instead of trying the pattern at every one (~3x).
_NUMBER_BODY = (
    rf"(?P<sign>{_SIGN})?(?:(?P<int>\d+)(?:\.(?P<frac>\d+))?|\.(?P<lead>\d+))"
    rf"(?:[eE](?P<exp>{joined(EXPONENT_SIGN_RUNS)}?\d+))?(?P<pct>%)?"
)
_STARTS = joined((*SIGN_RUNS, ".", r"\d"))  # a sign, a point or a digit
_NUMBER = re.compile(f"(?={_STARTS})" + _NUMBER_BODY)
_FRACTIONS = "".join(FRACTION_RUNS)
SUPERSCRIPTS = "".join(SUPERSCRIPT_RUNS)  # the superscript digits, as the inside of a class
_SYMBOL = re.compile(
    rf"{joined(FRACTION_RUNS)}|{SUPERSCRIPT_MINUS}?{joined(SUPERSCRIPT_RUNS)}+")
_SUPERSCRIPT = str.maketrans(
    "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b", "0123456789-"
)
_WORD = re.compile(r"[A-Za-z_]")
# One character class each, searched at C speed: a text without a digit or a symbol has no
# mention, and only a text with a symbol is searched for symbols.
_SYMBOL_CHAR = re.compile(rf"[{_FRACTIONS}{SUPERSCRIPTS}]")
_ANY_NUMBER = re.compile(rf"[\d{_FRACTIONS}{SUPERSCRIPTS}]")


@dataclass(frozen=True)
class Mention:
    """One number written in a prose string at ``pointer``, ``text[start:end]``."""

    pointer: str
    start: int
    end: int
    text: str
    value: Decimal  # the exact decimal written (sign applied, percent scaled to a fraction)
    decimals: int  # written precision of ``value`` (percent adds 2)

    @property
    def key(self) -> tuple[str, int]:
        return (self.pointer, self.start)

    @property
    def number(self) -> float:
        return float(self.value)

    @property
    def percent(self) -> bool:
        return self.text.endswith("%")

    @property
    def sign(self) -> str:
        return self.text[0] if self.text[0] in SIGNS else ""


def _attached_sign(text: str, index: int) -> bool:
    """A sign at ``index`` is unary when nothing number-like stands right before it."""
    if index == 0:
        return True
    before = text[index - 1]
    return not (before.isalnum() or before in ")]_.")


def _symbol(pointer: str, match: re.Match[str]) -> Mention:
    """``½``, ``²``, ``⁻³`` or ``∞`` as a mention (exact value, as precise as it is)."""
    written = match.group()
    if written == "\u221e":
        value, decimals = Decimal("Infinity"), 0
    elif written[-1] in "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079":
        value, decimals = Decimal(written.translate(_SUPERSCRIPT)), 0
    else:
        value, decimals = Decimal(repr(unicodedata.numeric(written))), 12
    return Mention(pointer, match.start(), match.end(), written, value, decimals)


_INDEX_LETTERS = "ijknt"


def _notation(text: str, start: int, end: int, whole: bool) -> bool:
    """Whether the integer at ``text[start:end]`` is index notation, not a number."""
    if not whole:
        return False
    brace = text.rfind("{", 0, start)
    if brace >= 1 and text[brace - 1] == "_" and "}" not in text[brace:start]:
        return "}" in text[end : end + 40]
    return (
        start >= 2
        and text[start - 1] in SIGNS
        and text[start - 2] in _INDEX_LETTERS
        and (start == 2 or not text[start - 3].isalnum())
    )


def scan(pointer: str, text: str) -> list[Mention]:
    """Every numeric mention of ``text`` (the string at ``pointer``), left to right."""
    if not _ANY_NUMBER.search(text):
        return []
    symbols = _SYMBOL.finditer(text) if _SYMBOL_CHAR.search(text) else ()
    mentions = [_symbol(pointer, m) for m in symbols]
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        sign = match.group("sign") or ""
        if sign and not _attached_sign(text, start):
            start += 1
            sign = ""
        if start > 0:
            before = text[start - 1]
            if before.isalnum() or before in "_.":
                continue  # part of a word or identifier: k1, R1, v1, 1.2.3
            if before in "-" + DASHES and start > 1 and text[start - 2].isalpha():
                continue  # hyphenated compound: GPT-4, top-5, R1-Zero
        if end < len(text) and (_WORD.match(text[end]) or text[end].isdigit()):
            continue  # glued to a word: 3D, 2nd
        if text[end : end + 1] == "." and text[end + 1 : end + 2].isdigit():
            continue  # a version or section number: 1.2.3
        frac = match.group("frac") or match.group("lead") or ""
        whole = not frac and not match.group("exp") and not match.group("pct")
        if _notation(text, start, end, whole):
            continue  # V_{t+1}, t+1: an index, not a claim
        exp = int((match.group("exp") or "0").replace(MINUS, "-"))
        digits = f"{match.group('int') or '0'}.{frac}" if frac else match.group("int")
        if match.group("pct"):
            exp -= 2
        value = Decimal(f"{digits}e{exp}")  # exact: the constructor ignores the context
        decimals = min(max(len(frac) - exp, 0), MAX_DECIMALS)
        if sign and sign != "+":
            value = -value
        mentions.append(Mention(pointer, start, end, text[start:end], value, decimals))
    return sorted(mentions, key=lambda m: m.start)


def format_number(value: float, like: Mention) -> str:
    """Write ``value`` the way ``like`` was written: its precision, sign style and percent.

    Exact at any magnitude (the arithmetic runs in a 1000-digit context, so 10^28 and above
    keep their written decimals). ``ValueError`` for ±inf and NaN, which have no decimals.
    """
    if not math.isfinite(value):
        raise ValueError(f"{value} cannot be written as a number with decimals")
    percent = like.text.endswith("%")
    decimals = like.decimals - 2 if percent else like.decimals
    with localcontext(WIDE):
        shown = Decimal(repr(float(value))) * (100 if percent else 1)
        rounded = shown.quantize(Decimal(1).scaleb(-max(decimals, 0)))
        body = f"{abs(rounded):f}" + ("%" if percent else "")
    if rounded < 0:
        return (like.sign if like.sign and like.sign != "+" else MINUS) + body
    return ("+" if like.sign == "+" else "") + body
