"""The number pattern of template slots matches exactly what its plain character classes say,
and a template is found where its exact pattern finds it.

:data:`rlkl.claims.templates.matching._NUM` is the scanner's number written for ``re`` to
compile fast (classes split into branches); written with the classes joined, as the scanner reads
mentions, the two must agree on every string: where a match starts and ends, and every
match ``finditer`` finds. The search that compiles no pattern per template
(:mod:`rlkl.claims.templates.search`) is compared with the exact pattern
(:func:`rlkl.claims.templates.matching.exact_parser`) on templates written out with numbers and
near-numbers.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import parse
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rlkl import numerals
from rlkl.claims.templates import matching, search

PLAIN_NUM = numerals.number_pattern(numerals.joined)
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


FILLS = st.text(alphabet=ALPHABET + "abs", max_size=6)
PIECES = st.one_of(
    st.text(alphabet=ALPHABET + "abs×)(:;/.\\|?*^$#{}", min_size=1, max_size=4),
    st.sampled_from(["{a}", "{b}", "{a}", "{a:list}", "{u:unit}", "{_x}", "{a__2}", "{{", "}}"]),
)


@st.composite
def written(draw: st.DrawFn) -> tuple[str, str]:
    """A template and a text that writes it out once or twice, slots filled with numbers or
    near-numbers, between other characters."""
    parts = draw(st.lists(PIECES, min_size=1, max_size=5))
    says = "".join(parts)
    copies = []
    for _ in range(draw(st.integers(1, 2))):
        copy = [p if not p.startswith("{") or "}" not in p else draw(FILLS) for p in parts]
        copies.append(draw(FILLS) + "".join(copy))
    return says, "".join(copies) + draw(FILLS)


@settings(max_examples=3000, deadline=None)
@given(written())
@example(("({x}(", "(1(2("))  # the next search starts after the literal, not inside it
@example(("x {n}", "x 1.4. x 2e"))  # a last slot ends where its number ends
@example(("{a}{b}", "12.5e3"))  # adjacent slots: the first gives back digits to the second
@example(("{a}.5", "1.5.5"))  # a slot shorter than its longest reading, for the literal
@example(("{u:unit}s", "natss bits"))  # a unit shorter than its longest reading
@example(("{a} {a} {a__2}", "1 2 3"))  # a name like the alias of a repeated one
@example(("{_x} x", "5 x"))  # a name that starts with "_"
def test_the_template_search_finds_what_the_exact_pattern_finds(case: tuple[str, str]) -> None:
    says, text = case
    steps = matching._template(says)[0]
    exact = matching.exact_parser(says)
    assert search.findall(steps, text) == [
        r.spans for r in exact.findall(text) if r is not None
    ]


def test_a_template_search_compiles_no_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    """A template is searched without its exact pattern: neither ``parse`` nor ``re``
    compiles anything."""

    def compile_refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a template's pattern was compiled")

    monkeypatch.delenv("RLKL_REFERENCE", raising=False)
    monkeypatch.setattr(parse, "compile", compile_refused)
    monkeypatch.setattr(re, "_compile", compile_refused)  # what re.compile, re.search... call
    says = "the ratio is {ratio}, so min({ratio}×{A}, {h:list}) here, searched once"
    text = "so the ratio is −1.4, so min(−1.4×2, [1, 2]) here, searched once"
    [found] = matching.find(says, "/x", text, [])
    assert [s.word for s in found.slots] == ["−1.4", "−1.4", "2", "[1, 2]"]


SLOT_TEXTS = st.text(alphabet=ALPHABET + "natbis", max_size=12)  # units too


FOLLOWING = st.sampled_from(["", " ", "s", "x", ".", "e", "%", "1", "11", " x", "]", "−"])


@settings(max_examples=3000, deadline=None)
@given(SLOT_TEXTS, st.sampled_from(sorted(matching._SLOT_ENDS)), FOLLOWING)
@example("nats bits", "unit", "")  # a unit has a shorter end
@example("natss", "unit", "s")  # ... that the literal after it may need
@example("−1.25e−3% x", "number", "")
@example("1111 x", "number", "1")  # a literal written at several ends, also overlapping
@example("1.1.1", "number", ".")
def test_a_slot_tries_every_end_its_pattern_has_longest_first(
    text: str, kind: str, following: str
) -> None:
    """What each slot kind's ends are taken to be, against every end its pattern has that
    the literal after the slot is written at."""
    pattern = matching._SLOT_PATTERNS[kind]
    for at in range(len(text) + 1):
        every = [e for e in range(len(text), at, -1)
                 if pattern.fullmatch(text, at, e) and text.startswith(following, e)]
        assert list(matching._SLOT_ENDS[kind](text, at, following)) == every, (text, at)


@pytest.mark.parametrize("reference", ["", "1"])
@pytest.mark.parametrize(
    ("says", "text", "words"),
    [
        ("{a} {a} {a__2}", "so 1 2 3", ["1", "2", "3"]),
        ("ratio {_r} here", "the ratio 1.5 here", ["1.5"]),
    ],
)
def test_any_slot_name_is_found_on_either_path(
    says: str, text: str, words: list[str], reference: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slot named like another's internal alias, or starting with "_", is found, and by
    the reference path too (the exact pattern once took "_r" for an unnamed field)."""
    monkeypatch.setenv("RLKL_REFERENCE", reference)
    [found] = matching.find(says, "/x", text, [])
    assert [s.word for s in found.slots] == words


