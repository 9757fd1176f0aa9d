r"""Equations are claims: each relation of a ``science[].equation`` is checked against the core.

An equation string may hold several relations (``J_{clip}=…,\quad r=…``). Each relation
``lhs = rhs`` is bound in ``claims.yaml`` under ``equations:`` to an expression over
:mod:`rlkl.core` (``is: ppo_clip_objective(r, A, epsilon)``) and a grid of inputs; the
right-hand side is parsed from LaTeX by sympy's Lark parser and evaluated on every grid
point plus the lesson's own worked inputs, and must agree with the expression everywhere
(relative 1e-9). A relation that is neither bound nor exempt with a reason is an error, as
an unaccounted number is.

The supported LaTeX subset (what these lessons write; anything else is reported as
unreadable, ``RLKL432``, and must be exempt with a reason):

* symbols: a Latin letter or a Greek command (``\epsilon``, ``\pi``, ``\rho`` …), optionally
  ``\hat{…}``/``\tilde{…}``/``\bar{…}``, primes and a subscript; the identifier used in the
  binding drops backslashes and braces: ``\pi_{old}`` → ``pi_old``, ``J_{clip}`` → ``J_clip``,
  ``\hat{A}_t`` → ``A_hat_t``. Juxtaposed letters multiply (``rA`` is r·A); ``e`` is a
  symbol, Euler's number is written ``\exp``;
* ``\pi…(a\mid s)``: a policy applied to its arguments is the probability of the sampled
  action, one symbol (``\pi_\theta(a\mid s)`` → ``pi_theta``);
* ``\sum_i body`` (no bounds): the sum over the elements of every symbol subscripted ``i``
  in the body, which are lists in the grid (``p_i`` → the list ``p``);
* ``\operatorname{clip}(x, lo, hi)`` = min(max(x, lo), hi); ``\min``, ``\max``, ``\frac``,
  ``\tfrac``, ``\dfrac``, ``\sqrt``, ``\exp``, ``|x|``, powers, ``\cdot``, ``\times``;
* ``\log`` and ``\ln`` are the natural logarithm, ``\log_2`` the binary one;
* separators between relations: ``\quad``, ``\qquad``, ``,``, ``;``, ``:`` and ``\ `` outside
  brackets; a part without ``=`` (a condition such as ``a\sim\pi_{old}``) is not a relation;
  in a chain ``a = b \neq c`` the relation ``a = b`` is checked.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rlkl.claims import expr
from rlkl.claims.bindings import Bindings, EquationBinding
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document

RTOL = 1e-9
ATOL = 1e-12
MAX_POINTS = 5000
MAX_RELATION_CHARS = 300  # the Earley parser takes ~0.2 s per 10 fractions; bound its work
MAX_HINTS = 20  # unbound relations whose symbols are read for the message, per lesson
VERIFIED, FAILED, EXEMPT, UNREADABLE, UNBOUND = (
    "verified",
    "FAILED",
    "exempt",
    "unreadable",
    "UNBOUND",
)

_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "varpi", "rho", "varrho",
    "sigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma", "Delta",
    "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega",
}  # fmt: skip
_PASS = {"frac", "log", "ln", "exp", "min", "max", "sqrt", "cdot", "times"}
_RENAMED = {"tfrac": "frac", "dfrac": "frac", "varepsilon": "epsilon"}
_DECORATIONS = {"hat", "tilde", "bar"}
_SPACES = {"quad", "qquad"}
_RELATIONS = re.compile(r"\\neq|\\ne(?![a-zA-Z])|\\approx|\\leq?|\\geq?|[<>=]")


class EquationError(ValueError):
    """A relation outside the supported LaTeX subset (the message says what)."""


@dataclass(frozen=True)
class Relation:
    """One ``lhs = rhs`` of an equation, as written."""

    lhs: str
    rhs: str

    @property
    def key(self) -> str:
        return "".join(self.lhs.split())


@dataclass(frozen=True)
class Parsed:
    """A relation's right-hand side as a sympy expression, and the identifiers it uses."""

    tree: Any
    names: dict[str, str]  # sympy symbol name -> identifier
    elements: frozenset[str]  # identifiers summed over an index (lists in the grid)

    @property
    def identifiers(self) -> list[str]:
        return sorted(set(self.names.values()) - {""})


