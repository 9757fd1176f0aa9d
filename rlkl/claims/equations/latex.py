r"""Reading the LaTeX of an equation: relations, symbols, and a tree numpy can evaluate.

The right-hand side of each relation is parsed by sympy's LaTeX parser (Lark backend) after
the notation these lessons use is mapped to what that grammar reads: every symbol becomes an
opaque placeholder (``Z_{za}``), ``\operatorname{clip}`` becomes ``\min``/``\max``, a policy's
arguments are dropped and ``\sum_i`` gets dummy bounds. The sympy expression is then turned
into a plain tree of tuples (:data:`Tree`), which :func:`evaluate` computes with numpy.

The supported LaTeX subset (what these lessons write; anything else is reported as
unreadable, ``RLKL432``, and must be exempt with a reason):

* symbols: a Latin letter or a Greek command (``\epsilon``, ``\pi``, ``\rho`` …), optionally
  ``\hat{…}``/``\tilde{…}``/``\bar{…}``, primes and a subscript; the identifier used in the
  binding drops backslashes and braces: ``\pi_{old}`` → ``pi_old``, ``J_{clip}`` → ``J_clip``,
  ``\hat{A}_t`` → ``A_hat_t``. Juxtaposed letters multiply (``rA`` is r·A); ``e`` is a
  symbol, Euler's number is written ``\exp``;
* ``\pi…(a\mid s)``: a policy applied to its arguments is the probability of the sampled
  action, one symbol (``\pi_\theta(a\mid s)`` → ``pi_theta``, ``\pi_{old}(a)`` →
  ``pi_old``); applied to one subscripted answer it is that answer's probability
  (``\pi(y_w)`` → ``pi_y_w``, ``\pi_{ref}(y_l)`` → ``pi_ref_y_l``);
* ``\sum_i body`` (no bounds): the sum over the elements of every symbol subscripted ``i``
  in the body, which are lists in the grid (``p_i`` → the list ``p``);
* ``\hat{\mathbb{E}}_t[body]``: the mean over the elements of the symbols subscripted ``t``
  (a batch of samples); a symbol applied to the parameters, ``\rho_t(\theta)``, is its value
  there (``\rho_t(\theta)`` under ``\hat{\mathbb{E}}_t`` → the list ``rho``);
* ``\operatorname{clip}(x, lo, hi)`` = min(max(x, lo), hi); ``\operatorname{mean}(x)`` and
  ``\operatorname{std}(x)`` of a list x, the standard deviation being the sample one (divided
  by n − 1, as ``torch.std`` and TRL take it); a symbol with a one-letter subscript written
  beside the same symbol without it (``r_i`` beside ``r``) is every element of that list, so
  ``A_i = r_i - \operatorname{mean}(r)`` is a relation between lists; ``\min``, ``\max``, ``\frac``,
  ``\tfrac``, ``\dfrac``, ``\sqrt``, ``\exp``, ``|x|``, powers, ``\cdot``, ``\times``;
  ``\binom{n}{k}``, the number of k-subsets of n (0 when k > n);
* ``\log`` and ``\ln`` are the natural logarithm, ``\log_2`` the binary one; applied to a
  parenthesised group, ``\log``, ``\ln`` and ``\exp`` take exactly that group as their
  argument (``\exp(a)+\exp(b)``, ``\log(a)-\log(b)``);
* ``\sigma(x)``, σ applied to a parenthesised argument, is the logistic function
  1/(1 + exp(−x)); a σ without one is a symbol (a standard deviation);
* a right-hand side that is one ``\begin{cases}…\end{cases}``: piecewise, the value of the
  first row whose comparisons (``>``, ``<``, ``\geq``, ``\leq``, joined by ``,`` or ``\ ``)
  all hold; ``\text{otherwise}`` always holds;
* separators between relations: ``\quad``, ``\qquad``, ``,``, ``;``, ``:`` and ``\ `` outside
  brackets; a part without ``=`` (a condition such as ``a\sim\pi_{old}``) is not a relation,
  nor is a part that ends with ``:`` (``d_t=1:\ \delta_t=…`` states a case);
* a superscript word is part of a name (``d^{term}_t`` → ``d_term_t``), and a symbol applied
  to one subscripted argument is its value there (``V(s_{t+1})`` → ``V_s_t_1``); ``\lambda``
  is ``lam`` in bindings;
  in a chain ``a = b \neq c`` the relation ``a = b`` is checked.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from rlkl.claims.equations import latex_cache

MAX_RELATION_CHARS = 300  # the Earley parser takes ~0.2 s per 10 fractions; bound its work

# A parsed right-hand side: ("num", value) | ("sym", identifier) | (operation, *operands) with
# operation one of add mul pow log exp min max abs sum mean.
Tree = tuple[Any, ...]

_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "varpi", "rho", "varrho",
    "sigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma", "Delta",
    "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega", "ell",
}  # fmt: skip (\ell, a letter too: a per-token loss ℓ_t)
_PASS = {"frac", "log", "ln", "exp", "min", "max", "sqrt", "cdot", "times", "binom"}
_RENAMED = {"tfrac": "frac", "dfrac": "frac", "varepsilon": "epsilon"}
# λ is `lam` in bindings: `lambda` is a word of Python, the bindings' expression language
_PYTHON_WORDS = {"lambda": "lam"}
_DECORATIONS = {"hat", "tilde", "bar"}
_SPACES = {"quad", "qquad"}
_OPERATORS = {"clip": 3, "mean": 1, "std": 1}  # \operatorname{…} and its number of arguments
_APPLICABLE = {"log", "ln", "exp"}  # applied to a (group): exactly that group is the argument
_APPLIED = re.compile(r"\s*\(")
_MEAN = re.compile(r"\\hat\s*\{\s*\\mathbb\s*\{E\}\s*\}_(?:([A-Za-z])|\{([A-Za-z])\})\s*")
_AT_PARAMETERS = re.compile(r"\(\s*\\(?:theta|phi)\s*\)")
# V(s_t), Q(s_{t+1}): a function of one subscripted argument, one symbol (V_s_t, Q_s_t_1)
_AT_STATE = re.compile(r"\(\s*([A-Za-z]\s*_\s*(?:\{[^{}()]+\}|[A-Za-z0-9]))\s*\)")
_SEPARATOR = re.compile(r"\\(quad|qquad)(?![a-zA-Z])|\\ |[,;:]")
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
    """A relation's right-hand side as a :data:`Tree`, and the identifiers it uses."""

    tree: Tree
    identifiers: tuple[str, ...]  # sorted
    elements: frozenset[str]  # identifiers summed over an index (lists in the grid)


