"""The slot grammar of authored sentence templates — the one place it is defined.

A template (``says`` in ``claims.yaml``) is literal text with named slots::

    template := (literal | "{{" | "}}" | slot)*
    slot     := "{" name (":" kind)? "}"     kind := "list" | "unit"
    name     := [A-Za-z_][A-Za-z0-9_]*

``{{`` and ``}}`` are a literal brace. A ``{`` or ``}`` that starts neither a slot nor an
escape is a literal brace too, so index notation such as ``V_{t+{one}}`` reads as the literal
``V_{t+``, the slot ``one`` and the literal ``}``. Slots are recognised before ``}}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::(list|unit))?\}")
_BRACE = re.compile(r"[{}]")
KINDS = ("number", "list", "unit")


@dataclass(frozen=True)
class Slot:
    """One ``{name}``, ``{name:list}`` or ``{name:unit}`` of a template."""

    name: str
    kind: str  # number | list | unit

    def __str__(self) -> str:
        """The slot as a template writes it: ``{name}``, ``{name:list}``, ``{name:unit}``."""
        return f"{{{self.name}}}" if self.kind == "number" else f"{{{self.name}:{self.kind}}}"


Piece = str | Slot  # literal text, or a slot


@cache
def pieces(says: str) -> tuple[Piece, ...]:
    """``says`` split into literal text and slots, left to right (adjacent literals joined).

    Read brace by brace: the text up to the next brace is literal whatever it holds."""
    out: list[Piece] = []
    literal: list[str] = []
    i = 0
    while i < len(says):
        brace = _BRACE.search(says, i)
        if brace is None:
            literal.append(says[i:])
            break
        if brace.start() > i:
            literal.append(says[i : brace.start()])
            i = brace.start()
        match = _SLOT.match(says, i)
        if says.startswith("{{", i):
            literal.append("{")
            i += 2
        elif match:
            if literal:
                out.append("".join(literal))
                literal = []
            out.append(Slot(match.group(1), match.group(2) or "number"))
            i = match.end()
        elif says.startswith("}}", i):
            literal.append("}")
            i += 2
        else:
            literal.append(says[i])
            i += 1
    if literal:
        out.append("".join(literal))
    return tuple(out)


def slots(says: str) -> tuple[Slot, ...]:
    """The slots of ``says`` in order (a name used twice appears twice)."""
    return tuple(p for p in pieces(says) if isinstance(p, Slot))


def literal_text(says: str, *, between: str = " ") -> str:
    """The literal text of ``says`` with each slot replaced by ``between``."""
    return "".join(p if isinstance(p, str) else between for p in pieces(says))


def prefix(says: str) -> str:
    """The literal text before the first slot (all of it when there is none)."""
    first = pieces(says)[0] if pieces(says) else ""
    return first if isinstance(first, str) else ""


def suffix(says: str) -> str:
    """The literal text after the last slot ("" when there is none)."""
    parts = pieces(says)
    if not any(isinstance(p, Slot) for p in parts):
        return ""
    return parts[-1] if isinstance(parts[-1], str) else ""
