"""Which rules a run reports: ``select``, ``extend-select``, ``ignore``, per-path ignores and
the ``preview`` switch, as ruff has them.

A check always computes every rule (and caches that), and :meth:`Rules.apply` then decides
what is reported, so a change of configuration never needs a recheck. A diagnostic is
reported when its code is selected (``select``, default ``ALL``, plus ``extend-select``),
not ignored (``ignore``), and not ignored for its file by ``per-path-ignores``. A preview
rule (:attr:`rlkl.diagnostics.Code.preview`) is a warning until the release its table entry
names; ``preview = true`` makes it an error now.

Codes a lesson cannot be checked past are always reported: reading (``RLKL1xx``), the schema
and models (``RLKL2xx``), the configuration (``RLKL8xx``) and the run (``RLKL9xx``). A lesson
that is not JSON has no numbers to check, so ignoring that would turn "nothing checked"
into a pass.

Selectors name a code (``RLKL430``, ``430``), its name (``equation-unaccounted``), a prefix
of codes (``RLKL4``, ``RLKL43``) or ``ALL``.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rlkl.diagnostics import CODES, Diagnostic, lookup

ALL = "ALL"
KEPT = ("RLKL1", "RLKL2", "RLKL8", "RLKL9")
"""Prefixes of the codes no selection hides (see the module docstring)."""
_PREFIX = re.compile(r"RLKL\d{1,2}")


class SelectorError(ValueError):
    """A selector that names nothing (RLKL804) or a code that cannot be ignored (RLKL805)."""

    def __init__(self, code: str, message: str, selector: str) -> None:
        super().__init__(message)
        self.code = code
        self.selector = selector


def kept(code: str) -> bool:
    """Whether ``code`` is always reported, whatever the selection (:data:`KEPT`)."""
    return code.startswith(KEPT)


def codes_of(selector: str) -> frozenset[str]:
    """The codes one selector names: a code, a code's name, a prefix or ``ALL``.

    Raises :class:`SelectorError` (RLKL804) when it names none."""
    text = selector.strip()
    if text.upper() == ALL:
        return frozenset(CODES)
    one = lookup(text)
    if one is not None:
        return frozenset({one})
    if _PREFIX.fullmatch(text.upper()):
        found = frozenset(c for c in CODES if c.startswith(text.upper()))
        if found:
            return found
    raise SelectorError("RLKL804", f"{selector!r} names no code, code name or prefix "
                        "(`rlkl explain CODE` shows one; prefixes look like RLKL4)", selector)


def ignorable(selector: str) -> frozenset[str]:
    """The codes an ``ignore`` selector names; raises :class:`SelectorError` for one that
    names nothing, or that names one code (not a prefix) rlkl always reports (RLKL805)."""
    found = codes_of(selector)
    if len(found) == 1 and kept(next(iter(found))) and selector.strip().upper() != ALL:
        (one,) = found
        raise SelectorError("RLKL805", f"{one} ({CODES[one].name}) cannot be ignored: a lesson "
                            "it stops is never checked; fix the file instead", selector)
    return frozenset(c for c in found if not kept(c))


@dataclass(frozen=True)
class PathIgnore:
    """One entry of ``per-path-ignores``: a glob (relative to the configuration's folder) and
    the codes it ignores in the files it matches, with where the entry is written."""

    pattern: str
    codes: frozenset[str]
    named: tuple[str, ...]  # the codes as one code each (selectors of exactly one code)
    file: str = ""
    line: int = 1
    column: int = 1

    def matches(self, relative: str) -> bool:
        """Whether the posix path ``relative`` (to the configuration's folder), or a folder
        above it, matches the glob (fnmatch: ``*`` also crosses ``/``)."""
        parts = relative.split("/")
        return any(fnmatch.fnmatchcase("/".join(parts[:n]), self.pattern.rstrip("/"))
                   for n in range(1, len(parts) + 1))


@dataclass(frozen=True)
class Rules:
    """A run's selection of rules (the configuration's, overridden by command-line options)."""

    select: frozenset[str] = frozenset(CODES)
    ignore: frozenset[str] = frozenset()
    per_path: tuple[PathIgnore, ...] = ()
    preview: bool = False
    root: Path = field(default_factory=Path.cwd)

    @classmethod
    def from_selectors(
        cls,
        select: Sequence[str] | None = None,
        extend_select: Sequence[str] = (),
        ignore: Sequence[str] = (),
        per_path: Sequence[PathIgnore] = (),
        *,
        preview: bool = False,
        root: Path | None = None,
    ) -> Rules:
        """Rules from selectors as written (raises :class:`SelectorError`)."""
        chosen: set[str] = set()
        for selector in [ALL] if select is None else select:
            chosen |= codes_of(selector)
        for selector in extend_select:
            chosen |= codes_of(selector)
        ignored: set[str] = set()
        for selector in ignore:
            ignored |= ignorable(selector)
        return cls(frozenset(chosen), frozenset(ignored), tuple(per_path), preview,
                   root if root is not None else Path.cwd())

    def relative(self, display: str) -> str:
        """A diagnostic's file (as displayed) relative to :attr:`root`, posix."""
        return Path(os.path.relpath(os.path.abspath(display), self.root)).as_posix()

    def reported(self, code: str, relative: str) -> bool:
        """Whether a diagnostic of ``code`` in the file ``relative`` (to :attr:`root`) is
        reported."""
        if kept(code):
            return True
        if code not in self.select or code in self.ignore:
            return False
        return not any(code in one.codes and one.matches(relative) for one in self.per_path)

    def apply(
        self, diagnostics: Iterable[Diagnostic], checked: Iterable[str] = ()
    ) -> list[Diagnostic]:
        """The diagnostics this selection reports, preview rules raised to errors under
        ``preview``; then an RLKL810 for each code of a per-path ignore that matched one of
        the ``checked`` files (displayed paths) and suppressed nothing there, when RLKL810
        is itself reported."""
        shown: list[Diagnostic] = []
        used: set[tuple[int, str]] = set()
        for d in diagnostics:
            relative = self.relative(d.file) if d.file else ""
            if not kept(d.code) and d.file:
                hit = next((n for n, one in enumerate(self.per_path)
                            if d.code in one.codes and one.matches(relative)), None)
                if hit is not None:
                    used.add((hit, d.code))
            if not d.file or self.reported(d.code, relative):
                shown.append(self._severity(d))
        shown += self._unused(used, checked)
        return shown

    def _severity(self, d: Diagnostic) -> Diagnostic:
        entry = CODES.get(d.code)
        if self.preview and entry is not None and entry.preview:
            return d.as_error()
        return d

    def _unused(self, used: set[tuple[int, str]], checked: Iterable[str]) -> list[Diagnostic]:
        files = [self.relative(display) for display in checked]
        found = []
        for n, one in enumerate(self.per_path):
            if not any(one.matches(relative) for relative in files):
                continue  # this run checked none of its files: nothing to say
            for code in one.named:
                if (n, code) not in used:
                    found.append(Diagnostic(
                        one.file, one.line, one.column, "", "RLKL810",
                        f"per-path ignore {one.pattern!r} of {code} ({CODES[code].name}) "
                        "suppressed nothing in the files it matches: remove it"))
        wanted = [d for d in found if self.reported(d.code, self.relative(d.file))]
        return [self._severity(d) for d in wanted]


def named_codes(selectors: Sequence[str]) -> tuple[str, ...]:
    """The selectors of ``per-path-ignores`` that each name one code, as codes: those whose
    unused entries RLKL810 reports (a prefix ignores a family and is never "unused")."""
    out = []
    for selector in selectors:
        found = codes_of(selector)
        if len(found) == 1 and selector.strip().upper() != ALL:
            out.append(next(iter(found)))
    return tuple(out)


def path_ignore(pattern: str, selectors: Sequence[str], *, file: str = "", line: int = 1,
                column: int = 1) -> PathIgnore:
    """One ``per-path-ignores`` entry from its glob and selectors (raises
    :class:`SelectorError`)."""
    codes: set[str] = set()
    for selector in selectors:
        codes |= ignorable(selector)
    return PathIgnore(pattern, frozenset(codes), named_codes(selectors), file, line, column)