@pytest.mark.parametrize("reference", ["", "1"])
def test_a_template_with_any_number_of_slots_is_found(
    reference: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,500 slots: the search keeps no stack frame per slot (the depth-first search once
    recursed per slot and raised RecursionError past ~1,000)."""
    monkeypatch.setenv("RLKL_REFERENCE", reference)
    says = " ".join(f"{{a{i}}}" for i in range(1500))
    [found] = matching.find(says, "/x", " ".join(str(i) for i in range(1500)), [])
    assert [s.word for s in found.slots] == [str(i) for i in range(1500)]


def _counted(says: str, tried: Counter[tuple[str, int]]) -> list[search.Step]:
    """The template's steps, each slot counting the positions its ends are asked for at."""

    def counting(step: search.SlotStep) -> search.SlotStep:
        def ends(text: str, at: int, following: str) -> object:
            tried[(step.alias, at)] += 1
            return step.ends(text, at, following)

        return dataclasses.replace(step, ends=ends)

    steps = matching._template(says)[0]
    return [counting(s) if isinstance(s, search.SlotStep) else s for s in steps]


BACKTRACKING = [
    ("{a}{b}{c}x", "0, " + "1" * 120 + "y x"),
    ("{a}, {b}{c} x", "0, " + "1" * 120 + "y x"),
    ("{a}e{b}e{c}e{d}e{e}e{f}e{g}e{h}e{i}e{j} x", "1e" * 40 + "1 y"),  # two ends each: 2^10
]


@pytest.mark.parametrize(("says", "text"), BACKTRACKING)
def test_a_slot_is_tried_once_at_a_position(says: str, text: str) -> None:
    """A slot that found no way on at a position is not tried there again: plain
    backtracking (and ``re``) tries a slot at a position once for every way the slots before
    it can end there: ~n^2 times after two adjacent slots against n digits, 2^k times after
    k slots that each have two ends ("1e1" and "1" before an "e")."""
    tried: Counter[tuple[str, int]] = Counter()
    assert search.findall(_counted(says, tried), text) == [
        r.spans for r in matching.exact_parser(says).findall(text) if r is not None
    ]
    assert max(tried.values()) == 1


@pytest.mark.parametrize(("says", "text"), [(s, t[:60]) for s, t in BACKTRACKING])
def test_a_search_that_remembers_nothing_finds_the_same(
    says: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`search.REMEMBERED` failures the search remembers no more (its
    memory is bounded); it is slower, not different."""
    monkeypatch.setattr(search, "REMEMBERED", 0)
    assert search.findall(matching._template(says)[0], text) == [
        r.spans for r in matching.exact_parser(says).findall(text) if r is not None
    ]


@pytest.mark.parametrize("digit", ["1", "\u0663", "\u00b2", "\u2070"])  # 1, ٣, ², ⁰
def test_a_number_slot_that_failed_at_a_digit_is_not_tried_again_in_that_run(digit: str) -> None:
    """A template that starts with a number slot and fails at the first digit of a run (of
    decimal digits, or of superscripts) fails at every later digit of it; those starts are
    not tried (each would read the run again: quadratic in its length), and what is found is
    what the exact pattern finds."""
    tried: Counter[tuple[str, int]] = Counter()
    says = "{a} parameters"
    text = "has 423 parameters; " + digit * 5000 + " worked, 7 parameters"
    found = search.findall(_counted(says, tried), text)
    assert found == [r.spans for r in matching.exact_parser(says).findall(text) if r is not None]
    assert [text[slice(*spans["s1"])] for spans in found] == [" 423", " 7"]  # sign: " "
    # the space before each number (a sign), and of the run of 5,000 its first digit
    assert sorted(at for _, at in tried) == [3, 19, 20, 5028]
