"""Authored claim bindings: ``claims.yaml`` next to a lesson.

The file is YAML (readable by an author who is not a programmer), validated against
``schema/bindings.schema.json``; every problem becomes a located diagnostic (line and
column from ruamel.yaml's node positions). See the README's authoring guide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent

from rlkl.claims import expr, slots, yaml_source
from rlkl.claims.functions import CONSTANTS, FUNCTIONS
from rlkl.claims.records import Located
from rlkl.claims.scanner import scan
from rlkl.claims.yaml_source import Source, nesting_problem
from rlkl.diagnostics import Diagnostic
from rlkl.loader import (
    MAX_BYTES,
    LoadError,
    decode_strict,
    display_path,
    escape_token,
    read_regular,
)
from rlkl.resources import accelerated, schema_errors

FILENAME = "claims.yaml"


@dataclass(frozen=True)
class Template:
    """One ``says`` sentence: where it must match, and its slots."""

    says: str
    pointers: tuple[str, ...]  # empty: every prose field
    where: Located

    @property
    def slots(self) -> list[tuple[str, str]]:
        """(name, kind) of each slot, in order (repeats included); kind is number/list/unit."""
        return [(slot.name, slot.kind) for slot in slots.slots(self.says)]


@dataclass(frozen=True)
class Claim:
    """One authored claim: a sentence template, its outputs, negatives and conditions."""

    id: str
    template: Template
    outputs: dict[str, tuple[str, Located]]  # slot -> (expression, where it is written)
    negatives: dict[str, tuple[str, Located]]
    holds: list[tuple[str, Located]]
    where: Located


@dataclass(frozen=True)
class Exemption:
    """Numbers matched by a template that are not recomputed, with the reason."""

    template: Template
    reason: str
    equals: dict[str, str]  # slot -> the value it must have, as written in the bindings


@dataclass(frozen=True)
class Quiz:
    """How the check question is answered: the key and, optionally, each distractor's mistake."""

    answer: tuple[str, Located]
    distractors: dict[int, tuple[str, Located]]


@dataclass(frozen=True)
class EquationBinding:
    """How one relation of a ``science[].equation`` is checked (or why it is exempt)."""

    pointer: str  # /science/N/equation
    relation: str | None  # its left-hand side as written; None: the whole equation
    expression: str | None  # what it must equal, over the equation's symbols
    grid: dict[str, list[Any]]
    worked: dict[str, str]  # symbol -> lesson quantity
    exempt: str | None  # the reason, when exempt
    where: Located


_NO_LESSON_KEY = Located("/lesson", 1, 1)


@dataclass
class Bindings:
    """A parsed, schema-valid ``claims.yaml`` with the position of everything in it."""

    path: Path
    display: str
    claims: list[Claim] = field(default_factory=list)
    exemptions: list[Exemption] = field(default_factory=list)
    quiz: Quiz | None = None
    lesson: str | None = None
    lesson_at: Located = _NO_LESSON_KEY  # where ``lesson:`` is written
    equations: list[EquationBinding] = field(default_factory=list)

    def diagnostic(self, at: Located, code: str, message: str) -> Diagnostic:
        return Diagnostic(self.display, at.line, at.column, at.pointer, code, message)