@dataclass(frozen=True)
class EquationRecord:
    """What became of one relation: its status and what was compared (for reports)."""

    pointer: str
    relation: str
    status: str  # verified | FAILED | exempt | unreadable | UNBOUND
    detail: str  # the expression and point count, the exemption reason, or the problem

    def to_json(self) -> dict[str, str]:
        return {
            "pointer": self.pointer,
            "relation": self.relation,
            "status": self.status,
            "detail": self.detail,
        }


# -- splitting and reading the LaTeX -----------------------------------------------------


def _depths(text: str) -> list[int]:
    """The bracket depth before each character of ``text`` (``{([`` open, ``})]`` close)."""
    out, depth = [], 0
    for char in text:
        if char in "})]":
            depth = max(depth - 1, 0)
        out.append(depth)
        if char in "{([":
            depth += 1
    return out


def _strip_sizing(latex: str) -> str:
    text = re.sub(r"\\(left|right|big|Big|bigg|Bigg)(?![a-zA-Z])\s*\.?", "", latex)
    return re.sub(r"\\[,;!:]", " ", text)


def split_relations(latex: str) -> list[Relation]:
    r"""The relations of an equation string, in order (parts without ``=`` are skipped)."""
    text = _strip_sizing(latex)
    depths = _depths(text)
    parts, start, index = [], 0, 0
    while index < len(text):
        separator = (
            re.match(r"\\(quad|qquad)(?![a-zA-Z])|\\ |[,;:]", text[index:])
            if depths[index] == 0
            else None
        )
        if separator:
            parts.append(text[start:index])
            index += len(separator.group(0))
            start = index
        else:
            index += 1
    parts.append(text[start:])
    relations = []
    for part in parts:
        part_depths = _depths(part)
        cuts = [m for m in _RELATIONS.finditer(part) if part_depths[m.start()] == 0]
        if not cuts or cuts[0].group(0) != "=":
            continue
        end = cuts[1].start() if len(cuts) > 1 else len(part)
        lhs, rhs = part[: cuts[0].start()].strip(), part[cuts[0].end() : end].strip()
        if lhs and rhs:
            relations.append(Relation(lhs, rhs))
    return relations


