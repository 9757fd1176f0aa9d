"""Read ``claims.yaml`` into plain data plus the position of every value.

Two paths give the same result. The reference is ruamel.yaml's round-trip loader (YAML 1.2,
node positions). The fast path composes with libyaml (PyYAML's ``CParser``) using ruamel's
YAML 1.2 implicit-type rules and takes positions from the composed nodes; anything it cannot
vouch for (a syntax error, an alias, a duplicate or non-text key, an explicit tag)
is left to
the reference, so diagnostics are identical either way (``RLKL_REFERENCE=1`` forces the
reference; a test compares the two).

Before either, :func:`nesting_problem` bounds the nesting (flow brackets, indentation), so a
pathological file is a located error at once instead of minutes in a recursive parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from rlkl.loader import MAX_DEPTH  # the one nesting bound, for JSON and YAML alike

MAX_INDENT = 256

Tokens = list[str | int]


@dataclass(frozen=True)
class Source:
    """Plain data (dicts with text keys, lists, scalars) and where each value is written."""

    data: Any
    position: Callable[[Tokens], tuple[int, int]]  # 1-based line/column (nearest ancestor)


_BRACKETS = re.compile(r"[\[\]{}]")


def nesting_problem(text: str) -> tuple[int, int, str] | None:
    """(line, column, message) where ``text`` nests deeper than the limits, else None."""
    depth = 0
    for number, line in enumerate(text.split("\n"), start=1):
        indent = len(line) - len(line.lstrip(" "))
        if indent > MAX_INDENT:
            return number, MAX_INDENT + 1, f"indented deeper than {MAX_INDENT} columns"
        if not _BRACKETS.search(line):
            continue  # no bracket: the depth is unchanged by this line
        for bracket in _BRACKETS.finditer(line):
            if bracket.group() in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    column = bracket.start() + 1
                    return number, column, f"nested deeper than {MAX_DEPTH} levels"
            else:
                depth = max(0, depth - 1)
    return None


class _Unsure(Exception):
    """The fast path cannot promise the reference's result."""


@cache
def _loader() -> Any:
    """PyYAML's C parser with YAML 1.2 implicit types (ruamel's table), or None.

    The class keeps its own reference to the ``yaml`` module (``Loader.yaml``): node classes
    are checked against the module that made them, even if ``yaml`` is imported anew.
    """
    try:
        import yaml
        from ruamel.yaml.resolver import implicit_resolvers
        from yaml.cyaml import CParser
    except ImportError:  # pragma: no cover - the accelerator is optional
        return None
    if not getattr(yaml, "__with_libyaml__", False):
        return None

    class Resolver(yaml.resolver.BaseResolver):  # type: ignore[misc, name-defined, unused-ignore]
        yaml_implicit_resolvers: ClassVar[dict[str, Any]] = {}

    for versions, tag, regexp, first in implicit_resolvers:
        if (1, 2) in versions:  # ruamel wraps some patterns in a lazy proxy: take the pattern
            pattern = regexp.lazy_self() if hasattr(regexp, "lazy_self") else regexp
            Resolver.add_implicit_resolver(tag, pattern, first)

    class Loader(CParser, yaml.constructor.SafeConstructor, Resolver):  # type: ignore[misc, name-defined, unused-ignore]
        yaml_module = yaml

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            yaml.constructor.SafeConstructor.__init__(self)
            Resolver.__init__(self)

    return Loader


_STANDARD = "tag:yaml.org,2002:"
_TEXT = _STANDARD + "str"


Mark = tuple[int, int, Any]  # 0-based line, column, and the children's marks (dict/list/None)


def _once(node: Any, seen: set[int]) -> None:
    """A node met twice was reached through an alias: the reference decides such a file."""
    if id(node) in seen:
        raise _Unsure("alias")
    seen.add(id(node))


def _walk(loader: Any, node: Any, seen: set[int]) -> tuple[Any, Mark]:
    """The node's plain data, and its position with its children's (in the same shape)."""
    yaml = loader.yaml_module
    _once(node, seen)
    tag = node.tag
    if not tag.startswith(_STANDARD):
        raise _Unsure("tag")
    start = node.start_mark
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        marks: dict[str, Mark] = {}
        for key_node, value_node in node.value:
            _once(key_node, seen)
            key = _scalar(loader, key_node)
            if not isinstance(key, str) or key in out or key == "<<":
                raise _Unsure("key")
            out[key], marks[key] = _walk(loader, value_node, seen)
        return out, (start.line, start.column, marks)
    if isinstance(node, yaml.SequenceNode):
        items = [_walk(loader, item, seen) for item in node.value]
        return [data for data, _ in items], (start.line, start.column, [m for _, m in items])
    return _scalar(loader, node), (start.line, start.column, None)


def _scalar(loader: Any, node: Any) -> Any:
    """A node's value as the safe constructor makes it (text as it is, without the call)."""
    if node.tag == _TEXT and isinstance(node, loader.yaml_module.ScalarNode):
        return node.value
    return loader.construct_object(node)


def _position(mark: Mark, tokens: Tokens) -> tuple[int, int]:
    """1-based line and column of the value at ``tokens`` (else of its nearest ancestor)."""
    line, column, children = mark
    for token in tokens:
        keyed = isinstance(children, dict) and isinstance(token, str) and token in children
        listed = (
            isinstance(children, list) and isinstance(token, int) and 0 <= token < len(children)
        )
        if not (keyed or listed):
            break
        line, column, children = children[token]
    return line + 1, column + 1


def fast(text: str) -> Source | None:
    """The fast path's :class:`Source`, or None when the reference must decide."""
    loader_class = _loader()
    if loader_class is None:
        return None
    yaml = loader_class.yaml_module
    loader = loader_class(text)
    try:
        # explicit tags (!!str, !x) are left to the reference; a tag needs a "!", so only
        # such a file is scanned for them (aliases are caught while walking: a node seen twice)
        if "!" in text:
            for event in yaml.parse(text, Loader=yaml.CSafeLoader):
                if getattr(event, "tag", None) is not None:
                    return None
        node = loader.get_single_node()
        if node is None:
            return Source({}, lambda tokens: (1, 1))
        data, mark = _walk(loader, node, set())
    except (_Unsure, yaml.YAMLError, ValueError, TypeError, RecursionError):
        return None
    finally:
        loader.dispose()
    return Source(data, lambda tokens: _position(mark, tokens))
