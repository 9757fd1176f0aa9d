"""CI-sized fuzzing (a few hundred cases per target); ``scripts/fuzz_long.py`` runs the same
targets for 100,000+ cases. Set RLKL_FUZZ_SCALE to multiply the example counts."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import fuzz

SCALE = float(os.environ.get("RLKL_FUZZ_SCALE", "1"))


def _settings(examples: int) -> settings:
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    path = fuzz.scratch()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@_settings(300)
@given(fuzz.mutated_bytes())
def test_mutated_lesson_bytes(raw: bytes) -> None:
    fuzz.target_loader(raw)


@_settings(100)
@given(fuzz.from_schema(fuzz.SCHEMAS["lesson"], fuzz.SCHEMAS["lesson"]))
def test_schema_generated_lessons(lesson: dict[str, object]) -> None:
    fuzz.target_loader(json.dumps(lesson, ensure_ascii=False).encode("utf-8", "surrogatepass"))


@_settings(500)
@given(fuzz.PROSE)
def test_scanner_on_generated_prose(text: str) -> None:
    fuzz.target_scanner(text)


@_settings(200)
@given(st.text(max_size=80))
def test_scanner_on_any_text(text: str) -> None:
    fuzz.target_scanner(text)


@_settings(150)
@given(fuzz.mutated_yaml())
def test_mutated_bindings(folder: Path, text: str) -> None:
    fuzz.target_bindings(text, folder)


@_settings(100)
@given(fuzz.from_schema(fuzz.SCHEMAS["bindings"], fuzz.SCHEMAS["bindings"]))
def test_schema_generated_bindings(folder: Path, data: dict[str, object]) -> None:
    fuzz.target_bindings(json.dumps(data, ensure_ascii=False), folder)  # JSON is YAML


@_settings(400)
@given(fuzz.expressions())
def test_generated_expressions(source: str) -> None:
    fuzz.target_expression(source)


@_settings(25)
@given(st.data(), st.booleans())
def test_check_and_regen_on_mutated_numbers(folder: Path, data: st.DataObject, fix: bool) -> None:
    lesson = data.draw(fuzz.mutated_numbers(fuzz.SEED_TEXT))
    fuzz.target_check_regen(lesson, fuzz.BINDINGS_TEXT, folder, fix=fix)


@_settings(15)
@given(fuzz.mutated_yaml(), st.booleans())
def test_check_and_regen_on_mutated_bindings(folder: Path, bindings: str, fix: bool) -> None:
    fuzz.target_check_regen(fuzz.SEED_TEXT, bindings, folder, fix=fix)


@_settings(15)
@given(fuzz.from_schema(fuzz.SCHEMAS["lesson"], fuzz.SCHEMAS["lesson"]))
def test_check_and_regen_on_schema_generated_lessons(
    folder: Path, lesson: dict[str, object]
) -> None:
    lesson["id"] = fuzz.SEED
    fuzz.target_check_regen(json.dumps(lesson, ensure_ascii=False), None, folder)