# -- splitting and reading the LaTeX -----------------------------------------------------


def _depths(text: str) -> list[int]:
    """The bracket depth before each character of ``text`` (``{([`` open, ``})]`` close; an
    environment, ``\\begin{cases}`` … ``\\end{cases}``, is a bracket too)."""
    out, depth = [], 0
    for index, char in enumerate(text):
        if char in "})]" or text.startswith("\\end{", index):
            depth = max(depth - 1, 0)
        out.append(depth)
        if char in "{([" or text.startswith("\\begin{", index):
            depth += 1
    return out


def strip_sizing(latex: str) -> str:
    r"""``latex`` without sizing commands (``\left(`` is ``(``) and with thin spaces as spaces."""
    text = re.sub(r"\\(left|right|big|Big|bigg|Bigg)(?![a-zA-Z])\s*\.?", "", latex)
    return re.sub(r"\\[,;!:]", " ", text)


def split_relations(latex: str) -> list[Relation]:
    r"""The relations of an equation string, in order (parts without ``=`` are skipped)."""
    text = strip_sizing(latex)
    depths = _depths(text)
    parts, start, index = [], 0, 0
    while index < len(text):
        separator = _SEPARATOR.match(text, index) if depths[index] == 0 else None
        if separator:
            if separator.group(0) != ":":  # "d_t=1:" introduces a case: a condition
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


def _base(text: str, index: int) -> tuple[str, str, int]:
    """A symbol's letter (or Greek name) and decoration (``\\hat{A}`` → A, hat), and where
    it ends."""
    match = re.match(r"\\(hat|tilde|bar)\s*\{", text[index:])
    if match:
        decoration = match.group(1)
        end = _group(text, index + len(match.group(0)) - 1, "{", "}")
        inner = text[index + len(match.group(0)) : end - 1].strip()
        base_match = re.fullmatch(r"\\([A-Za-z]+)|([A-Za-z])", inner)
        if not base_match or (base_match.group(1) and base_match.group(1) not in _GREEK):
            raise EquationError(f"\\{decoration}{{{inner}}} is outside the supported subset")
        return base_match.group(1) or base_match.group(2), decoration, end
    greek = re.match(r"\\([A-Za-z]+)", text[index:])
    if greek:
        return _RENAMED.get(greek.group(1), greek.group(1)), "", index + len(greek.group(0))
    return text[index], "", index + 1


