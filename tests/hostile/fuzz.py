"""Fuzz targets and hypothesis strategies shared by the CI-sized run (``test_fuzz.py``) and
the long run (``scripts/fuzz_long.py``).

Two kinds of input: *mutation-based* (the shipped seed lesson, its ``claims.yaml`` and its
fixtures, damaged byte by byte, line by line or number by number) and *schema-generated*
(documents drawn from ``schema/*.schema.json`` by :func:`from_schema`). Each ``target_*``
feeds one input to one stage and asserts what holds for every input: no exception but the
stage's documented one, every diagnostic located, no internal error (RLKL901), the run
finishes every lesson it finds, and regen leaves fixtures that check accepts.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

from rlkl.check import check_paths
from rlkl.claims.bindings.model import BindingsError
from rlkl.claims.bindings.reader import load_bindings
from rlkl.claims.evaluation.expr import ExprError, evaluate, parse
from rlkl.claims.evaluation.functions import FUNCTIONS
from rlkl.claims.prose.scanner import format_number, scan
from rlkl.conformance import check_document
from rlkl.diagnostics import Diagnostic
from rlkl.loader import LoadError, parse_json
from rlkl.models import Lesson
from rlkl.regen import regen_paths

REPO = Path(__file__).resolve().parents[2]
SEED = "policy-gradient-kl-control"
SEED_DIR = REPO / "content" / SEED
LESSON_BYTES = (SEED_DIR / "lesson.json").read_bytes()
BINDINGS_TEXT = (SEED_DIR / "claims.yaml").read_text(encoding="utf-8")
SCHEMAS = {n: json.loads((REPO / "schema" / f"{n}.schema.json").read_text(encoding="utf-8"))
           for n in ("lesson", "bindings", "fixtures")}

COUNTS: Counter[str] = Counter()  # cases run per target (the long run reports them)


def located(diagnostics: Sequence[Diagnostic]) -> None:
    """Every diagnostic has a file, a 1-based position, a stable code and a message."""
    assert diagnostics
    for d in diagnostics:
        assert d.line >= 1 and d.column >= 1, d
        assert re.fullmatch(r"RLKL\d{3}", d.code), d
        assert d.message and d.code != "RLKL901", d


# ---------------------------------------------------------------- schema-generated inputs


def from_schema(schema: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Documents valid (mostly) against ``schema``: types, enums, required and optional
    properties, patterns, lengths and item counts. A small generator for the keywords rlkl's
    own schemas use (hypothesis-jsonschema does not run on current hypothesis)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return st.deferred(lambda: from_schema(root["$defs"][name], root))
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return st.one_of([from_schema(s, root) for s in schema[key]])
    kind = schema.get("type", "string")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, root) for k in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind in ("integer", "number"):
        low, high = schema.get("minimum", -1000), schema.get("maximum", 1000)
        if kind == "integer":
            return st.integers(int(low), int(high))
        return st.floats(low, high, allow_nan=False) | st.integers(int(low), int(high))
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True).map(lambda s: s[:200])
        shortest = schema.get("minLength", 0)
        return PROSE.map(lambda s: s + "x" * max(0, shortest - len(s)))
    if kind == "array":
        if "prefixItems" in schema:
            return st.tuples(*(from_schema(s, root) for s in schema["prefixItems"])).map(list)
        item = from_schema(schema.get("items", {}), root)
        low = schema.get("minItems", 0)
        return st.lists(item, min_size=low, max_size=max(low, schema.get("maxItems", 3)))
    if kind == "object":
        return _object(schema, root)
    return st.nothing()


def _object(schema: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[Any]:
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    extra = schema.get("additionalProperties")
    names = schema.get("propertyNames", {}).get("pattern")

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for name, sub in properties.items():
            if name in required or draw(st.booleans()):
                result[name] = draw(from_schema(sub, root))
        if isinstance(extra, dict) and names:
            for key in draw(st.lists(st.from_regex(names, fullmatch=True), max_size=3)):
                result.setdefault(key, draw(from_schema(extra, root)))
        return result

    return build()


# Prose with the numbers and symbols the scanner knows, and the look-alikes it must refuse.
NUMBER_TEXT = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.decimals(-1000, 1000, places=6, allow_nan=False).map(str),
    st.sampled_from(["0.5", "−2.8", "+2", ".5", "1.4×2", "[0.7,0.3]", "12.5%", "½", "x²",
                     "10⁻³", "∞", "1e-3", "2.5E+4", "1.2.3", "GPT-4", "k1", "3D", "–1",
                     "9" * 400, "0." + "0" * 300 + "1", "1,000", "1 000", "−", "%", "e"]),
)
PROSE = st.lists(
    NUMBER_TEXT | st.text(alphabet=" abcxyz,.;:()[]{}|‖−-–×·÷=<>\n\t\u00a0\u2028", max_size=6),
    max_size=12,
).map(" ".join)


# ---------------------------------------------------------------- mutation-based inputs

_TOKENS = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"NaN", b"-Infinity", b"1e999",
           b"\xef\xbb\xbf", b"\xff", b"\x00", b"\\ud800", b"9" * 500, b"\n", b" " * 64]


@st.composite
def mutated_bytes(draw: st.DrawFn, seed: bytes = LESSON_BYTES) -> bytes:
    """The seed with 1-6 byte-level edits: flip, delete, duplicate a chunk, insert a token."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["flip", "delete", "duplicate", "insert", "truncate"]))
        if action == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif action == "duplicate":
            data[at:at] = data[at : at + draw(st.integers(1, 200))]
        elif action == "insert":
            data[at:at] = draw(st.sampled_from(_TOKENS))
        elif action == "truncate":
            del data[at:]
    return bytes(data)


