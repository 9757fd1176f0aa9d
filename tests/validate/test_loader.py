"""The strict loader: positions, limits, and no traceback for any input bytes."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlkl.loader import (
    MAX_BYTES,
    MAX_DEPTH,
    LoadError,
    display_path,
    load_json,
    parse_json,
    read_regular,
)

from .helpers import SEED

SEED_BYTES = SEED.read_bytes()


def _codes(raw: bytes) -> list[tuple[str, int, int, str]]:
    with pytest.raises(LoadError) as caught:
        parse_json(raw, Path("x.json"))
    return [(d.code, d.line, d.column, d.pointer) for d in caught.value.diagnostics]


def test_locate_values_keys_and_missing_pointers() -> None:
    doc = parse_json(b'{\n  "a": [1, "x\\u00e9"],\n  "\xc3\xa9": {"c": null}\n}', Path("x.json"))
    assert doc.locate("/a") == (2, 8)
    assert doc.locate("/a", key=True) == (2, 3)
    assert doc.locate("/a/1") == (2, 12)
    assert doc.locate("/é/c") == (3, 14)  # columns count characters, not bytes
    assert doc.locate("/é/c", key=True) == (3, 9)
    assert doc.locate("/é/missing") == (3, 8)  # nearest existing ancestor
    assert doc.locate("") == (1, 1)
    start, end = doc.value_range("/a/1")
    assert doc.text[start:end] == '"x\\u00e9"'


def test_pointer_escaping() -> None:
    doc = parse_json(b'{"a/b": 1, "m~n": 2}', Path("x.json"))
    assert doc.locate("/a~1b") == (1, 9)
    assert doc.locate("/m~0n", key=True) == (1, 12)


def test_diagnostic_is_located() -> None:
    doc = parse_json(b'{\n "k": 1}', Path("x.json"), "shown.json")
    d = doc.diagnostic("/k", "RLKL203", "msg", key=True)
    assert (d.file, d.line, d.column, d.pointer) == ("shown.json", 2, 2, "/k")


def test_duplicate_keys_each_reported_at_repeat() -> None:
    raw = b'{"a": {"c": 1, "c": 2,\n "c": 3}, "b": 0}'
    assert _codes(raw) == [("RLKL108", 1, 16, "/a/c"), ("RLKL108", 2, 2, "/a/c")]


def test_nan_and_infinity_are_located() -> None:
    assert _codes(b'{"x": [1, NaN], "y": Infinity}') == [
        ("RLKL109", 1, 11, "/x/1"), ("RLKL109", 1, 22, "/y")]


def test_over_size(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b'{"a": "' + b"x" * MAX_BYTES + b'"}')
    with pytest.raises(LoadError) as caught:
        load_json(big)
    assert [d.code for d in caught.value.diagnostics] == ["RLKL104"]
    assert _codes(b" " * (MAX_BYTES + 1))[0][0] == "RLKL104"


def test_depth_limit_is_exact() -> None:
    parse_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH, Path("x.json"))
    assert _codes(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))[0][:3] == (
        "RLKL110", 1, MAX_DEPTH + 1)
    # brackets inside strings do not count
    parse_json(b'["' + b"[" * 500 + b'"]', Path("x.json"))
    assert _codes(b"[" * 100_000)[0][0] == "RLKL110"


def test_unreadable_path(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as caught:
        load_json(tmp_path)
    assert caught.value.diagnostics[0].code == "RLKL112"  # a folder: not a regular file
    with pytest.raises(LoadError) as caught:
        load_json(tmp_path / "missing.json")
    assert caught.value.diagnostics[0].code == "RLKL111"


def test_utf8_error_reports_line_and_column() -> None:
    assert _codes(b'{\n "\xc3\xa9": "ab\xff"}') == [("RLKL101", 2, 10, "")]


def test_trailing_comma_in_object_and_array() -> None:
    assert _codes(b'{"a": 1,\n}') == [("RLKL107", 1, 8, "")]
    assert _codes(b"[1, 2 , ]") == [("RLKL107", 1, 7, "")]


def test_seed_loads_and_data_is_plain() -> None:
    doc = load_json(SEED)
    assert doc.data == json.loads(SEED_BYTES)
    assert type(doc.data) is dict


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_never_raise_anything_but_load_error(raw: bytes) -> None:
    try:
        parse_json(raw, Path("x.json"))
    except LoadError as error:
        assert error.diagnostics
        assert all(d.line >= 1 and d.column >= 1 for d in error.diagnostics)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_seed_never_raises_anything_but_load_error(data: st.DataObject) -> None:
    raw = bytearray(SEED_BYTES)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        action = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        byte = data.draw(st.sampled_from(list(b'{}[],:"\\ \n0-eE.NaIftu\xff\xc3')))
        if action == "replace":
            raw[at] = byte
        elif action == "delete":
            del raw[at]
        else:
            raw.insert(at, byte)
    try:
        document = parse_json(bytes(raw), Path("x.json"))
    except LoadError as error:
        assert error.diagnostics
    else:
        document.locate("/check/answer")


def test_overlong_integer_is_a_located_syntax_error() -> None:
    raw = ('{"a": ' + "9" * 5000 + "}").encode()
    with pytest.raises(LoadError) as caught:
        parse_json(raw, Path("x.json"))
    (diagnostic,) = caught.value.diagnostics
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("RLKL105", 1, 7)


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    folder = tmp_path / "lesson.json"
    folder.mkdir()
    with pytest.raises(LoadError) as caught:
        load_json(folder)
    (problem,) = caught.value.diagnostics
    assert problem.code == "RLKL112" and "a folder" in problem.message


def test_a_device_is_not_read_to_the_limit(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as caught:
        load_json(Path("/dev/zero"))
    assert [d.code for d in caught.value.diagnostics] == ["RLKL112"]


@pytest.mark.parametrize("size", [0, 1, 4096, 65537])
def test_a_regular_file_is_read_whole_in_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    """One ``read`` of the size ``fstat`` gives and one byte more sees the file and its end."""
    path = tmp_path / "lesson.json"
    data = (bytes(range(256)) * (size // 256 + 1))[:size]
    path.write_bytes(data)
    asked: list[int] = []
    read = os.read

    def counted(descriptor: int, length: int) -> bytes:
        asked.append(length)
        return read(descriptor, length)

    monkeypatch.setattr(os, "read", counted)
    assert read_regular(path, MAX_BYTES) == data
    assert asked == [size + 1]


@pytest.mark.parametrize("seen", [0.0, 0.5, 2.0])
def test_a_file_whose_size_changes_after_fstat_is_read_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seen: float
) -> None:
    """``fstat`` saw no size (as on /proc), a smaller one (a file still being written) or a
    larger one (truncated): the bytes come from reading to the end, never from the size
    ``fstat`` reported, in a few reads (not a byte at a time)."""
    path = tmp_path / "lesson.json"
    data = bytes(range(256)) * 40
    path.write_bytes(data)
    fstat, read = os.fstat, os.read
    reads: list[int] = []

    def stale(descriptor: int) -> os.stat_result:
        info = list(fstat(descriptor))
        info[stat.ST_SIZE] = int(len(data) * seen)
        return os.stat_result(info)

    def counted(descriptor: int, length: int) -> bytes:
        reads.append(length)
        return read(descriptor, length)

    monkeypatch.setattr(os, "fstat", stale)
    monkeypatch.setattr(os, "read", counted)
    assert read_regular(path, MAX_BYTES) == data
    assert len(reads) <= 3


@given(st.lists(st.sampled_from(["a", "b", "..", ".", "lesson.json", "é x", "work", "in"]),
                max_size=5),
       st.sampled_from([".", "work", "work/in", "work2", "other/deep", "/"]),
       st.sampled_from(["work", "work/in", "other"]))
@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_display_path_is_the_path_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parts: list[str], base: str, cwd: str
) -> None:
    here = tmp_path / cwd
    here.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(here)
    path = (tmp_path / base).joinpath(*parts)
    assert display_path(path) == Path(os.path.relpath(path)).as_posix()
    assert display_path(Path(*parts)) == Path(*parts).as_posix()
