"""What a number is written with, defined once: the characters as runs (each a class of at
most two ranges), and the pattern of one number built from them.

The scanner (:mod:`rlkl.claims.prose.scanner`) reads mentions with the classes joined
(:func:`joined`); a template's number slot (:mod:`rlkl.claims.templates.matching`) matches with them
split into branches (:func:`split`); diagnostics shorten runs of these characters. This
module imports nothing of rlkl, so each of them can use it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

SIGN_RUNS = ("+\\-", "\u2010-\u2013\u2212", "\ufe63\uff0d")  # ASCII, dashes and U+2212, small/wide
EXPONENT_SIGN_RUNS = ("+\\-", "\u2212")
FRACTION_RUNS = ("\u00bc-\u00be\u2150-\u215e", "\u221e")  # ¼ ½ ¾, ⅐ … ⅞; and ∞
SUPERSCRIPT_RUNS = ("\u00b2\u00b3\u00b9", "\u2070\u2074-\u2079")  # the superscript digits
SUPERSCRIPT_MINUS = "\u207b"


def joined(runs: tuple[str, ...]) -> str:
    """One character class of every run: ``[ab]``."""
    return "[" + "".join(runs) + "]"


def split(runs: tuple[str, ...]) -> str:
    """The same class as branches, one per run: ``re`` compiles a class that mixes Latin-1
    with other characters into a 64K table (~0.1 ms); branches of at most two ranges it does
    not, and the look-behind that always holds after a character keeps it from merging them
    back into one class."""
    return "(?:" + "|".join(f"[{run}]" for run in runs) + "(?<=.))"


def number_pattern(classes: Callable[[tuple[str, ...]], str] = joined) -> str:
    """One number with no groups: a sign, digits with a point, an exponent and a percent;
    or a vulgar fraction, ∞, or superscript digits after an optional superscript minus."""
    return (
        rf"(?:{classes(SIGN_RUNS)}?(?:\d+(?:\.\d+)?|\.\d+)"
        rf"(?:[eE]{classes(EXPONENT_SIGN_RUNS)}?\d+)?%?"
        rf"|{classes(FRACTION_RUNS)}|{SUPERSCRIPT_MINUS}?{classes(SUPERSCRIPT_RUNS)}+)"
    )


def list_pattern(number: str) -> str:
    """A list of numbers as prose writes one: ``[0.7, 0.3]``."""
    return rf"\[\s*{number}(?:\s*,\s*{number})*\s*\]"


UNIT_PATTERN = r"nats?|bits?"
"""A unit of information, as a slot ``{u:unit}`` or a stated KL reads it."""
UNIT_BASES = {"nat": math.e, "bit": 2.0}
"""The base of the logarithm each unit of information is measured in."""