class BindingsError(Exception):
    """The bindings file cannot be used; ``diagnostics`` says where and why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def _position(root: Any, tokens: list[str | int]) -> tuple[int, int]:
    """1-based line/column of the node at ``tokens`` (or its nearest ancestor)."""
    node, line, column = root, 0, 0
    if hasattr(root, "lc"):
        line, column = root.lc.line, root.lc.col
    for token in tokens:
        lc = getattr(node, "lc", None)
        try:
            child = node[token]
        except (KeyError, IndexError, TypeError):
            break
        if lc is not None:
            try:
                pos = lc.value(token) if isinstance(token, str) else lc.item(token)
                line, column = pos[0], pos[1]
            except (KeyError, IndexError, TypeError):
                pass
        node = child
    return line + 1, column + 1


def _at(source: Source, tokens: list[str | int]) -> Located:
    pointer = "".join("/" + escape_token(str(t)) for t in tokens)
    line, column = source.position(tokens)
    return Located(pointer, line, column)


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _template(root: Source, tokens: list[str | int], entry: dict[str, Any]) -> Template:
    raw_in = entry.get("in", [])
    pointers = (raw_in,) if isinstance(raw_in, str) else tuple(raw_in)
    return Template(entry["says"], pointers, _at(root, [*tokens, "says"]))


def _expressions(
    root: Source, tokens: list[str | int], mapping: dict[str, str]
) -> dict[str, tuple[str, Located]]:
    return {k: (v, _at(root, [*tokens, k])) for k, v in mapping.items()}


# What looks like a slot with a kind or format spec the grammar does not have ({x:Zq}, {x:.2f}).
# ({{ and }} are escaped braces, so {{x:y}} is literal text.)
_ODD_SLOT = re.compile(r"(?<!\{)\{[A-Za-z_][A-Za-z0-9_]*[:!](?!(?:list|unit)\})[^{}]*\}(?!\})")


def _number(piece: slots.Piece) -> bool:
    return isinstance(piece, slots.Slot) and piece.kind == "number"


def _template_errors(b: Bindings) -> list[Diagnostic]:
    """Every template states a number, and every number it states is a slot."""
    errors: list[Diagnostic] = []
    templates = [c.template for c in b.claims] + [e.template for e in b.exemptions]
    for template in templates:
        if all(kind == "unit" for _, kind in template.slots):
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL614",
                    f"the sentence {template.says!r} has no number slot; a template states "
                    "at least one number ({name} or {name:list})",
                )
            )
        for odd in _ODD_SLOT.finditer(template.says):
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL620",
                    f"{odd.group()} in {template.says!r} is not a slot: a slot is {{name}}, "
                    "{name:list} or {name:unit} (no format specs); write {{ or }} for a "
                    "literal brace",
                )
            )
        adjacent = [f"{one}{other}" for one, other in pairwise(slots.pieces(template.says))
                    if _number(one) and _number(other)]
        if adjacent:
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL621",
                    f"{', '.join(adjacent)} in {template.says!r}: two number slots with nothing "
                    "between them, so where one number ends and the next begins would be a "
                    "guess; write the text the lesson has between them",
                )
            )
        literal = slots.literal_text(template.says)
        if scan("", literal):
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL602",
                    f"the sentence {template.says!r} has a digit outside a {{slot}}; "
                    "write every number as a slot so that it is read and checked",
                )
            )
    return errors


def _claim_errors(b: Bindings) -> list[Diagnostic]:
    """Unique ids, usable slot names, outputs that are slots, one definition per quantity."""
    errors: list[Diagnostic] = []
    seen: dict[str, Located] = {}
    defined: dict[str, Located] = {}
    for claim in b.claims:
        if claim.id in seen:
            errors.append(
                b.diagnostic(
                    claim.where,
                    "RLKL603",
                    f"claim id {claim.id!r} is used twice (first at line {seen[claim.id].line})",
                )
            )
        seen[claim.id] = claim.where
        slot_names = {name for name, _ in claim.template.slots}
        for name in sorted(n for n in slot_names if n.startswith("_")):
            errors.append(
                b.diagnostic(
                    claim.template.where,
                    "RLKL610",
                    f"slot {{{name}}}: a slot name starts with a letter",
                )
            )
        for name in sorted(slot_names & (set(FUNCTIONS) | set(CONSTANTS))):
            errors.append(
                b.diagnostic(
                    claim.template.where,
                    "RLKL610",
                    f"slot {{{name}}} has the name of a function or constant; rename it",
                )
            )
        for name, (_, at) in (claim.outputs | claim.negatives).items():
            if name not in slot_names:
                errors.append(
                    b.diagnostic(
                        at,
                        "RLKL604",
                        f"{name!r} is not a slot of the sentence {claim.template.says!r}",
                    )
                )
        for name, (_, at) in claim.outputs.items():
            if name in defined:
                errors.append(
                    b.diagnostic(
                        at,
                        "RLKL605",
                        f"{name!r} is already computed by another claim "
                        f"(line {defined[name].line}); a quantity has one definition",
                    )
                )
            defined[name] = at
    return errors


def _expression_errors(b: Bindings) -> tuple[list[Diagnostic], set[str]]:
    """Parsable expressions that read the lesson's quantities; the names they read."""
    errors: list[Diagnostic] = []
    expressions = [
        e for c in b.claims for e in (*c.outputs.values(), *c.negatives.values(), *c.holds)
    ]
    if b.quiz:
        expressions += [b.quiz.answer, *b.quiz.distractors.values()]
    used: set[str] = set()
    for source, at in expressions:
        try:
            used |= expr.names(expr.parse(source))
        except expr.ExprError as exc:
            errors.append(b.diagnostic(at, "RLKL606", f"expression {source!r}: {exc}"))
    computed = [*(e for c in b.claims for e in c.outputs.values())]
    if b.quiz:
        computed += [b.quiz.answer, *b.quiz.distractors.values()]
    for source, at in computed:
        try:
            constant = not expr.names(expr.parse(source))
        except expr.ExprError:
            continue  # reported above
        if constant:
            errors.append(
                b.diagnostic(
                    at,
                    "RLKL611",
                    f"{source!r} uses no quantity the lesson states: it would only restate "
                    "a constant; compute it from the sentence's inputs",
                )
            )
    return errors, used