def _group(text: str, start: int, opening: str, closing: str) -> int:
    """Index just past the group opening at ``start`` (``text[start] == opening``)."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return index + 1
    raise EquationError(f"unbalanced {opening}{closing}")


def _split_args(inner: str) -> list[str]:
    args, start, depth = [], 0, 0
    for index, char in enumerate(inner):
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
        elif char == "," and depth == 0:
            args.append(inner[start:index])
            start = index + 1
    return [*args, inner[start:]]


def _plain(sub: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", sub.replace("\\", "")).strip("_")


class _Reader:
    """Maps every symbol of a right-hand side to a placeholder sympy can read (``Z_{ab}``)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}  # placeholder symbol name -> identifier
        self.by_identifier: dict[str, str] = {}
        self.indices: set[str] = set()
        self.elements: set[str] = set()

    def placeholder(self, identifier: str) -> str:
        if identifier not in self.by_identifier:
            number, letters = len(self.by_identifier), ""
            while True:
                number, rest = divmod(number, 26)
                letters = chr(97 + rest) + letters
                if not number:
                    break
            self.by_identifier[identifier] = f"Z_{{z{letters}}}"
            self.names[f"Z_{{z{letters}}}"] = identifier
        return self.by_identifier[identifier]

    def convert(self, text: str) -> str:
        out: list[str] = []
        index = 0
        while index < len(text):
            char = text[index]
            if char == "\\":
                match = re.match(r"\\([A-Za-z]+)", text[index:])
                if not match:
                    raise EquationError(f"{text[index : index + 2]!r} is outside the subset")
                name = match.group(1)
                name = _RENAMED.get(name, name)
                if name in _GREEK or name in _DECORATIONS:
                    index = self.symbol(text, index, out)
                elif name == "operatorname":
                    index = self.operator(text, index + len(match.group(0)), out)
                elif name == "sum":
                    index = self.sum(text, index + len(match.group(0)), out)
                elif name in _SPACES:
                    out.append(" ")
                    index += len(match.group(0))
                elif name in _PASS:
                    out.append(f"\\{name}")
                    index += len(match.group(0))
                    base = re.match(r"_(\{[0-9.]+\}|[0-9])", text[index:])
                    if base and name == "log":  # \log_2: a numeric base
                        out.append(base.group(0))
                        index += len(base.group(0))
                    out.append(" ")
                else:
                    raise EquationError(f"\\{name} is outside the supported subset")
            elif char.isalpha():
                index = self.symbol(text, index, out)
            elif char == "_" or char == "'":
                raise EquationError(f"a subscript or prime without a symbol near {text[index:]!r}")
            else:
                out.append(char)
                index += 1
        return "".join(out)

    def symbol(self, text: str, index: int, out: list[str]) -> int:
        decoration = ""
        match = re.match(r"\\(hat|tilde|bar)\s*\{", text[index:])
        if match:
            decoration = match.group(1)
            end = _group(text, index + len(match.group(0)) - 1, "{", "}")
            inner = text[index + len(match.group(0)) : end - 1].strip()
            index = end
            base_match = re.fullmatch(r"\\([A-Za-z]+)|([A-Za-z])", inner)
            if not base_match or (base_match.group(1) and base_match.group(1) not in _GREEK):
                raise EquationError(f"\\{decoration}{{{inner}}} is outside the supported subset")
            base = base_match.group(1) or base_match.group(2)
        else:
            greek = re.match(r"\\([A-Za-z]+)", text[index:])
            if greek:
                base = _RENAMED.get(greek.group(1), greek.group(1))
                index += len(greek.group(0))
            else:
                base = text[index]
                index += 1
        primes = 0
        while index < len(text) and text[index] == "'":
            primes, index = primes + 1, index + 1
        subscript = ""
        if text.startswith("_", index):
            index += 1
            if text.startswith("{", index):
                end = _group(text, index, "{", "}")
                subscript, index = text[index + 1 : end - 1], end
            else:
                sub = re.match(r"\\[A-Za-z]+|[A-Za-z0-9]", text[index:])
                if not sub:
                    raise EquationError("a subscript must be a letter, digit or {group}")
                subscript, index = sub.group(0), index + len(sub.group(0))
        identifier = base + (f"_{decoration}" if decoration else "") + "_prime" * primes
        if subscript and subscript.strip() in self.indices:
            self.elements.add(identifier)
        elif subscript:
            identifier += f"_{_plain(subscript)}"
        argument = re.match(r"\(\s*([A-Za-z]'*)\s*\)", text[index:])
        if argument and argument.group(1) in self.indices:  # r(a) inside \sum_a: an element
            self.elements.add(identifier)
            index += len(argument.group(0))
        elif base in {"pi", "varpi", "Pi"} and text.startswith("(", index):
            index = _group(text, index, "(", ")")  # π(a|s): the sampled action's probability
        out.append(self.placeholder(identifier))
        if re.match(r"\s*\(", text[index:]):
            out.append(r" \cdot ")  # juxtaposition is a product, never a function call
        return index

    def operator(self, text: str, index: int, out: list[str]) -> int:
        match = re.match(r"\s*\{([A-Za-z]+)\}\s*", text[index:])
        if not match or match.group(1) != "clip":
            name = match.group(1) if match else "?"
            raise EquationError(f"\\operatorname{{{name}}} is not supported (only clip)")
        start = index + len(match.group(0))
        if not text.startswith("(", start):
            raise EquationError(r"\operatorname{clip} needs its arguments in parentheses")
        end = _group(text, start, "(", ")")
        args = _split_args(text[start + 1 : end - 1])
        if len(args) != 3:
            raise EquationError(r"\operatorname{clip}(x, lo, hi) takes three arguments")
        x, lo, hi = (self.convert(a) for a in args)
        out.append(rf"(\min(\max({x},{lo}),{hi}))")
        if re.match(r"\s*\(", text[end:]):
            out.append(r" \cdot ")
        return end

    def sum(self, text: str, index: int, out: list[str]) -> int:
        match = re.match(r"_\s*(\{([^{}]*)\}|([A-Za-z]))", text[index:])
        if not match:
            raise EquationError(r"write an index sum as \sum_i (a sum over list elements)")
        index_name = (match.group(2) or match.group(3) or "").strip()
        after = index + len(match.group(0))
        if "=" in index_name or text[after:].lstrip().startswith("^"):
            raise EquationError(r"a sum with bounds is not supported; write \sum_i without bounds")
        self.indices.add(index_name)
        out.append(r"\sum_{Z_{q}=0}^{Z_{n}} ")
        return after


