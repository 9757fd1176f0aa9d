"""Read relations kept on disk, so that a process need not import sympy to read them again.

Reading one relation with sympy's Earley parser costs about 0.1-0.4 s, and importing sympy and
building the parser about 1.5 s of CPU in every process (every ``rlkl check``, every pre-commit
run). A reading depends only on the relation's text, the reader's code (a hash of
``latex.py`` and this module, so any change to them is a new cache) and sympy's version,
which together key this cache. The file lives in
rlkl's one cache folder (:func:`rlkl.cache_dir.cache_root`, outside the content tree), is
written atomically and is safe to delete; an unreadable file or a malformed entry is ignored
(the relation is read again). ``RLKL_CACHE_DIR=off`` disables it.

Why a second cache next to the lesson results (:mod:`rlkl.cache`): that one answers only a
lesson whose bytes did not change. The lesson an author is editing, the one pre-commit
checks, always misses it, and without this file every such run imports sympy and reads
every equation again (``rlkl check --no-cache`` of one lesson: 2.6 s without, 0.8 s with).
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib import metadata
from pathlib import Path
from typing import Any

from rlkl.atomic import write_atomic
from rlkl.cache_dir import cache_root, used, written

MAX_ENTRIES = 4096
MAX_TREE_DEPTH = 200
KINDS = {"num", "sym", "add", "mul", "pow", "log", "exp", "min", "max", "abs", "sum", "mean",
         "binomial", "std", "piecewise"}
"""Every kind of node the reader writes (:func:`rlkl.claims.equations.latex.evaluate`): a
reading with another is read again, so a kind missing here is a reading never kept."""
COMPARISONS = {">", "<", "\\ge", "\\geq", "\\le", "\\leq"}  # of a piecewise row's conditions


@functools.cache
def reader_versions() -> str | None:
    """The versions of the libraries the reader parses with (sympy, its Lark backend), or
    None when sympy is missing. A new version may read a relation differently, so it is part
    of this cache's file name and of the lesson results' key (:func:`rlkl.cache.lesson_key`).
    Read once per process (installed metadata is parsed by the email parser: ~0.8 ms)."""
    versions = []
    for library in ("sympy", "lark"):
        try:
            versions.append(f"{library}{metadata.version(library)}")
        except metadata.PackageNotFoundError:
            if library == "sympy":
                return None
    return "-".join(versions)


def cache_path() -> Path | None:
    """The cache file for this reader and its libraries' versions, or None when disabled."""
    root = cache_root()
    versions = reader_versions()
    if root is None or versions is None:
        return None
    return root / f"latex-{_reader_hash()}-{versions}.json"


@functools.cache
def _reader_hash() -> str:
    """A hash of the reader's code: a changed reader never uses an older reader's cache."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in ("latex.py", "latex_cache.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def _tree(value: Any, depth: int = 0) -> tuple[Any, ...] | None:
    """``value`` as a tree of the reader's shape, or None when it is not one."""
    if depth > MAX_TREE_DEPTH or not isinstance(value, list) or not value:
        return None
    kind, rest = value[0], value[1:]
    if kind not in KINDS:
        return None
    if kind == "num":
        ok = len(rest) == 1 and isinstance(rest[0], (int, float)) and not isinstance(rest[0], bool)
        return ("num", float(rest[0])) if ok else None
    if kind == "sym":
        return ("sym", rest[0]) if len(rest) == 1 and isinstance(rest[0], str) else None
    if kind == "piecewise":
        found = rest[0] if len(rest) == 1 and isinstance(rest[0], list) else []
        rows = [row for row in (_row(r, depth + 1) for r in found) if row is not None]
        return ("piecewise", tuple(rows)) if rows and len(rows) == len(found) else None
    children = [_tree(child, depth + 1) for child in rest]
    if not children or any(child is None for child in children):
        return None
    return (kind, *children)


def _row(value: Any, depth: int) -> tuple[Any, ...] | None:
    """A piecewise row, ``[value, [[comparison, left, right], …]]``, as the reader's tuples;
    None when it is not one."""
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], list)):
        return None
    tree = _tree(value[0], depth)
    conditions = []
    for condition in value[1]:
        if not (isinstance(condition, list) and len(condition) == 3
                and condition[0] in COMPARISONS):
            return None
        left, right = _tree(condition[1], depth + 1), _tree(condition[2], depth + 1)
        if left is None or right is None:
            return None
        conditions.append((condition[0], left, right))
    return (tree, tuple(conditions)) if tree is not None else None


def _entries(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    entries = data.get("entries") if isinstance(data, dict) else None
    return entries if isinstance(entries, dict) else {}


def lookup(rhs: str) -> dict[str, Any] | None:
    """The stored reading of ``rhs``: ``{"tree", "identifiers", "elements"}`` or
    ``{"error"}``; None when absent or malformed."""
    path = cache_path()
    entry = _entries(path).get(rhs) if path is not None else None
    if path is None or not isinstance(entry, dict):
        return None
    used(path)
    if isinstance(entry.get("error"), str):
        return {"error": entry["error"]}
    tree = _tree(entry.get("tree"))
    identifiers, elements = entry.get("identifiers"), entry.get("elements")
    names_ok = all(
        isinstance(names, list) and all(isinstance(n, str) for n in names)
        for names in (identifiers, elements)
    )
    if tree is None or not names_ok:
        return None
    return {"tree": tree, "identifiers": identifiers, "elements": elements}


def store(rhs: str, entry: dict[str, Any]) -> None:
    """Add the reading of ``rhs`` (best effort: a cache that cannot be written is skipped)."""
    path = cache_path()
    if path is None:
        return
    entries = _entries(path)
    entries[rhs] = entry
    while len(entries) > MAX_ENTRIES:
        del entries[next(iter(entries))]
    text = json.dumps({"entries": entries}, ensure_ascii=False)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text, through_links=False)
        for older in path.parent.glob("latex-*.json"):
            if older != path:
                older.unlink(missing_ok=True)  # another reader's or sympy's readings
    except OSError:
        return  # a cache that cannot be written is only slower
    written(path.parent)
