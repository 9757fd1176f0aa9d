"""Strict JSON loading that keeps source positions.

:func:`load_json` reads a file as UTF-8 JSON and refuses anything a careless editor or a
hostile input could slip past a lenient parser: a byte-order mark, invalid UTF-8, an empty
file, a file over :data:`MAX_BYTES`, nesting deeper than :data:`MAX_DEPTH`, trailing data,
trailing commas, duplicate keys and the non-standard constants ``NaN``/``Infinity``. Every
refusal is a :class:`~rlkl.diagnostics.Diagnostic` with line and column, raised inside a
:class:`LoadError`; no input bytes make it raise anything else.

Parsing is stdlib :mod:`json`; positions (JSON pointer -> offsets) come from the
``json-source-map`` package. Lines and columns are 1-based and columns count characters.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from rlkl.diagnostics import Diagnostic

MAX_BYTES: int = 1024 * 1024
"""Largest file accepted (1 MiB): a lesson is prose, not a data dump."""

MAX_DEPTH: int = 64
"""Deepest nesting of arrays/objects accepted (a lesson needs about 4)."""

_BOM = b"\xef\xbb\xbf"
_WS = re.compile(r"[ \t\n\r]*")
# Tokens that matter for the pre-scan: whole strings (skipped), brackets and bare constants.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|NaN|-?Infinity', re.DOTALL)
# The strings and brackets of _TOKEN, for the quick pass of _prescan: the same strings,
# written as an unrolled loop (runs of plain characters matched at once).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class LoadError(Exception):
    """A file could not be loaded; ``diagnostics`` says where and why (at least one)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(f"{d.code} {d.message}" for d in diagnostics))
        self.diagnostics = diagnostics


def display_path(path: Path) -> str:
    """``path`` as shown in diagnostics: relative to the working directory when possible, posix.

    A path below the working directory with no ``..`` is the rest of its text (what
    ``os.path.relpath`` gives for it, without the normalising: a ``Path`` is already normal).
    """
    if not path.is_absolute():
        return path.as_posix()
    text, here = str(path), os.getcwd()
    posix = os.sep == "/" and ".." not in path.parts
    if posix and here != "/" and text.startswith(here + "/"):
        return text[len(here) + 1:]
    if posix and path.name and not f"{here}/".startswith(f"{text}/"):  # elsewhere, not above:
        # its folder's relative path (each folder's worked out once) and its name
        folder = _relative_folder(str(path.parent), here)
        return path.name if folder == "." else f"{folder}/{path.name}"
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # pragma: no cover - another drive on Windows
        return path.as_posix()


@lru_cache(maxsize=4096)
def _relative_folder(folder: str, here: str) -> str:
    """``os.path.relpath(folder, here)`` for an absolute, normal posix folder: its parent's
    (cached: the lessons of a corpus share their parents) and its name, unless ``here`` is
    ``folder`` or inside it (then ``.``, ``..``, ...: asked of ``relpath``)."""
    parent, name = os.path.split(folder)
    if not name or f"{here}/".startswith(f"{folder}/"):
        return Path(os.path.relpath(folder, here)).as_posix()
    up = _relative_folder(parent, here)
    return name if up == "." else f"{up}/{name}"