def parse_relation(rhs: str) -> Parsed:
    """Parse a right-hand side with sympy's Lark LaTeX parser, after mapping the notation.

    Results are cached per process (the Earley parser takes a noticeable fraction of a second
    per relation, and a relation's reading depends only on its text).
    """
    result = _parse_cached(rhs)
    if isinstance(result, EquationError):
        raise EquationError(str(result))
    return result


@functools.lru_cache(maxsize=1024)
def _parse_cached(rhs: str) -> Parsed | EquationError:
    try:
        return _parse(rhs)
    except EquationError as error:
        return error


def _parse(rhs: str) -> Parsed:
    if len(rhs) > MAX_RELATION_CHARS:
        raise EquationError(
            f"it is longer than {MAX_RELATION_CHARS} characters; split it into relations"
        )
    reader = _Reader()
    converted = reader.convert(_strip_sizing(rhs))
    from sympy.parsing.latex import parse_latex  # lazily: sympy is slow to import

    try:
        tree = parse_latex(converted, backend="lark")
    except Exception as error:  # the parser raises lark errors of many types
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise EquationError(f"sympy cannot parse it ({first})") from None
    if not hasattr(tree, "free_symbols"):
        raise EquationError("it is ambiguous; put the summand or the argument in braces")
    names = {**reader.names, "Z_{q}": "", "Z_{n}": ""}
    for symbol in tree.free_symbols:
        if str(symbol) not in names:
            raise EquationError(f"unexpected symbol {symbol} after parsing")
    return Parsed(tree, names, frozenset(reader.elements))


# -- evaluating --------------------------------------------------------------------------


def evaluate(parsed: Parsed, env: Mapping[str, Any]) -> Any:
    """The right-hand side's value at ``env`` (identifier -> number or array), with numpy."""
    import sympy

    def walk(node: Any) -> Any:
        if isinstance(node, sympy.Symbol):
            return env[parsed.names[str(node)]]
        if node is sympy.E:
            return math.e
        if node is sympy.pi:
            return math.pi
        if isinstance(node, sympy.Number):
            return float(node)
        args = [walk(a) for a in node.args] if not isinstance(node, sympy.Sum) else []
        if isinstance(node, sympy.Add):
            return sum(args[1:], args[0])
        if isinstance(node, sympy.Mul):
            return math.prod(args[1:], start=args[0])
        if isinstance(node, sympy.Pow):
            return np.power(np.asarray(args[0], dtype=np.float64), args[1])
        if isinstance(node, sympy.log):
            return np.log(args[0]) / (np.log(args[1]) if len(args) > 1 else 1.0)
        if isinstance(node, sympy.exp):
            return np.exp(args[0])
        if isinstance(node, sympy.Min):
            return _reduce(np.minimum, args)
        if isinstance(node, sympy.Max):
            return _reduce(np.maximum, args)
        if isinstance(node, sympy.Abs):
            return np.abs(args[0])
        if isinstance(node, sympy.Sum):
            return np.sum(walk(node.args[0]), axis=-1)
        raise EquationError(f"{type(node).__name__} cannot be evaluated")

    with np.errstate(all="ignore"):
        return walk(parsed.tree)


def _reduce(function: Any, args: list[Any]) -> Any:
    result = args[0]
    for arg in args[1:]:
        result = function(result, arg)
    return result