def _subscript(text: str, index: int) -> tuple[str, int]:
    """The subscript at ``index`` (``_t``, ``_{old}``, ``_\\theta``), or "" when there is none."""
    if not text.startswith("_", index):
        return "", index
    index += 1
    if text.startswith("{", index):
        end = _group(text, index, "{", "}")
        return text[index + 1 : end - 1], end
    sub = re.match(r"\\[A-Za-z]+|[A-Za-z0-9]", text[index:])
    if not sub:
        raise EquationError("a subscript must be a letter, digit or {group}")
    return sub.group(0), index + len(sub.group(0))


def _word_superscript(text: str, index: int) -> tuple[list[str], int]:
    """A superscript of two or more letters at ``index`` (``d^{term}``, ``L^{CLIP}``): part of
    the symbol's name, never a power."""
    match = re.match(r"\^\s*\{\s*([A-Za-z]{2,})\s*\}", text[index:])
    return ([match.group(1)], index + len(match.group(0))) if match else ([], index)


def _plain(sub: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", sub.replace("\\", "")).strip("_")


class _Reader:
    """Maps every symbol of a right-hand side to a placeholder sympy can read (``Z_{ab}``)."""

    def __init__(self, collapse: frozenset[str] = frozenset()) -> None:
        self.names: dict[str, str] = {}  # placeholder symbol name -> identifier
        self.by_identifier: dict[str, str] = {}
        self.indices: set[str] = set()
        self.elements: set[str] = set()
        self.collapse = collapse  # symbols whose free one-letter index means "every element"
        self.bare: set[str] = set()  # symbols written without a subscript
        self.indexed: set[str] = set()  # symbols written with a one-letter subscript

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
                mean = _MEAN.match(text, index)
                if mean:
                    index = self.mean(text, mean, out)
                elif name == "sigma" and _APPLIED.match(text, index + len(match.group(0))):
                    index = self.logistic(text, index + len(match.group(0)), out)
                elif name in _GREEK or name in _DECORATIONS:
                    index = self.symbol(text, index, out)
                elif name == "operatorname":
                    index = self.operator(text, index + len(match.group(0)), out)
                elif name == "sum":
                    index = self.sum(text, index + len(match.group(0)), out)
                elif name in _SPACES:
                    out.append(" ")
                    index += len(match.group(0))
                elif name in _PASS:
                    index = self.function(text, index + len(match.group(0)), name, out)
                else:
                    raise EquationError(f"\\{name} is outside the supported subset")
            elif char.isalpha():
                index = self.symbol(text, index, out)
            elif char == "_" or char == "'":
                raise EquationError(f"a subscript or prime without a symbol near {text[index:]!r}")
            else:
                if char == "(" and "".join(out[-2:]).rstrip().endswith(")"):
                    out.append(r" \cdot ")  # (1-a)(1-b): two factors
                out.append(char)
                index += 1
        return "".join(out)

    def symbol(self, text: str, index: int, out: list[str]) -> int:
        """One symbol at ``index``: its identifier, what it is applied to, its placeholder."""
        base, decoration, index = _base(text, index)
        primes = 0
        while index < len(text) and text[index] == "'":
            primes, index = primes + 1, index + 1
        words, index = _word_superscript(text, index)
        subscript, index = _subscript(text, index)
        more, index = _word_superscript(text, index)
        identifier = (_PYTHON_WORDS.get(base, base) + (f"_{decoration}" if decoration else "")
                      + "_prime" * primes
                      + "".join(f"_{w}" for w in words + more))
        free = re.fullmatch(r"[A-Za-z]", subscript.strip()) is not None
        if not subscript:
            self.bare.add(identifier)
        elif free:
            self.indexed.add(identifier)
        listed = subscript.strip() in self.indices or (free and identifier in self.collapse)
        if subscript and listed:
            self.elements.add(identifier)  # p_i under \sum_i; r_i beside r: the list r
        elif subscript:
            identifier += f"_{_plain(subscript)}"
        identifier, index = self.applied_to(text, index, base, identifier)
        if "".join(out[-2:]).rstrip().endswith(")"):
            out.append(r" \cdot ")  # (1-d)V: a symbol after a parenthesis is a product
        out.append(self.placeholder(identifier))
        if re.match(r"\s*\(", text[index:]):
            out.append(r" \cdot ")  # juxtaposition is a product, never a function call
        return index

    def applied_to(self, text: str, index: int, base: str, identifier: str) -> tuple[str, int]:
        """A symbol's identifier once the parenthesis after it is read, if it is an argument:
        ``r(a)`` under ``\\sum_a`` (an element), ``V(s_t)`` (a value at a state), ``ρ(θ)`` and
        ``π(a|s)`` (dropped), ``π(y_w)`` (that answer's probability)."""
        argument = re.match(r"\(\s*([A-Za-z]'*)\s*\)", text[index:])
        if argument and argument.group(1) in self.indices:  # r(a) inside \sum_a: an element
            self.elements.add(identifier)
            return identifier, index + len(argument.group(0))
        if at := _AT_STATE.match(text, index):  # V(s_t): the value at that state, a symbol
            return identifier + f"_{_plain(at.group(1))}", at.end()
        if at := _AT_PARAMETERS.match(text, index):  # ρ_t(θ): its value at the parameters
            return identifier, at.end()
        if base in {"pi", "varpi", "Pi"} and text.startswith("(", index):
            end = _group(text, index, "(", ")")  # π(a|s): the sampled action's probability
            answer = text[index + 1 : end - 1]
            if re.fullmatch(r"\s*[A-Za-z]\s*_\s*(\{[A-Za-z0-9]+\}|[A-Za-z0-9])\s*", answer):
                identifier += f"_{_plain(answer)}"  # π(y_w): the probability of y_w
            return identifier, end
        return identifier, index

    def function(self, text: str, index: int, name: str, out: list[str]) -> int:
        r"""``\log``, ``\exp``, ``\frac`` …; a ``\log``/``\exp``/``\ln`` applied to a
        parenthesised group (or to ``\sigma(…)``) takes exactly that group as its argument,
        as a reader does: ``\exp(a)+\exp(b)`` is never exp(a + exp(b))."""
        head = f"\\{name}"
        base = re.match(r"_(\{[0-9.]+\}|[0-9])", text[index:])
        if base and name == "log":  # \log_2: a numeric base
            head += base.group(0)
            index += len(base.group(0))
        if name in _APPLICABLE:
            start = len(text) - len(text[index:].lstrip())
            end, argument = start, ""
            if text[start : start + 1] in ("(", "{"):
                end = _group(text, start, text[start], ")" if text[start] == "(" else "}")
                argument = self.convert(text[start + 1 : end - 1])
            else:
                end, argument = self.argument(text, start)
            if argument:  # a braced group: a factor of its own (β\log Z is β·log Z)
                out.append(f"{{({head} ({argument}))}}")
                return end
        out.append(head + " ")
        return index

    def argument(self, text: str, start: int) -> tuple[int, str]:
        r"""The argument of a ``\log``/``\exp`` written without parentheses, read as a reader
        does: one ``\sigma(…)``, one ``\frac{…}{…}`` or one symbol (``\log\rho-1`` is
        log(ρ) − 1, ``\log\frac{a}{b}-c`` is log(a/b) − c). ``(start, "")`` for anything
        else (``\log\sum_u …`` keeps the parser's reading)."""
        inner: list[str] = []
        sigma = re.match(r"\\sigma(?![a-zA-Z])", text[start:])
        fraction = re.match(r"\\[td]?frac(?![a-zA-Z])\s*", text[start:])
        if sigma and _APPLIED.match(text, start + len(sigma.group(0))):
            end = self.logistic(text, start + len(sigma.group(0)), inner)
        elif fraction and text.startswith("{", start + len(fraction.group(0))):
            numerator = _group(text, start + len(fraction.group(0)), "{", "}")
            after = len(text) - len(text[numerator:].lstrip())
            if not text.startswith("{", after):
                return start, ""
            end = _group(text, after, "{", "}")
            inner.append(self.convert(text[start:end]))
        elif re.match(r"[A-Za-z]|\\([A-Za-z]+)", text[start:]) and (
            text[start].isalpha()
            or re.match(r"\\([A-Za-z]+)", text[start:]).group(1)  # type: ignore[union-attr]
            in _GREEK | _DECORATIONS
        ):
            if self.applied(text, start):
                return start, ""  # log x(…): no reading is clear; the parser's stands
            end = self.symbol(text, start, inner)
        else:
            return start, ""
        return end, "".join(inner)

    def applied(self, text: str, start: int) -> bool:
        """Whether the symbol at ``start`` is followed by a parenthesis it does not consume."""
        probe = _Reader()
        probe.indices = set(self.indices)
        out: list[str] = []
        probe.symbol(text, start, out)
        return out[-1] == r" \cdot "

    def logistic(self, text: str, index: int, out: list[str]) -> int:
        r"""``\sigma(x)``: the logistic function 1/(1 + exp(−x)) (a σ not applied to a
        parenthesised argument is a symbol, such as a standard deviation)."""
        start = _APPLIED.match(text, index).end() - 1  # type: ignore[union-attr]
        end = _group(text, start, "(", ")")
        x = self.convert(text[start + 1 : end - 1])
        out.append(rf"{{(\frac{{1}}{{1+{{(\exp (-({x})))}}}})}}")
        return end

    def operator(self, text: str, index: int, out: list[str]) -> int:
        r"""``\operatorname{clip}(x, lo, hi)``; ``\operatorname{mean}(x)`` and
        ``\operatorname{std}(x)`` of a list (the mean node, and the sentinel ``\cos`` that the
        source may not use and :func:`_to_tree` reads as the sample standard deviation: an even
        function, as the standard deviation is, so sympy's cos(−x) = cos(x) stays true)."""
        match = re.match(r"\s*\{([A-Za-z]+)\}\s*", text[index:])
        name = match.group(1) if match else "?"
        if not match or name not in _OPERATORS:
            raise EquationError(
                f"\\operatorname{{{name}}} is not supported (only clip, mean and std)")
        start = index + len(match.group(0))
        if not text.startswith("(", start):
            raise EquationError(rf"\operatorname{{{name}}} needs its arguments in parentheses")
        end = _group(text, start, "(", ")")
        args = _split_args(text[start + 1 : end - 1])
        if len(args) != _OPERATORS[name]:
            raise EquationError(
                rf"\operatorname{{{name}}} takes {_OPERATORS[name]} argument(s), got {len(args)}")
        if name == "clip":
            x, lo, hi = (self.convert(a) for a in args)
            out.append(rf"(\min(\max({x},{lo}),{hi}))")
        elif name == "mean":
            out.append(r"{(\sum_{Z_{q}=0}^{Z_{m}} (" + self.convert(args[0]) + "))}")
        else:
            out.append(r"{(\cos (" + self.convert(args[0]) + "))}")
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

    def mean(self, text: str, match: re.Match[str], out: list[str]) -> int:
        r"""``\hat{\mathbb{E}}_t[x]``: the mean over the elements indexed ``t`` (a batch)."""
        self.indices.add(match.group(1) or match.group(2))
        index = match.end()
        if not text.startswith("[", index):
            raise EquationError(r"write the empirical mean as \hat{\mathbb{E}}_t[...]")
        end = _group(text, index, "[", "]")
        out.append(r"\sum_{Z_{q}=0}^{Z_{m}} (" + self.convert(text[index + 1 : end - 1]) + ")")
        return end


def parse_relation(rhs: str) -> Parsed:
    """Parse a right-hand side with sympy's Lark LaTeX parser, after mapping the notation.

    A relation's reading depends only on its text, so it is cached in the process and on disk
    (:mod:`rlkl.claims.equations.latex_cache`): sympy is imported only for relations not read
    before.
    """
    result = _parse_cached(rhs)
    if isinstance(result, EquationError):
        raise EquationError(str(result))
    return result


@functools.lru_cache(maxsize=1024)
def _parse_cached(rhs: str) -> Parsed | EquationError:
    stored = latex_cache.lookup(rhs)
    if stored is not None:
        if "error" in stored:
            return EquationError(stored["error"])
        return Parsed(
            stored["tree"], tuple(stored["identifiers"]), frozenset(stored["elements"])
        )
    try:
        parsed = _parse(rhs)
    except EquationError as error:
        latex_cache.store(rhs, {"error": str(error)})
        return error
    latex_cache.store(
        rhs,
        {
            "tree": parsed.tree,
            "identifiers": list(parsed.identifiers),
            "elements": sorted(parsed.elements),
        },
    )
    return parsed


def _parse(rhs: str) -> Parsed:
    if len(rhs) > MAX_RELATION_CHARS:
        raise EquationError(
            f"it is longer than {MAX_RELATION_CHARS} characters; split it into relations"
        )
    cases = _CASES.fullmatch(strip_sizing(rhs).strip())
    if cases:
        return _piecewise(cases.group(1))
    source = strip_sizing(rhs).replace("\\ ", " ")
    reader = _Reader()
    converted = reader.convert(source)
    if reader.bare & reader.indexed:  # r_i beside r: the free index runs over r's elements
        reader = _Reader(frozenset(reader.bare & reader.indexed))
        converted = reader.convert(source)
    from sympy.parsing.latex import parse_latex  # lazily: sympy is slow to import

    try:
        parsed = parse_latex(converted, backend="lark")
    except Exception as error:  # the parser raises lark errors of many types
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise EquationError(f"sympy cannot parse it ({first})") from None
    readings = getattr(parsed, "children", None) if not hasattr(parsed, "free_symbols") else None
    if readings and all(hasattr(r, "free_symbols") and r == readings[0] for r in readings):
        parsed = readings[0]  # a·b·(c)·(d) grouped two ways: one and the same expression
    if not hasattr(parsed, "free_symbols"):
        raise EquationError("it is ambiguous; put the summand or the argument in braces")
    names = {**reader.names, "Z_{q}": "", "Z_{n}": "", "Z_{m}": ""}
    try:
        tree = _to_tree(parsed, names)
    except RecursionError:
        raise EquationError("it is nested too deeply") from None
    used = sorted({names[str(symbol)] for symbol in parsed.free_symbols} - {""})
    return Parsed(tree, tuple(used), frozenset(reader.elements))


_CASES = re.compile(r"\\begin\{cases\}(.*)\\end\{cases\}", re.DOTALL)
_COMPARISON = re.compile(r"\\geq?(?![a-zA-Z])|\\leq?(?![a-zA-Z])|[<>]")
_OTHERWISE = re.compile(r"\\text\{\s*otherwise\s*\}|\\text\{\s*else\s*\}")


def _piecewise(body: str) -> Parsed:
    r"""``\begin{cases} v_1 & c_1 \\ v_2 & c_2 \\ … \end{cases}``: the value of the first row
    whose conditions all hold (``a>b``, ``a<b``, ``\geq``, ``\leq``, joined by ``,`` or ``\ ``;
    ``\text{otherwise}`` always holds). Each value and each side of a comparison is read as a
    right-hand side of its own."""
    rows, parts = [], [r for r in re.split(r"\\\\", body) if r.strip()]
    used: set[str] = set()
    elements: set[str] = set()
    for row in parts:
        if row.count("&") != 1:
            raise EquationError("each row of a cases environment needs one & (value & condition)")
        value_text, condition_text = row.split("&")
        value = _parse(value_text.strip())
        used.update(value.identifiers)
        elements |= value.elements
        conditions = []
        if not _OTHERWISE.fullmatch(condition_text.strip()):
            for clause in re.split(r",|\\ ", condition_text):
                if not clause.strip():
                    continue
                ops = list(_COMPARISON.finditer(clause))
                if len(ops) != 1:
                    raise EquationError(f"a case condition must be one comparison: {clause!r}")
                left, right = clause[: ops[0].start()], clause[ops[0].end() :]
                sides = [_parse(side.strip()) for side in (left, right)]
                for side in sides:
                    used.update(side.identifiers)
                    elements |= side.elements
                conditions.append((ops[0].group(0), sides[0].tree, sides[1].tree))
        rows.append((value.tree, tuple(conditions)))
    if not rows:
        raise EquationError("an empty cases environment")
    return Parsed(("piecewise", tuple(rows)), tuple(sorted(used)), frozenset(elements))


def _to_tree(node: Any, names: Mapping[str, str]) -> Tree:
    """The sympy expression ``node`` as a :data:`Tree` (symbols named by identifier)."""
    import sympy

    def walk(item: Any) -> Tree:
        if isinstance(item, sympy.Symbol):
            if str(item) not in names:
                raise EquationError(f"unexpected symbol {item} after parsing")
            return ("sym", names[str(item)])
        if item is sympy.E:
            return ("num", math.e)
        if item is sympy.pi:
            return ("num", math.pi)
        if isinstance(item, sympy.Number):
            return ("num", float(item))
        if isinstance(item, sympy.Sum):
            mean = str(item.args[1][2]) == "Z_{m}"  # \hat{\mathbb{E}}_t: a mean, not a sum
            return ("mean" if mean else "sum", walk(item.args[0]))
        for kind, operation in _OPERATIONS.items():
            if isinstance(item, getattr(sympy, kind)):
                return (operation, *(walk(a) for a in item.args))
        raise EquationError(f"{type(item).__name__} cannot be evaluated")

    return walk(node)


_OPERATIONS = {
    "Add": "add",
    "Mul": "mul",
    "Pow": "pow",
    "log": "log",
    "exp": "exp",
    "Min": "min",
    "Max": "max",
    "Abs": "abs",
    "binomial": "binomial",
    "cos": "std",  # \operatorname{std}: the reader's sentinel (the source may not write \cos)
}


# -- evaluating --------------------------------------------------------------------------


def evaluate(parsed: Parsed, env: Mapping[str, Any]) -> Any:
    """The right-hand side's value at ``env`` (identifier -> number or array), with numpy."""

    def walk(node: Tree) -> Any:
        kind = node[0]
        if kind == "num":
            return node[1]
        if kind == "piecewise":
            return _select(node[1], walk)
        if kind == "sym":
            return env[node[1]]
        if kind == "sum":
            return np.sum(walk(node[1]), axis=-1)
        if kind == "mean":
            return np.mean(walk(node[1]), axis=-1)
        args = [walk(a) for a in node[1:]]
        if kind == "add":
            return sum(args[1:], args[0])
        if kind == "mul":
            return math.prod(args[1:], start=args[0])
        if kind == "pow":
            return np.power(np.asarray(args[0], dtype=np.float64), args[1])
        if kind == "log":
            return np.log(args[0]) / (np.log(args[1]) if len(args) > 1 else 1.0)
        if kind == "exp":
            return np.exp(args[0])
        if kind == "min":
            return _reduce(np.minimum, args)
        if kind == "max":
            return _reduce(np.maximum, args)
        if kind == "abs":
            return np.abs(args[0])
        if kind == "binomial":
            return _binomial(args[0], args[1])
        if kind == "std":  # the sample standard deviation, as torch.std and TRL take it
            return np.std(args[0], axis=-1, ddof=1)
        raise EquationError(f"{kind} cannot be evaluated")

    with np.errstate(all="ignore"):
        return walk(parsed.tree)


def _choose(n: float, k: float) -> float:
    """C(n, k) for whole numbers, exactly (``math.comb``): 0 when k < 0 or k > n; NaN for a
    number that is not whole (the binomial of the lessons counts subsets)."""
    if not (float(n).is_integer() and float(k).is_integer()) or n < 0:
        return math.nan
    return float(math.comb(int(n), int(k))) if 0 <= k <= n else 0.0


def _binomial(n: Any, k: Any) -> Any:
    """``\\binom{n}{k}`` over numpy arrays (broadcast), entry by entry with :func:`_choose`."""
    return np.vectorize(_choose, otypes=[np.float64])(n, k)


_COMPARE = {">": np.greater, "<": np.less, "\\ge": np.greater_equal, "\\geq": np.greater_equal,
            "\\le": np.less_equal, "\\leq": np.less_equal}


def _select(rows: Any, walk: Any) -> Any:
    """The piecewise value: each row's value where its conditions hold and no earlier row's do."""
    values, holds = [], []
    for value, conditions in rows:
        held: Any = True
        for op, left, right in conditions:
            held = np.logical_and(held, _COMPARE[op](walk(left), walk(right)))
        values.append(walk(value))
        holds.append(held)
    if all(np.ndim(v) == 0 for v in values) and all(np.ndim(h) == 0 for h in holds):
        # one point (how a grid is compared): np.select's value without its arrays
        return next((np.float64(v) for v, h in zip(values, holds, strict=True) if h),
                    np.float64(np.nan))
    shape = np.broadcast_shapes(*(np.shape(v) for v in values), *(np.shape(h) for h in holds))
    result = np.select([np.broadcast_to(h, shape) for h in holds],
                       [np.broadcast_to(np.asarray(v, dtype=np.float64), shape) for v in values],
                       default=np.nan)
    return result[()] if result.ndim == 0 else result


def _reduce(function: Any, args: list[Any]) -> Any:
    result = args[0]
    for arg in args[1:]:
        result = function(result, arg)
    return result