def escape_token(token: str) -> str:
    """Escape one RFC 6901 reference token (``~`` -> ``~0``, ``/`` -> ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer_tokens(pointer: str) -> list[str]:
    """Split an RFC 6901 pointer into its unescaped tokens (``""`` -> ``[]``)."""
    if not pointer:
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def join_pointer(pointer: str, *tokens: str | int) -> str:
    """``pointer`` extended by ``tokens`` (escaped)."""
    return pointer + "".join("/" + escape_token(str(t)) for t in tokens)


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of the 0-based character ``offset`` in ``text`` (clamped to the
    text): the one definition of a location, for JSON and YAML files alike."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


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


@dataclass(frozen=True)
class Document:
    """A parsed JSON file with its source text, able to locate any JSON pointer in it."""

    path: Path
    display: str
    text: str
    data: Any
    _map: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def _entries(self) -> dict[str, Any]:
        if self._map:
            return self._map
        from json_source_map import calculate  # only when a position is asked for (~25 ms)

        return dict(calculate(self.text))

    def _entry(self, pointer: str) -> tuple[str, Any]:
        """The source-map entry of ``pointer`` or, failing that, of its nearest ancestor."""
        tokens = pointer_tokens(pointer)
        # json-source-map keys its entries by unescaped tokens joined with "/".
        while tokens:
            found = self._entries.get("/" + "/".join(tokens))
            if found is not None:
                return "/" + "/".join(tokens), found
            tokens.pop()
        return "", self._entries[""]

    def offset(self, pointer: str, *, key: bool = False) -> int:
        """0-based character offset of the value at ``pointer`` (or of its key)."""
        wanted = "/" + "/".join(pointer_tokens(pointer)) if pointer else ""
        found_at, entry = self._entry(pointer)
        if key and found_at == wanted and entry.key_start is not None:
            return int(entry.key_start.position)
        return int(entry.value_start.position)

    def locate(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """1-based (line, column) of the value at ``pointer``, or of its member key with
        ``key=True``; a pointer that does not exist locates its nearest existing ancestor."""
        return line_column(self.text, self.offset(pointer, key=key))

    @cached_property
    def _offsets(self) -> dict[str, tuple[int, list[int]]]:
        return {}

    def string_offsets(self, pointer: str) -> tuple[int, list[int]]:
        """The string at ``pointer``: its token's start offset and :func:`raw_offsets`,
        computed once per string, so locating every number of a long string is linear."""
        if pointer not in self._offsets:
            start, end = self.value_range(pointer)
            self._offsets[pointer] = (start, raw_offsets(self.text[start:end]))
        return self._offsets[pointer]

    def value_range(self, pointer: str) -> tuple[int, int]:
        """``[start, end)`` character offsets of the value's token (strings include quotes)."""
        _, entry = self._entry(pointer)
        return int(entry.value_start.position), int(entry.value_end.position)

    def diagnostic(self, pointer: str, code: str, message: str, *, key: bool = False) -> Diagnostic:
        """A diagnostic for this file located at ``pointer`` (at its key with ``key=True``);
        its severity is its code's (:data:`rlkl.diagnostics.CODES`)."""
        line, column = self.locate(pointer, key=key)
        return Diagnostic(self.display, line, column, pointer, code, message)


class _Pairs(dict[str, Any]):
    """A JSON object that remembers which member indexes repeated an earlier key."""

    repeats: list[tuple[str, int]]


class _Constant:
    """Placeholder for ``NaN``/``Infinity``/``-Infinity`` found while parsing."""

    def __init__(self, name: str) -> None:
        self.name = name


def _object_hook(pairs: list[tuple[str, Any]]) -> _Pairs:
    result = _Pairs()
    result.repeats = []
    for index, (name, value) in enumerate(pairs):
        if name in result:
            result.repeats.append((name, index))
        result[name] = value
    return result


def _fail(display: str, text: str, offset: int, code: str, message: str) -> LoadError:
    line, column = line_column(text, offset)
    return LoadError([Diagnostic(display, line, column, "", code, message)])


