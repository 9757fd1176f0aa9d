"""Read ``claims.yaml`` next to a lesson into :class:`~rlkl.claims.bindings.model.Bindings`.

The file is YAML (readable by an author who is not a programmer), validated against
``schema/bindings.schema.json``, then by :mod:`rlkl.claims.bindings.rules`; every problem
becomes a located diagnostic (line and column from the YAML reader's node positions). See
the authoring guide (site/docs/guide/authoring.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent

from rlkl.claims.bindings import rules, yaml_source
from rlkl.claims.bindings.model import (
    Bindings,
    BindingsError,
    Claim,
    EquationBinding,
    Exemption,
    Quiz,
    Template,
)
from rlkl.claims.bindings.yaml_source import Source, nesting_problem
from rlkl.claims.records import Located, PlotSpec, Range
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
            mistakes={
                int(k): (v, _at(root, ["quiz", "mistakes", k]))
                for k, v in quiz.get("mistakes", {}).items()
            },
        )
    bindings.equations = _equations(root, data)
    for name, entry in data.get("explore", {}).items():
        at = _at(root, ["explore", name])
        if entry == "fixed":
            bindings.explore.append(Range(name, None, None, None, at))
        else:
            bindings.explore.append(Range(name, float(entry["from"]), float(entry["to"]),
                                          float(entry["step"]), at))
    if "plot" in data:
        plot = data["plot"]
        bindings.plot = PlotSpec(plot["x"], plot["y"], plot.get("x_label", ""),
                                 plot.get("y_label", ""), _at(root, ["plot"]))
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
    errors = rules.errors(bindings)
    if errors:
        raise BindingsError(errors)
    return bindings
