"""The on-disk cache of read relations: used when valid, ignored when not, keyed safely."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rlkl.claims.equations import latex, latex_cache

KL = r"\sum_i p_i\log\frac{p_i}{q_i}"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("RLKL_CACHE_DIR", str(tmp_path / "cache"))
    latex._parse_cached.cache_clear()
    yield tmp_path / "cache"
    latex._parse_cached.cache_clear()


def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget in-process readings and make reading with sympy fail loudly."""
    latex._parse_cached.cache_clear()

    def refuse(rhs: str) -> latex.Parsed:
        raise AssertionError(f"sympy was asked to read {rhs!r} again")

    monkeypatch.setattr(latex, "_parse", refuse)


def test_a_reading_is_reused_from_disk(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = latex.parse_relation(KL)
    path = latex_cache.cache_path()
    assert path is not None and path.parent == cache and path.is_file()
    _fresh_process(monkeypatch)
    again = latex.parse_relation(KL)
    assert again == first
    assert float(latex.evaluate(again, {"p": [0.7, 0.3], "q": [0.5, 0.5]})) == pytest.approx(
        0.082283, abs=5e-7
    )


def test_an_unreadable_relation_is_cached_as_unreadable(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(latex.EquationError) as first:
        latex.parse_relation(r"\odot x")
    _fresh_process(monkeypatch)
    with pytest.raises(latex.EquationError) as again:
        latex.parse_relation(r"\odot x")
    assert str(again.value) == str(first.value)


def test_a_changed_relation_is_a_new_key(cache: Path) -> None:
    latex.parse_relation(KL)
    swapped = latex.parse_relation(r"\sum_i q_i\log\frac{q_i}{p_i}")
    value = latex.evaluate(swapped, {"p": [0.7, 0.3], "q": [0.5, 0.5]})
    assert float(value) == pytest.approx(0.087177, abs=5e-7)


@pytest.mark.parametrize(
    "damage",
    [
        "not json",
        json.dumps({"entries": {KL: {"tree": ["os", "rm"], "identifiers": [], "elements": []}}}),
        json.dumps({"entries": {KL: {"tree": ["num", "1"], "identifiers": [], "elements": []}}}),
        json.dumps({"entries": {KL: {"tree": ["sum"], "identifiers": ["p"], "elements": "p"}}}),
        json.dumps({"entries": []}),
    ],
)
def test_a_damaged_cache_is_ignored(cache: Path, damage: str) -> None:
    path = latex_cache.cache_path()
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_text(damage, encoding="utf-8")
    parsed = latex.parse_relation(KL)
    assert parsed.identifiers == ("p", "q")
    stored = json.loads(path.read_text(encoding="utf-8"))["entries"][KL]
    assert stored["tree"][0] == "sum"  # rewritten with the fresh reading


def test_the_cache_can_be_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLKL_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    latex._parse_cached.cache_clear()
    try:
        assert latex_cache.cache_path() is None
        latex.parse_relation(KL)
        assert list(tmp_path.iterdir()) == []
    finally:
        latex._parse_cached.cache_clear()


def test_the_key_names_the_reader_code_and_sympy(cache: Path) -> None:
    path = latex_cache.cache_path()
    assert path is not None
    name = path.name
    assert name.startswith("latex-") and "-sympy" in name
    stale = path.with_name("latex-0000000000000000-sympy0.0.json")
    stale.parent.mkdir(parents=True)
    stale.write_text("{}", encoding="utf-8")
    latex.parse_relation(KL)
    assert sorted(p.name for p in cache.glob("latex-*")) == [name]  # an older reader's is gone


def test_every_shipped_relation_is_reused_from_disk(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every kind of reading is kept, cases (piecewise rows and their conditions), binomials
    and standard deviations among them: a kind the cache did not know was read again with
    sympy in every process (importing it costs ~1.5 s of CPU)."""
    from rlkl.claims.equations.latex import split_relations
    from tests.claims.helpers import CONTENT

    relations = sorted({r.rhs for path in CONTENT.glob("*/lesson.json")
                        for science in json.loads(path.read_text("utf-8")).get("science", [])
                        for r in split_relations(science["equation"])})
    first = {}
    for rhs in relations:
        try:
            first[rhs] = latex.parse_relation(rhs)
        except latex.EquationError:
            continue
    kinds = {k for p in first.values() for k in re.findall(r'\["([a-z]+)"', json.dumps(p.tree))}
    assert {"piecewise", "binomial", "std"} <= kinds <= latex_cache.KINDS
    _fresh_process(monkeypatch)
    for rhs, parsed in first.items():
        assert latex.parse_relation(rhs) == parsed
