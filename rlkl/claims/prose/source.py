"""Map characters of a decoded JSON string back to the file, for locations and splicing."""

from __future__ import annotations

import json

from rlkl.claims.prose.scanner import Mention
from rlkl.loader import Document, line_column, raw_offsets

__all__ = ["encode_like", "line_column", "locate", "mention_range", "raw_offsets", "splice"]


def mention_range(document: Document, mention: Mention) -> tuple[int, int]:
    """[start, end) offsets in ``document.text`` of the characters ``mention`` was written with."""
    start, offsets = document.string_offsets(mention.pointer)
    return start + offsets[mention.start], start + offsets[mention.end]


def locate(document: Document, mention: Mention) -> tuple[int, int]:
    """1-based (line, column) in the file of the first character of ``mention``."""
    return line_column(document.text, mention_range(document, mention)[0])


def encode_like(replacement: str, original_raw: str) -> str:
    """``replacement`` as JSON string content, escaped the way ``original_raw`` was."""
    ascii_only = "\\u" in original_raw
    return json.dumps(replacement, ensure_ascii=ascii_only)[1:-1]


def splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping ``(start, end, new)`` edits, bottom-up so offsets stay valid."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text
