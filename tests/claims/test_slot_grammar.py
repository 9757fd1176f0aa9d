"""The slot grammar of templates: ``pieces`` reads a template as the grammar says, character
by character (``rlkl.claims.templates.slots``)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from rlkl.claims.templates.slots import _SLOT, Piece, Slot, pieces  # the one slot pattern


def _character_by_character(says: str) -> tuple[Piece, ...]:
    """The grammar read one character at a time: an escape, a slot, a ``}}``, or a literal."""
    out: list[Piece] = []
    literal = ""
    i = 0
    while i < len(says):
        match = _SLOT.match(says, i)
        if says.startswith("{{", i):
            literal, i = literal + "{", i + 2
        elif match:
            out += [literal] if literal else []
            out.append(Slot(match.group(1), match.group(2) or "number"))
            literal, i = "", match.end()
        elif says.startswith("}}", i):
            literal, i = literal + "}", i + 2
        else:
            literal, i = literal + says[i], i + 1
    return (*out, literal) if literal else tuple(out)


TEMPLATES = st.lists(
    st.sampled_from(["{", "}", "{{", "}}", "a", "r", " ", ":", "_", "1", "list", "unit", "{r}",
                     "{A:list}", "{u:unit}", "{x:y}", "V_{t+", "é"]),
    max_size=12,
).map("".join)


@given(TEMPLATES)
@example("γV_{t+{one}} and {{r}} is {r}, {{{r}}}, {u:unit}}")
def test_pieces_reads_a_template_as_the_grammar_says(says: str) -> None:
    assert pieces.__wrapped__(says) == _character_by_character(says)