_YAML_BITS = ["&a ", "*a", "{", "}", "[", "]", ": ", "- ", "? ", "!!python/object ", "%YAML 1.1\n",
              "'", '"', "#", "\t", "{x}", "{x:list}", "{x:unit}", "{x:Zq}", "__import__('os')",
              "exp(x, where=x < 0)", "x ** 99", "[x] * 10**9", "sampled_counts(p, 9999999, 1)",
              "9" * 500, "\u2028", "\x00", "lesson: other"]


@st.composite
def mutated_yaml(draw: st.DrawFn, seed: str = BINDINGS_TEXT) -> str:
    """The seed bindings with 1-4 line edits: delete, duplicate, swap, or insert a token."""
    lines = seed.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "indent"]))
        if action == "delete" and len(lines) > 1:
            del lines[at]
        elif action == "duplicate":
            lines.insert(at, lines[at])
        elif action == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif action == "insert":
            column = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:column] + draw(st.sampled_from(_YAML_BITS)) + lines[at][column:]
        elif action == "indent":
            lines[at] = " " * draw(st.integers(1, 4)) + lines[at]
    return "\n".join(lines)


_PROSE_NUMBER = re.compile(r"(?<![\w.])[−-]?\d+(?:\.\d+)?")


@st.composite
def mutated_numbers(draw: st.DrawFn, text: str) -> str:
    """``text`` with 1-4 of its written numbers replaced (the author's everyday edit, and
    the hostile ones: huge, tiny, infinite, signed, more decimals)."""
    spans = [m.span() for m in _PROSE_NUMBER.finditer(text)]
    chosen = sorted(set(draw(st.lists(st.sampled_from(spans), min_size=1, max_size=4))),
                    reverse=True)
    for start, end in chosen:
        new = draw(st.one_of(
            st.decimals(-10, 10, places=draw(st.integers(0, 6)), allow_nan=False,
                        allow_infinity=False).map(lambda d: str(d).replace("-", "−")),
            st.sampled_from(["0", "1e308", "9" * 400, "0.000000000001", "∞", "+2", "−0"]),
        ))
        text = text[:start] + new + text[end:]
    return text


# ---------------------------------------------------------------- targets


def target_loader(raw: bytes) -> None:
    """Strict JSON loading: a document or located diagnostics, nothing else."""
    COUNTS["loader"] += 1
    try:
        document = parse_json(raw, Path("x.json"))
    except LoadError as error:
        located(error.diagnostics)
        return
    model, diagnostics = check_document(document, Lesson, "lesson")
    assert (model is None) == bool(diagnostics)
    if diagnostics:
        located(diagnostics)


def target_scanner(text: str) -> None:
    """Every mention is the text at its span; a finite one can be written back."""
    COUNTS["scanner"] += 1
    mentions = scan("/p", text)
    ends = -1
    for mention in mentions:
        assert 0 <= mention.start < mention.end <= len(text)
        assert text[mention.start : mention.end] == mention.text
        assert mention.start >= ends or mention.text in "½¼¾∞"  # no overlapping numbers
        ends = mention.end
        if mention.value.is_finite() and abs(mention.value) < Decimal("1e300"):
            assert isinstance(format_number(float(mention.value), mention), str)


