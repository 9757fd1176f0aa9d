"""Render diagnostics for people (text), machines (json) and GitHub Actions (github).

One result feeds every format. The JSON shape is a public contract reused by ``rlkl check``
and ``rlkl regen``: exactly one object ``{"diagnostics": [...], "summary": {...}}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Literal

from rlkl.diagnostics import CODES, Diagnostic, Severity

Format = Literal["text", "json", "github"]
FORMATS: tuple[Format, ...] = ("text", "json", "github")

_RED, _YELLOW, _BOLD, _DIM, _RESET = "\033[31m", "\033[33m", "\033[1m", "\033[2m", "\033[0m"


def _safe(text: str) -> str:
    """Make text printable whatever the input held (lone surrogates become escapes)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# Characters that would end or corrupt a line of text output (C0/C1 controls, DEL, the
# Unicode line and paragraph separators): a file or folder name, a JSON key or a quoted
# sentence may hold any of them, and one diagnostic must stay one line.
_LINE_BREAKERS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def one_line(text: str) -> str:
    """``text`` with every control character escaped (``\\n``, ``\\x1b``, ``\\u2028``)."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        if char in _NAMED:
            return _NAMED[char]
        return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"

    return _LINE_BREAKERS.sub(escape, text)


def _summary_line(summary: Mapping[str, int]) -> str:
    counts = ", ".join(f"{value} {name}" for name, value in summary.items())
    return f"rlkl: {counts}"


def _text(diagnostics: Sequence[Diagnostic], summary: Mapping[str, int], color: bool) -> str:
    def paint(style: str, text: str) -> str:
        return f"{style}{text}{_RESET}" if color else text

    blocks: list[str] = []
    for _, group in groupby(diagnostics, key=lambda d: d.file):
        lines = []
        for d in group:
            warning = d.severity is Severity.WARNING
            code = paint(_YELLOW if warning else _RED, one_line(d.code))
            label = "warning: " if warning else ""
            where = paint(_BOLD, f"{one_line(d.file)}:{d.line}:{d.column}")
            pointer = paint(_DIM, one_line(d.pointer) or "(document)")
            lines.append(f"{where} {pointer} {code} {label}{one_line(d.message)}")
        blocks.append("\n".join(lines))
    blocks.append(_summary_line(summary))
    return "\n\n".join(blocks) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(diagnostics: Sequence[Diagnostic], summary: Mapping[str, int]) -> str:
    lines = []
    for d in diagnostics:
        level = "warning" if d.severity is Severity.WARNING else "error"
        props = (f"file={_escape_property(d.file)},line={d.line},col={d.column},"
                 f"title={_escape_property(d.code)}")
        message = _escape_data(f"{d.pointer or '(document)'} {d.message}")
        lines.append(f"::{level} {props}::{message}")
    lines.append(_summary_line(summary))
    return "\n".join(lines) + "\n"


def render(
    diagnostics: Sequence[Diagnostic],
    summary: Mapping[str, int],
    fmt: Format,
    *,
    color: bool = False,
) -> str:
    """Render ``diagnostics`` and ``summary`` as ``fmt`` (colour only applies to text)."""
    if fmt == "json":
        payload = {"diagnostics": [d.to_json() for d in diagnostics], "summary": dict(summary)}
        return _safe(json.dumps(payload, ensure_ascii=False, indent=None)) + "\n"
    if fmt == "github":
        return _safe(_github(diagnostics, summary))
    if fmt == "text":
        return _safe(_text(diagnostics, summary, color))
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def statistics(diagnostics: Sequence[Diagnostic]) -> list[dict[str, int | str]]:
    """``--statistics``: one row per code (count, code, name, severity), most frequent first,
    then by code. A code counts as an error when any of its diagnostics is one (a preview
    rule under ``preview = true``)."""
    counts: dict[str, list[int]] = {}
    for d in diagnostics:
        entry = counts.setdefault(d.code, [0, 0])
        entry[0] += 1
        entry[1] += d.severity is Severity.ERROR
    rows = [{"count": n, "code": key, "name": CODES[key].name if key in CODES else "",
             "severity": "error" if errors else "warning"}
            for key, (n, errors) in counts.items()]
    return sorted(rows, key=lambda row: (-int(row["count"]), str(row["code"])))


def render_statistics(
    diagnostics: Sequence[Diagnostic], summary: Mapping[str, int], fmt: Format
) -> str:
    """The ``--statistics`` view of a result: counts by code instead of the diagnostics
    (json: ``{"statistics": [...], "summary": {...}}``; text and github: a table)."""
    rows = statistics(diagnostics)
    if fmt == "json":
        payload = {"statistics": rows, "summary": dict(summary)}
        return _safe(json.dumps(payload, ensure_ascii=False)) + "\n"
    width = max((len(str(row["count"])) for row in rows), default=1)
    lines = [f"{row['count']:>{width}}  {row['code']}  [{row['severity']}]  {row['name']}"
             for row in rows]
    return _safe("\n".join([*lines, _summary_line(summary)])) + "\n"
