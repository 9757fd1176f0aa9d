"""The loader's nesting pre-scan has a quick pass; it must reject exactly what the token
loop rejects (brackets inside strings, escaped quotes and unterminated strings included)."""

from __future__ import annotations

import re

import pytest

from rlkl import loader

DEEP = loader.MAX_DEPTH + 1
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|NaN|-?Infinity', re.DOTALL)


def _too_deep(text: str) -> bool:
    depth = 0
    for match in _TOKEN.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > loader.MAX_DEPTH:
                return True
        elif match.group() in "]}":
            depth = max(0, depth - 1)
    return False


CASES = [
    "[" * DEEP + "]" * DEEP,
    '["' + "[" * DEEP + '"]',
    '["\\"' + "[" * DEEP + '"]',
    '["\\\\"' + "[" * DEEP + '"]',
    '"unterminated ' + "[" * DEEP,
    '{"a": "x\\\\\\"' + "{" * DEEP + '"}',
    "]" * DEEP + "[" * loader.MAX_DEPTH,
    "[]" * DEEP,
    '[NaN, -Infinity, "' + "}" * DEEP + '"' + "[" * loader.MAX_DEPTH + "]",
    '"a\nb' + "[" * DEEP + '"',
]


@pytest.mark.parametrize("text", CASES)
def test_quick_pass_rejects_exactly_what_the_token_loop_rejects(text: str) -> None:
    try:
        loader._prescan(text, "x.json")
    except loader.LoadError as error:
        assert _too_deep(text)
        assert error.diagnostics[0].code == "RLKL110"
    else:
        assert not _too_deep(text)
