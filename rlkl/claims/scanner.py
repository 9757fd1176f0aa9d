"""Find every numeric mention in a prose string.

A mention is a number as an author wrote it: ``0.5``, ``+2``, ``−2.8`` (U+2212 minus),
``12.5%``, ``1e-3``, each number of a list ``[0.7,0.3]`` and each factor of ``1.2×2``.

Rules (documented in the README's authoring guide):

* A sign belongs to the number only when it is attached (``−2``, not ``− 2``) and does not
  follow a letter, digit or closing bracket (``r−1`` is a subtraction of 1).
* A number glued to a word is part of that word, not a mention: ``k1``, ``R1``, ``v1``,
  ``GPT-4``, ``3D``, ``2nd``. (A date such as 2026-10-25 is
  three mentions: exempt it.)
* Written precision is the number of digits after the decimal point (``1.40`` has 2);
  a percentage is scaled to a fraction (``12.5%`` is 0.125 with 3 decimals).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

MINUS = "\u2212"
SIGNS = "+-" + MINUS

_NUMBER = re.compile(
    r"(?P<sign>[+\-\u2212])?(?P<int>\d+)(?:\.(?P<frac>\d+))?(?:[eE](?P<exp>[+\-\u2212]?\d+))?"
    r"(?P<pct>%)?"
)
_WORD = re.compile(r"[A-Za-z_]")


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
    def sign(self) -> str:
        return self.text[0] if self.text[0] in SIGNS else ""


def _attached_sign(text: str, index: int) -> bool:
    """A sign at ``index`` is unary when nothing number-like stands right before it."""
    if index == 0:
        return True
    before = text[index - 1]
    return not (before.isalnum() or before in ")]_.")


def scan(pointer: str, text: str) -> list[Mention]:
    """Every numeric mention of ``text`` (the string at ``pointer``), left to right."""
    mentions: list[Mention] = []
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
            if before == "-" and start > 1 and text[start - 2].isalpha():
                continue  # hyphenated compound: GPT-4, top-5, R1-Zero
        if end < len(text) and (_WORD.match(text[end]) or text[end].isdigit()):
            continue  # glued to a word: 3D, 2nd
        if text[end : end + 1] == "." and text[end + 1 : end + 2].isdigit():
            continue  # a version or section number: 1.2.3
        frac = match.group("frac") or ""
        exp = int((match.group("exp") or "0").replace(MINUS, "-"))
        digits = f"{match.group('int')}.{frac}" if frac else match.group("int")
        value = Decimal(digits).scaleb(exp)
        decimals = max(len(frac) - exp, 0)
        if match.group("pct"):
            value = value.scaleb(-2)
            decimals += 2
        if sign in ("-", MINUS):
            value = -value
        mentions.append(Mention(pointer, start, end, text[start:end], value, decimals))
    return mentions


def format_number(value: float, like: Mention) -> str:
    """Write ``value`` the way ``like`` was written: its precision, sign style and percent."""
    percent = like.text.endswith("%")
    decimals = like.decimals - 2 if percent else like.decimals
    shown = Decimal(repr(float(value))) * (100 if percent else 1)
    quantum = Decimal(1).scaleb(-decimals)
    rounded = shown.quantize(quantum)
    body = f"{abs(rounded):f}" + ("%" if percent else "")
    if rounded < 0:
        return (like.sign if like.sign in ("-", MINUS) else MINUS) + body
    return ("+" if like.sign == "+" else "") + body