def target_bindings(text: str, folder: Path) -> None:
    """The bindings loader: Bindings or located diagnostics, nothing else."""
    COUNTS["bindings"] += 1
    path = folder / "claims.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_bindings(path)
    except BindingsError as error:
        located(error.diagnostics)


NAMES = {"p": np.array([0.7, 0.3]), "q": np.array([0.5, 0.5]), "r": 1.4, "A": -2.0, "eps": 0.2,
         "n": 3, "unit": 2.0}


def expressions() -> st.SearchStrategy[str]:
    """Expressions from the binding grammar: literals, names, operators, calls, lists."""
    leaf = st.one_of(
        st.sampled_from(sorted(NAMES)),
        st.sampled_from(["0", "1", "2", "0.5", "1e308", "10", "64", "65", "'x'", "e", "pi",
                         "True", "-1", "9999999", "[0.5, 0.5]", "[1, 0]"]),
    )

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**", "<", "==", " and ",
                                                   " or ", "×", "÷"]), inner)
        call = st.tuples(st.sampled_from(sorted(FUNCTIONS)), st.lists(inner, max_size=4),
                         st.sampled_from(["", ", base=2", ", where=r < 0", ", out=p"]))
        return st.one_of(
            binary.map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
            call.map(lambda t: f"{t[0]}({', '.join(t[1])}{t[2] if t[1] else ''})"),
            st.lists(inner, min_size=1, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
            inner.map(lambda x: f"-{x}"),
            inner.map(lambda x: f"{x}[0]"),
            inner.map(lambda x: f"not {x}"),
        )

    # shallow expressions as often as deep ones: most mistakes are one call or one operator
    return st.one_of(leaf, grow(leaf), st.recursive(leaf, grow, max_leaves=8))


def target_expression(source: str) -> None:
    """The sandbox: ExprError, or a number, a truth value or an array of numbers."""
    COUNTS["evaluator"] += 1
    try:
        value = evaluate(parse(source), NAMES)
    except ExprError:
        return
    assert "where=" not in source and "out=" not in source, f"{source!r}: numpy keywords"
    assert isinstance(value, (bool, int, float, np.bool_, np.floating, np.ndarray)), (
        f"{source!r} evaluated to {type(value).__name__}")
    if isinstance(value, np.ndarray):
        assert value.dtype.kind in "fbiu", value.dtype


def _corpus(folder: Path, lesson: str | bytes, bindings: str | None) -> Path:
    content = folder / "content"
    if content.exists():
        shutil.rmtree(content)
    (content / SEED).mkdir(parents=True)
    shutil.copy(REPO / "content" / "catalog.json", content / "catalog.json")
    shutil.copy(SEED_DIR / "fixtures.json", content / SEED / "fixtures.json")
    raw = lesson.encode("utf-8", "surrogatepass") if isinstance(lesson, str) else lesson
    (content / SEED / "lesson.json").write_bytes(raw)
    if bindings is not None:
        (content / SEED / "claims.yaml").write_text(bindings, encoding="utf-8")
    return content / SEED


_FIXTURE_CODES = {"RLKL501", "RLKL502", "RLKL503", "RLKL504"}


def target_check_regen(
    lesson: str | bytes, bindings: str | None, folder: Path, fix: bool = False
) -> None:
    """check, regen (--fix or not), check again: every lesson finished, no internal error,
    and after regen no fixture is missing, stale, orphaned or drifted, unless the lesson's
    claims.yaml has errors (regen then keeps its fixtures: it does not know every claim)."""
    COUNTS["check+regen"] += 1
    where = _corpus(folder, lesson, bindings)
    first = check_paths([where])
    assert first.summary()["finished"] == first.summary()["lessons"]
    for d in first.diagnostics:
        assert d.code != "RLKL901", d
    report, after = regen_paths([where], fix=fix)
    assert after.summary()["finished"] == after.summary()["lessons"]
    kept = any(r.first_step for r in after.reports)
    assert not kept or report.not_fixed  # and regen said why it left the lesson
    for d in after.diagnostics:
        assert d.code != "RLKL901", d
        assert kept or d.code not in _FIXTURE_CODES, d
    leftovers = [p.name for p in where.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers, leftovers


def scratch() -> Path:
    """A scratch folder for one fuzz run (the caller removes it)."""
    return Path(tempfile.mkdtemp(prefix="rlkl-fuzz-"))


SEED_TEXT = LESSON_BYTES.decode("utf-8")
Target = Callable[..., None]
