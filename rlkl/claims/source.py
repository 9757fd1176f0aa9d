"""Map characters of a decoded JSON string back to the file, for locations and splicing."""

from __future__ import annotations

import json

from rlkl.claims.scanner import Mention
from rlkl.loader import Document


def raw_offsets(token: str) -> list[int]:
    """For a JSON string token (quotes included): raw offset of each decoded character.

    The list has one entry per decoded character plus one for the end, so that a decoded
    span ``[s, e)`` is the raw span ``[offsets[s], offsets[e])``. Escapes (``\\n``,
    ``\\u2212``, surrogate pairs) are one decoded character each.
    """
    offsets: list[int] = []
    i, end = 1, len(token) - 1
    while i < end:
        offsets.append(i)
        if token[i] != "\\":
            i += 1
        elif token[i + 1] != "u":
            i += 2
        else:
            high = int(token[i + 2 : i + 6], 16)
            pair = token[i + 6 : i + 8] == "\\u" and 0xD800 <= high < 0xDC00
            i += 12 if pair else 6
    offsets.append(end)
    return offsets


def mention_range(document: Document, mention: Mention) -> tuple[int, int]:
    """[start, end) offsets in ``document.text`` of the characters ``mention`` was written with."""
    start, end = document.value_range(mention.pointer)
    offsets = raw_offsets(document.text[start:end])
    return start + offsets[mention.start], start + offsets[mention.end]


def locate(document: Document, mention: Mention) -> tuple[int, int]:
    """1-based (line, column) in the file of the first character of ``mention``."""
    return line_column(document.text, mention_range(document, mention)[0])


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a 0-based character offset in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def encode_like(replacement: str, original_raw: str) -> str:
    """``replacement`` as JSON string content, escaped the way ``original_raw`` was."""
    ascii_only = "\\u" in original_raw
    return json.dumps(replacement, ensure_ascii=ascii_only)[1:-1]


def splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping ``(start, end, new)`` edits, bottom-up so offsets stay valid."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text