def _points(
    grid: Mapping[str, list[Any]], worked: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Every grid combination, then the worked point (worked symbols fixed, others varied)."""
    names = sorted(grid)
    combos = [
        dict(zip(names, values, strict=True))
        for values in itertools.product(*(grid[n] for n in names))
    ]
    if worked:
        rest = [n for n in names if n not in worked]
        for values in itertools.product(*(grid[n] for n in rest)):
            combos.append({**dict(zip(rest, values, strict=True)), **worked})
    return combos


def _array(value: Any) -> Any:
    return np.asarray(value, dtype=np.float64) if isinstance(value, list) else value


def _show(value: Any) -> str:
    array = np.asarray(value, dtype=np.float64)
    if array.ndim == 0:
        return f"{float(array):.6g}"
    return "[" + ", ".join(f"{float(v):.6g}" for v in array.ravel()) + "]"


def _agree(left: Any, right: Any) -> bool:
    try:
        a = np.asarray(left, dtype=np.float64)
        b = np.asarray(right, dtype=np.float64)
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True))
    except (TypeError, ValueError):
        return False


# -- checking a lesson -------------------------------------------------------------------


def _equations(data: Any) -> list[tuple[str, str]]:
    science = data.get("science") if isinstance(data, dict) else None
    found = []
    for index, item in enumerate(science if isinstance(science, list) else []):
        if isinstance(item, dict) and isinstance(item.get("equation"), str):
            found.append((f"/science/{index}/equation", item["equation"]))
    return found


def _key(lhs: str) -> str:
    """A left-hand side compared without spacing and sizing commands (``\\left(`` is ``(``)."""
    return "".join(_strip_sizing(lhs).split())


def _describe(relation: Relation) -> str:
    return f"`{relation.lhs} = {relation.rhs}`"


def _unbound_message(pointer: str, relation: Relation, read: bool) -> str:
    try:
        if not read:
            raise EquationError("too many unbound relations to read them all")
        symbols = ", ".join(parse_relation(relation.rhs).identifiers) or "none"
        hint = f"its symbols: {symbols}"
    except EquationError as error:
        hint = f"rlkl cannot read it ({error}), so exempt it"
    return (
        f"equation relation {_describe(relation)} is neither checked nor exempt; in claims.yaml "
        f"under equations: add `- in: {pointer}`, `relation: '{relation.lhs}'` with `is:` (the "
        f"rlkl.core expression it equals) and `grid:` ({hint}), or `exempt:` with a reason"
    )


def check_equations(
    document: Document, bindings: Bindings | None, quantities: Mapping[str, Any]
) -> tuple[list[EquationRecord], list[Diagnostic]]:
    """Check every relation of every ``science[].equation`` of one lesson.

    ``bindings`` holds the ``equations:`` entries; ``quantities`` are the lesson's named
    quantities (the claims' inputs and outputs) for the worked points. Returns one record per
    relation and the diagnostics: unbound (RLKL430), disagreeing (RLKL431), unreadable
    (RLKL432), a binding that names nothing or lacks grid values (RLKL433), a grid the core
    rejects (RLKL434).
    """
    records: list[EquationRecord] = []
    diagnostics: list[Diagnostic] = []
    entries: Sequence[EquationBinding] = bindings.equations if bindings else []
    equations = dict(_equations(document.data))
    relations = {p: split_relations(latex) for p, latex in equations.items()}
    used: set[int] = set()
    for pointer, found in relations.items():
        for relation in found:
            chosen = [
                (i, e)
                for i, e in enumerate(entries)
                if e.pointer == pointer
                and (e.relation is None or _key(e.relation) == relation.key)
            ]
            used.update(i for i, _ in chosen)
            specific = [e for _, e in chosen if e.relation is not None] or [e for _, e in chosen]
            if not specific:
                records.append(EquationRecord(pointer, relation.lhs, UNBOUND, ""))
                read = sum(r.status == UNBOUND for r in records) <= MAX_HINTS
                message = _unbound_message(pointer, relation, read)
                diagnostics.append(document.diagnostic(pointer, "RLKL430", message))
                continue
            entry = specific[0]
            if entry.exempt is not None:
                records.append(EquationRecord(pointer, relation.lhs, EXEMPT, entry.exempt))
                continue
            assert bindings is not None
            record, problems = _check_one(document, bindings, pointer, relation, entry, quantities)
            records.append(record)
            diagnostics.extend(problems)
    for index, entry in enumerate(entries):
        if index in used:
            continue
        assert bindings is not None
        if entry.pointer not in equations:
            message = f"{entry.pointer} is not an equation of the lesson"
        else:
            listed = ", ".join(f"'{r.lhs}'" for r in relations[entry.pointer]) or "none"
            message = (
                f"relation {entry.relation!r} is not in {entry.pointer} "
                f"(its relations, by left-hand side: {listed})"
            )
        diagnostics.append(bindings.diagnostic(entry.where, "RLKL433", message))
    return records, diagnostics


def _check_one(
    document: Document,
    bindings: Bindings,
    pointer: str,
    relation: Relation,
    entry: EquationBinding,
    quantities: Mapping[str, Any],
) -> tuple[EquationRecord, list[Diagnostic]]:
    def failed(
        status: str, code: str, message: str, at_binding: bool = False
    ) -> tuple[EquationRecord, list[Diagnostic]]:
        where = (
            bindings.diagnostic(entry.where, code, message)
            if at_binding
            else document.diagnostic(pointer, code, message)
        )
        return EquationRecord(pointer, relation.lhs, status, message), [where]

    try:
        parsed = parse_relation(relation.rhs)
    except EquationError as error:
        return failed(
            UNREADABLE,
            "RLKL432",
            f"cannot read {_describe(relation)}: {error}; rewrite it in the supported subset "
            "(README, \"Equations\") or exempt it with a reason",
        )
    source = entry.expression or ""
    try:
        tree = expr.parse(source)
    except expr.ExprError as error:
        return failed(FAILED, "RLKL433", f"is: {source!r}: {error}", at_binding=True)
    needed = set(parsed.identifiers) | expr.names(tree)
    missing = sorted(needed - set(entry.grid))
    if missing:
        return failed(
            FAILED,
            "RLKL433",
            f"grid gives no values for {', '.join(missing)} (symbols of {relation.lhs!r}: "
            f"{', '.join(parsed.identifiers) or 'none'})",
            at_binding=True,
        )
    worked: dict[str, Any] = {}
    for symbol, quantity in entry.worked.items():
        if quantity not in quantities:
            return failed(
                FAILED,
                "RLKL433",
                f"worked: {symbol}: {quantity!r} is not a quantity of the lesson's claims",
                at_binding=True,
            )
        worked[symbol] = quantities[quantity]
    grid = {k: [_array(v) for v in values] for k, values in entry.grid.items() if k in needed}
    size = math.prod(len(values) for values in grid.values())
    if size > MAX_POINTS:
        return failed(
            FAILED, "RLKL433", f"the grid has {size} points; at most {MAX_POINTS}", at_binding=True
        )
    points = _points(grid, {k: v for k, v in worked.items() if k in needed})
    for point in points:
        try:
            want = expr.evaluate(tree, point)
        except (expr.ExprError, ValueError, TypeError, ZeroDivisionError) as error:
            return failed(
                FAILED,
                "RLKL434",
                f"is: {source} cannot be computed at {_point(point)}: {error}",
                at_binding=True,
            )
        try:
            got = evaluate(parsed, point)
        except (EquationError, ValueError, TypeError) as error:
            return failed(UNREADABLE, "RLKL432", f"cannot evaluate {_describe(relation)}: {error}")
        if not _agree(got, want):
            return failed(
                FAILED,
                "RLKL431",
                f"equation {_describe(relation)} gives {_show(got)} at {_point(point)}, but "
                f"{source} = {_show(want)}: the equation does not say what the core computes",
            )
    detail = f"{source} on {len(points)} points"
    return EquationRecord(pointer, relation.lhs, VERIFIED, detail), []


def _point(point: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_show(v)}" for k, v in sorted(point.items()))