def decode_strict(raw: bytes, display: str, *, code: str | None = None) -> str:
    """The text of a file's bytes, read strictly, as every file rlkl reads is: at most
    :data:`MAX_BYTES` (RLKL104), no byte-order mark (RLKL102), valid UTF-8 (RLKL101, located
    at the first bad byte). ``code`` reports all three under another file kind's code (the
    bindings' RLKL601). Raises :class:`LoadError` only."""
    if len(raw) > MAX_BYTES:
        raise LoadError([Diagnostic(display, 1, 1, "", code or "RLKL104",
                                    f"file is {len(raw)} bytes; the limit is {MAX_BYTES}")])
    if raw.startswith(_BOM):
        raise LoadError([Diagnostic(display, 1, 1, "", code or "RLKL102",
                                    "file starts with a UTF-8 byte-order mark; save it as "
                                    "UTF-8 without BOM")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        last_line = before[before.rfind(b"\n") + 1 :]
        column = len(last_line.decode("utf-8", errors="replace")) + 1
        bad = raw[error.start : error.end].hex(" ")
        raise LoadError([Diagnostic(display, line, column, "", code or "RLKL101",
                                    f"file is not valid UTF-8: byte {error.start} "
                                    f"(0x{bad}) {error.reason}; save the file as UTF-8")]) from None


def _max_depth(brackets: str) -> int:
    """The deepest nesting of a string of brackets (an extra closer counts as none)."""
    depth = deepest = 0
    for bracket in brackets:
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(0, depth - 1)
    return deepest


def _data_depth(value: Any) -> int:
    """How deeply the arrays and objects of parsed JSON nest (0 for a scalar), level by level:
    the nesting depth of the text it was parsed from."""
    depth, level = 0, [value]
    while True:
        containers = [v for v in level if isinstance(v, (dict, list))]
        if not containers:
            return depth
        depth += 1
        level = [c for v in containers for c in (v.values() if isinstance(v, dict) else v)]


def _prescan(text: str, display: str) -> None:
    """Reject nesting deeper than MAX_DEPTH, located at the first bracket too deep."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # fewer openers than the limit: no nesting can exceed it
    if _max_depth("".join(_BRACKETS.findall(_STRING.sub("", text)))) <= MAX_DEPTH:
        return  # the same brackets the loop below counts (strings removed in C): fine
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _fail(display, text, match.start(), "RLKL110",
                            f"nesting deeper than {MAX_DEPTH} levels of arrays/objects")
        elif token in "]}":
            depth = max(0, depth - 1)


_SYNTAX_HINTS = {
    "Invalid control character at": "raw control character (line break or tab) inside a "
    "string; write it as \\n or \\t",
    "Unterminated string starting at": "string is never closed (missing \"?)",
    "Expecting value": "expected a value (string, number, object, array, true, false, null)",
}


def _syntax_error(error: json.JSONDecodeError, text: str, display: str) -> LoadError:
    if error.msg == "Extra data":
        return _fail(display, text, error.pos, "RLKL106",
                     "unexpected data after the end of the JSON document")
    if error.msg.startswith("Illegal trailing comma"):  # Python >= 3.13 points at the comma
        return _fail(display, text, error.pos, "RLKL107",
                     "trailing comma: JSON allows no comma before a closing bracket")
    before = text[: error.pos].rstrip(" \t\r\n")
    if text[error.pos : error.pos + 1] in ("]", "}") and before.endswith(","):
        return _fail(display, text, len(before) - 1, "RLKL107",
                     "trailing comma: JSON allows no comma before a closing bracket")
    message = _SYNTAX_HINTS.get(error.msg, error.msg)
    return _fail(display, text, error.pos, "RLKL105", f"invalid JSON: {message}")


def _skip_ws(text: str, index: int) -> int:
    match = _WS.match(text, index)
    return match.end() if match else index


def _member_key_offsets(text: str, start: int) -> Iterator[int]:
    """Offsets of each member key (its opening quote) of the valid object at ``start``."""
    decoder = json.JSONDecoder(parse_constant=_Constant)
    index = _skip_ws(text, start + 1)
    while text[index] == '"':
        yield index
        _, index = json.decoder.scanstring(text, index + 1)  # type: ignore[attr-defined]
        index = _skip_ws(text, _skip_ws(text, index) + 1)  # past the ":"
        _, index = decoder.raw_decode(text, index)
        index = _skip_ws(text, index)
        if text[index] != ",":
            return
        index = _skip_ws(text, index + 1)


def _walk(value: Any, pointer: str) -> Iterator[tuple[str, Any]]:
    yield pointer, value
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _walk(item, join_pointer(pointer, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, join_pointer(pointer, index))


def _content_errors(document: Document) -> list[Diagnostic]:
    """Duplicate keys and non-finite constants, located in the parsed document."""
    problems: list[Diagnostic] = []
    for pointer, value in _walk(document.data, ""):
        if isinstance(value, _Pairs) and value.repeats:
            offsets = list(_member_key_offsets(document.text, document.offset(pointer)))
            for name, index in value.repeats:
                at = join_pointer(pointer, name)
                line, column = line_column(document.text, offsets[index])
                problems.append(Diagnostic(document.display, line, column, at, "RLKL108",
                                           f'duplicate key "{name}": a JSON object may name '
                                           "each key once (the earlier value would be lost)"))
        elif isinstance(value, _Constant):
            problems.append(document.diagnostic(
                pointer, "RLKL109",
                f"{value.name} is not a JSON number; write a finite number"))
    return problems


def _plain(value: Any) -> Any:
    """Replace the parser's helper types by plain dicts (only called on clean documents)."""
    if isinstance(value, dict):
        return {name: _plain(item) for name, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def parse_json(raw: bytes, path: Path, display: str | None = None) -> Document:
    """Parse ``raw`` bytes strictly as the content of ``path`` (see :func:`load_json`)."""
    shown = display if display is not None else display_path(path)
    text = decode_strict(raw, shown)
    if not text.strip(" \t\r\n"):
        raise LoadError([Diagnostic(shown, 1, 1, "", "RLKL103",
                                    "file is empty; a lesson is one JSON object")])
    suspect: list[bool] = []  # a repeated key or a NaN/Infinity was parsed

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            suspect.append(True)
        return result

    def constant(name: str) -> _Constant:
        suspect.append(True)
        return _Constant(name)

    # Nesting too deep is reported before anything else is (RLKL110). The C parser is safe
    # at any depth (a RecursionError), so it runs first and the text is scanned only when
    # it failed or nests too deep: the common document is never scanned.
    try:
        data = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=constant)
    except json.JSONDecodeError as error:
        _prescan(text, shown)
        raise _syntax_error(error, text, shown) from None
    except ValueError as error:  # an integer longer than Python's int conversion limit
        _prescan(text, shown)
        long_number = re.search(r"\d{1000,}", text)
        raise _fail(shown, text, long_number.start() if long_number else 0, "RLKL105",
                    f"invalid JSON number: {error}") from None
    except RecursionError:
        _prescan(text, shown)  # raises: only nesting beyond MAX_DEPTH recurses that deep
        raise _fail(shown, text, 0, "RLKL110", "nesting too deep") from None  # pragma: no cover
    if text.count("[") + text.count("{") > MAX_DEPTH and _data_depth(data) > MAX_DEPTH:
        _prescan(text, shown)  # raises, at the first bracket too deep
    if not suspect:  # plain dicts and lists already: the clean, common case
        return Document(path, shown, text, data)  # positions: computed when asked
    # Parse again keeping what the diagnostics need (repeated keys, NaN/Infinity).
    data = json.loads(text, object_pairs_hook=_object_hook, parse_constant=_Constant)
    document = Document(path, shown, text, data)
    problems = _content_errors(document)
    if problems:
        raise LoadError(sorted(problems))
    return Document(path, shown, text, _plain(data))  # positions: computed when asked


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words (``"a FIFO (named pipe)"``, ``"a folder"``, ...)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular(path: Path, max_bytes: int, display: str | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``max_bytes`` of them.

    The file is opened without blocking (``O_NONBLOCK``) and checked with ``fstat`` on the
    open descriptor, so a FIFO, a device or a folder is refused at once (RLKL112) instead of
    blocking or reading forever, and nothing can swap the file between the check and the
    read. A file that cannot be opened is RLKL111; one over ``max_bytes`` is RLKL104.
    Raises :class:`LoadError` only.
    """
    def named() -> str:  # the file as diagnostics show it, worked out only for a refusal
        return display if display is not None else display_path(path)

    def refused(code: str, message: str) -> LoadError:
        return LoadError([Diagnostic(named(), 1, 1, "", code, message)])

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise refused("RLKL111", f"cannot read file: {reason}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise refused("RLKL112", f"not a regular file: {named()} is "
                          f"{file_kind(info.st_mode)}; rlkl reads only regular files")
        if info.st_size > max_bytes:
            raise refused("RLKL104", f"file is {info.st_size} bytes; the limit is {max_bytes}")
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:  # a file that grows while it is read stops at the limit
            room = max_bytes + 1 - total  # first fstat's size and a byte more, then the rest
            asked = min(info.st_size + 1, room) if not chunks else room
            chunk = os.read(descriptor, asked)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if len(chunk) < asked and total == info.st_size:
                break  # the end, where fstat put it: no second read to find it
        return b"".join(chunks)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise refused("RLKL111", f"cannot read file: {reason}") from None
    finally:
        os.close(descriptor)


def load_json(path: Path) -> Document:
    """Read and strictly parse the JSON file at ``path``.

    Only a regular file is read (a FIFO, device or folder is RLKL112, never a wait).
    Raises :class:`LoadError` (with located diagnostics) when the file cannot be read or is
    not strict JSON; never raises anything else for any file content.
    """
    shown = display_path(path)
    return parse_json(read_regular(path, MAX_BYTES, shown), path, shown)