def _unread_slots(b: Bindings, used: set[str]) -> list[Diagnostic]:
    """A number slot no expression reads would be an unchecked number (once per name); a
    unit slot holds a word, not a number."""
    errors: list[Diagnostic] = []
    used = set(used)
    outputs = {name for c in b.claims for name in c.outputs}
    for claim in b.claims:
        for name, kind in claim.template.slots:
            if kind == "unit":
                continue
            if name not in outputs and name not in claim.negatives and name not in used:
                errors.append(
                    b.diagnostic(
                        claim.template.where,
                        "RLKL612",
                        f"slot {{{name}}} is read but no expression uses it, so its number "
                        "would go unchecked; use it, or exempt it with a reason",
                    )
                )
                used.add(name)  # once per name
    return errors


def _semantic_errors(b: Bindings) -> list[Diagnostic]:
    """Rules the schema cannot express: parsable expressions, no digits outside slots, ..."""
    expression_errors, used = _expression_errors(b)
    return [*_template_errors(b), *_claim_errors(b), *expression_errors, *_unread_slots(b, used)]


def _refuse_aliases(yaml: YAML, text: str, display: str) -> None:
    """Aliases (``*name``) are refused before composing: nested ones explode exponentially."""
    for event in yaml.parse(text):
        if isinstance(event, AliasEvent):
            mark = event.start_mark
            raise BindingsError(
                [
                    Diagnostic(
                        display,
                        mark.line + 1,
                        mark.column + 1,
                        "",
                        "RLKL601",
                        "YAML aliases (*name) are not allowed in bindings; write the value out",
                    )
                ]
            )


def _problem(display: str, line: int, column: int, message: str) -> BindingsError:
    return BindingsError([Diagnostic(display, line, column, "", "RLKL601", message)])


def _read_yaml(path: Path, display: str) -> Source:
    """Plain data and positions of ``path``: the fast path, else the ruamel reference."""
    try:
        text = decode_strict(_read_bytes(path, display), display, code="RLKL601")
    except LoadError as error:
        raise BindingsError(error.diagnostics) from None
    deep = nesting_problem(text)
    if deep is not None:
        raise _problem(display, deep[0], deep[1], f"cannot read the YAML: {deep[2]}")
    found = yaml_source.fast(text) if accelerated() else None
    if found is not None:
        return found
    root = _reference_yaml(text, display)
    return Source(_plain(root) if root is not None else {}, lambda t: _position(root, t))


def _read_bytes(path: Path, display: str) -> bytes:
    try:
        try:  # a regular file only: a FIFO or device is RLKL112, never a wait
            raw = read_regular(path, MAX_BYTES, display)
        except LoadError as error:
            raise BindingsError(error.diagnostics) from None
    except OSError as exc:
        raise _problem(display, 1, 1, f"cannot read file: {exc.strerror}") from None
    return raw


