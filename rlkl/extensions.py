"""Functions of your own: an author's pure functions, callable from bindings beside
``rlkl.core``'s.

They come from the modules the configuration names (``functions = ["lesson_functions"]``,
importable from the configuration's folder or installed) and from installed packages, through
the ``rlkl.functions`` entry point (its value names a module). A module lists its functions in
``__all__`` and has a version: ``RLKL_FUNCTIONS_VERSION`` or ``__version__`` in the module,
else the version of the installed package it belongs to. The version is recorded in the
fixtures of every lesson that calls one of its functions, beside the core version, so a new
version is drift (RLKL504), not a silent pass. A function may not take a name rlkl already
gives meaning to (a core function, a built-in, a constant) or another module's name.

The same rules as the core's hold: a binding calls them with numbers and the keywords their
signature names; what they return must be a number, a list of numbers or a tuple of them.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from rlkl.claims.evaluation import functions as table

GROUP = "rlkl.functions"
"""The entry-point group an installed package names its function modules in."""


class ExtensionError(Exception):
    """A function module that cannot be used (RLKL807), or a name already taken (RLKL808)."""

    def __init__(self, code: str, message: str, module: str) -> None:
        super().__init__(message)
        self.code = code
        self.module = module


@dataclass(frozen=True)
class Extension:
    """One module of an author's functions, as installed in the binding function table."""

    module: str
    version: str
    functions: dict[str, Callable[..., Any]]
    origin: str  # "the configuration" or "entry point NAME of DISTRIBUTION"
    source: str  # a hash of the module's file: the check cache knows when it changes


def _import(name: str, origin: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except Exception as error:  # an author's module may raise anything while importing
        raise ExtensionError("RLKL807", f"function module {name!r} ({origin}) cannot be "
                             f"imported: {type(error).__name__}: {error}", name) from None


def _version(module: ModuleType, distribution: str | None) -> str | None:
    for attribute in ("RLKL_FUNCTIONS_VERSION", "__version__"):
        value = getattr(module, attribute, None)
        if isinstance(value, str) and value:
            return value
    names = [distribution] if distribution else metadata.packages_distributions().get(
        module.__name__.partition(".")[0], [])
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def _source_hash(module: ModuleType) -> str:
    path = getattr(module, "__file__", None)
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else ""
    except OSError:
        return ""


def load(name: str, *, origin: str = "the configuration",
         distribution: str | None = None) -> Extension:
    """The functions of module ``name``: those its ``__all__`` lists, each a plain Python
    function. Raises :class:`ExtensionError` (RLKL807)."""
    module = _import(name, origin)
    listed = getattr(module, "__all__", None)
    if not isinstance(listed, (list, tuple)) or not listed:
        raise ExtensionError("RLKL807", f"function module {name!r} ({origin}) lists no "
                             "functions: name them in __all__", name)
    found: dict[str, Callable[..., Any]] = {}
    for function_name in listed:
        value = getattr(module, str(function_name), None)
        if not inspect.isfunction(value):
            raise ExtensionError("RLKL807", f"{name}.{function_name} ({origin}) is not a "
                                 "Python function; __all__ may list only functions", name)
        found[str(function_name)] = value
    version = _version(module, distribution)
    if version is None:
        raise ExtensionError("RLKL807", f"function module {name!r} ({origin}) has no version:"
                             " set RLKL_FUNCTIONS_VERSION = \"1\" in it (and change it when a "
                             "number it computes changes), or install it as a package", name)
    return Extension(name, version, found, origin, _source_hash(module))


def entry_point_modules() -> list[tuple[str, str, str]]:
    """(module, origin, distribution) of every installed ``rlkl.functions`` entry point."""
    found = []
    for point in metadata.entry_points(group=GROUP):
        distribution = point.dist.name if point.dist is not None else ""
        found.append((point.value.partition(":")[0].strip(),
                      f"entry point {point.name} of {distribution or 'a package'}", distribution))
    return found


def discover(modules: Sequence[str], root: Path | None = None) -> list[Extension]:
    """The extensions of this run: the configured ``modules`` (importable from ``root``, the
    configuration's folder, first) and the installed entry points'. Raises
    :class:`ExtensionError`: RLKL807 for a module that cannot be used, RLKL808 for a name
    that rlkl or another module already gives meaning to."""
    if modules and root is not None and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    wanted: list[tuple[str, str, str | None]] = [(m, "the configuration", None) for m in modules]
    wanted += [(m, o, d or None) for m, o, d in entry_point_modules() if m not in modules]
    extensions = [load(module, origin=origin, distribution=dist)
                  for module, origin, dist in wanted]
    owners: dict[str, str] = {}
    for extension in extensions:
        for name in extension.functions:
            if name in table.OWN:
                raise ExtensionError("RLKL808", f"{extension.module}.{name} "
                                     f"({extension.origin}) takes the name of rlkl's own "
                                     f"{name!r}: rename it", extension.module)
            if name in owners:
                raise ExtensionError("RLKL808", f"{extension.module}.{name} "
                                     f"({extension.origin}) takes the name of "
                                     f"{owners[name]}.{name}: rename one", extension.module)
            owners[name] = extension.module
    return extensions


_ACTIVE: list[Extension] = []
_STATE: tuple[str | None, tuple[str, ...]] | None = None  # None: never activated


def activate(modules: Sequence[str] = (), root: Path | None = None) -> list[Extension]:
    """Install this run's extensions (:func:`discover`) in the binding function table, in
    place of any installed before. Raises :class:`ExtensionError`, installing nothing."""
    global _STATE
    found = discover(modules, root)
    table.uninstall()
    _ACTIVE[:] = found
    for extension in found:
        table.install(extension.module, extension.version, extension.functions)
    _STATE = (str(root) if root is not None else None, tuple(modules))
    return found


def deactivate() -> None:
    """Remove the activated functions again: the table is rlkl's own (the pytest plugin, at
    the end of a session that may run inside another one)."""
    global _STATE
    table.uninstall()
    _ACTIVE.clear()
    _STATE = None


def state() -> tuple[str | None, tuple[str, ...]] | None:
    """What :func:`activate` was given, so a worker process can do the same
    (:mod:`rlkl.pool`); None when it never ran (the table is rlkl's own)."""
    return _STATE


def reactivate(given: tuple[str | None, tuple[str, ...]]) -> None:
    """In a worker: :func:`activate` as the process that started it did."""
    root, modules = given
    activate(modules, Path(root) if root is not None else None)


def fingerprint() -> str:
    """The active extensions' modules, versions and source hashes, for the check cache's
    key: a result computed with other functions is never reused ("" with none)."""
    return "\0".join(f"{e.module}={e.version}#{e.source}" for e in _ACTIVE)
