"""Authored claim bindings: ``claims.yaml`` next to a lesson.

The file is YAML (readable by an author who is not a programmer), validated against
``schema/bindings.schema.json``; every problem becomes a located diagnostic (line and
column from ruamel.yaml's node positions). See the README's authoring guide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent

from rlkl.claims import expr
from rlkl.claims.scanner import scan
from rlkl.diagnostics import Diagnostic
from rlkl.loader import display_path, escape_token
from rlkl.resources import load_schema

FILENAME = "claims.yaml"
MAX_BYTES = 1024 * 1024
_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::(list|unit))?\}")


@dataclass(frozen=True)
class Located:
    """A value from the bindings file with its pointer and 1-based position."""

    pointer: str
    line: int
    column: int


@dataclass(frozen=True)
class Template:
    """One ``says`` sentence: where it must match, and its slots."""

    says: str
    pointers: tuple[str, ...]  # empty: every prose field
    where: Located

    @property
    def slots(self) -> list[tuple[str, str]]:
        """(name, kind) of each slot, in order (repeats included); kind is number/list/unit."""
        return [(m.group(1), m.group(2) or "number") for m in _SLOT.finditer(self.says)]


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


@dataclass
class Bindings:
    """A parsed, schema-valid ``claims.yaml`` with the position of everything in it."""

    path: Path
    display: str
    claims: list[Claim] = field(default_factory=list)
    exemptions: list[Exemption] = field(default_factory=list)
    quiz: Quiz | None = None
    lesson: str | None = None
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


def _at(root: Any, tokens: list[str | int]) -> Located:
    pointer = "".join("/" + escape_token(str(t)) for t in tokens)
    line, column = _position(root, tokens)
    return Located(pointer, line, column)


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _template(root: Any, tokens: list[str | int], entry: dict[str, Any]) -> Template:
    raw_in = entry.get("in", [])
    pointers = (raw_in,) if isinstance(raw_in, str) else tuple(raw_in)
    return Template(entry["says"], pointers, _at(root, [*tokens, "says"]))


def _expressions(
    root: Any, tokens: list[str | int], mapping: dict[str, str]
) -> dict[str, tuple[str, Located]]:
    return {k: (v, _at(root, [*tokens, k])) for k, v in mapping.items()}


def _semantic_errors(b: Bindings) -> list[Diagnostic]:
    """Rules the schema cannot express: parsable expressions, no digits outside slots, ..."""
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
        literal = _SLOT.sub(" ", template.says)
        if scan("", literal):
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL602",
                    f"the sentence {template.says!r} has a digit outside a {{slot}}; "
                    "write every number as a slot so that it is read and checked",
                )
            )
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
        for name in sorted(slot_names & (set(expr.FUNCTIONS) | set(expr.CONSTANTS))):
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
    outputs = {name for c in b.claims for name in c.outputs}
    for claim in b.claims:
        for name, _ in claim.template.slots:
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


def load_bindings(path: Path) -> Bindings:
    """Read and validate ``claims.yaml``; raise :class:`BindingsError` with located diagnostics."""
    display = display_path(path)
    try:
        raw = path.read_bytes()
        if len(raw) > MAX_BYTES:
            raise BindingsError(
                [Diagnostic(display, 1, 1, "", "RLKL601", f"file is larger than {MAX_BYTES} bytes")]
            )
        if raw.startswith(b"\xef\xbb\xbf"):
            raise BindingsError(
                [
                    Diagnostic(
                        display,
                        1,
                        1,
                        "",
                        "RLKL601",
                        "file starts with a byte-order mark; save it as UTF-8 without BOM",
                    )
                ]
            )
        text = raw.decode("utf-8")
        yaml = YAML(typ="rt")
        _refuse_aliases(yaml, text, display)
        root = yaml.load(text)
    except UnicodeDecodeError as exc:
        raise BindingsError(
            [Diagnostic(display, 1, 1, "", "RLKL601", f"not UTF-8 (byte {exc.start})")]
        ) from None
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
    except YAMLError as exc:
        raise BindingsError(
            [Diagnostic(display, 1, 1, "", "RLKL601", f"not valid YAML: {exc}")]
        ) from None
    data = _plain(root) if root is not None else {}
    validator = jsonschema.Draft202012Validator(load_schema("bindings"))
    schema_errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path)))
    if schema_errors:
        diagnostics = []
        for error in schema_errors:
            at = _at(root, list(error.absolute_path))
            diagnostics.append(
                Diagnostic(
                    display, at.line, at.column, at.pointer, "RLKL601", f"bindings: {error.message}"
                )
            )
        raise BindingsError(diagnostics)
    bindings = Bindings(path, display, lesson=data.get("lesson"))
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
    for i, entry in enumerate(data.get("equations", [])):
        bindings.equations.append(
            EquationBinding(
                pointer=entry["in"],
                relation=entry.get("relation"),
                expression=entry.get("is"),
                grid=entry.get("grid", {}),
                worked=entry.get("worked", {}),
                exempt=entry.get("exempt"),
                where=_at(root, ["equations", i]),
            )
        )
    errors = _semantic_errors(bindings)
    if errors:
        raise BindingsError(errors)
    return bindings