def _reference_yaml(text: str, display: str) -> Any:
    """The ruamel round-trip tree of ``text`` (the reference path, with node positions)."""
    try:
        yaml = YAML(typ="rt")
        _refuse_aliases(yaml, text, display)
        root = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        raise BindingsError(
            [Diagnostic(display, line, column, "", "RLKL601", f"not valid YAML: {problem}")]
        ) from None
    except (ValueError, RecursionError) as exc:  # huge integers, pathological nesting
        raise BindingsError(
            [Diagnostic(display, 1, 1, "", "RLKL601", f"cannot read the YAML: {exc}")]
        ) from None
    except TypeError:  # a complex key (``? - {a: 1}``): a list of mappings cannot be a key
        raise BindingsError(
            [Diagnostic(display, 1, 1, "", "RLKL601",
                        "not valid bindings YAML: a key is a list or mapping (a '? ' line); "
                        "keys are plain names")]
        ) from None
    except YAMLError as exc:
        raise BindingsError(
            [Diagnostic(display, 1, 1, "", "RLKL601", f"not valid YAML: {exc}")]
        ) from None
    return root


def _schema_errors(root: Source, data: Any, display: str) -> list[Diagnostic]:
    errors = sorted(schema_errors("bindings", data), key=lambda e: list(map(str, e.path)))
    diagnostics = []
    for error in errors:
        at = _at(root, list(error.absolute_path))
        diagnostics.append(
            Diagnostic(
                display, at.line, at.column, at.pointer, "RLKL601", f"bindings: {error.message}"
            )
        )
    return diagnostics


def _equations(root: Source, data: dict[str, Any]) -> list[EquationBinding]:
    """The ``equations:`` entries: how each ``science[].equation`` relation is checked."""
    return [
        EquationBinding(
            pointer=entry["in"],
            relation=entry.get("relation"),
            expression=entry.get("is"),
            grid=entry.get("grid", {}),
            worked=entry.get("worked", {}),
            exempt=entry.get("exempt"),
            where=_at(root, ["equations", i]),
        )
        for i, entry in enumerate(data.get("equations", []))
    ]


def _build(root: Source, data: dict[str, Any], path: Path, display: str) -> Bindings:
    """The :class:`Bindings` of a schema-valid document."""
    bindings = Bindings(path, display, lesson=data.get("lesson"), lesson_at=_at(root, ["lesson"]))
    for i, entry in enumerate(data.get("claims", [])):
        tokens: list[str | int] = ["claims", i]
        bindings.claims.append(
            Claim(
                id=entry["id"],
                template=_template(root, tokens, entry),
                outputs=_expressions(root, [*tokens, "where"], entry.get("where", {})),
                negatives=_expressions(root, [*tokens, "not"], entry.get("not", {})),
                holds=[
                    (h, _at(root, [*tokens, "holds", j]))
                    for j, h in enumerate(entry.get("holds", []))
                ],
                where=_at(root, tokens),
            )
        )
    for i, entry in enumerate(data.get("exempt", [])):
        bindings.exemptions.append(
            Exemption(
                _template(root, ["exempt", i], entry),
                entry["reason"],
                {k: str(v) for k, v in entry.get("equals", {}).items()},
            )
        )
    if "quiz" in data:
        quiz = data["quiz"]
        bindings.quiz = Quiz(
            answer=(quiz["answer"], _at(root, ["quiz", "answer"])),
            distractors={
                int(k): (v, _at(root, ["quiz", "distractors", k]))
                for k, v in quiz.get("distractors", {}).items()
            },
        )
    bindings.equations = _equations(root, data)
    return bindings


def load_bindings(path: Path) -> Bindings:
    """Read and validate ``claims.yaml``; raise :class:`BindingsError` with located diagnostics."""
    display = display_path(path)
    root = _read_yaml(path, display)
    data = root.data
    invalid = _schema_errors(root, data, display)
    if invalid:
        raise BindingsError(invalid)
    bindings = _build(root, data, path, display)
    errors = _semantic_errors(bindings)
    if errors:
        raise BindingsError(errors)
    return bindings
