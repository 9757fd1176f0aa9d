"""The import graph: no cycles in rlkl/; the claim engine's folders name its stages and no
stage imports one above it; the engine imports only the modules below it (the lesson model,
diagnostics, the core, the scaffold's placeholders...), never a consumer; the site imports
nothing of the CLI; and no function of the claim engine is longer than a screen."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RLKL = Path(__file__).resolve().parents[1] / "rlkl"

STAGES = {"prose", "templates", "forms", "evaluation", "equations", "bindings", "fixtures"}
"""The folders of rlkl/claims: one per stage (their ``__init__`` only names it)."""

# rlkl.claims, bottom to top, by module (its folder and name): a module may import only
# modules of lower layers.
LAYERS = [
    {"prose.scanner", "prose.fields", "templates.slots", "templates.search",
     "evaluation.functions", "bindings.yaml_source", "equations.latex_cache",
     "fixtures.recorded", "status"},
    {"prose.source", "records", "evaluation.expr", "evaluation.precision", "equations.latex"},
    {"bindings.model", "templates.matching", "forms.recognise"},
    {"bindings.rules", "evaluation.judge", "evaluation.ranges", "templates.bind"},
    {"bindings.reader", "evaluation.evaluate"},
    {"forms.forms", "evaluation.quiz", "coverage", "equations.equations"},
    {"extract"},
    {"fixtures.fixtures", "fixtures.changes"},
    {"report"},
    {"explore", "listing", "script"},
    {"__init__"},
]
BELOW_CLAIMS = {"rlkl.atomic", "rlkl.cache_dir", "rlkl.core", "rlkl.corpus", "rlkl.diagnostics",
                "rlkl.loader", "rlkl.models", "rlkl.numerals", "rlkl.resources", "rlkl.scaffold",
                "rlkl.shown"}
"""What the claim engine may import outside itself (rlkl.core with its modules)."""


def _module(path: Path) -> str:
    parts = path.relative_to(RLKL.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every rlkl module ``path`` imports (at any depth of the file, TYPE_CHECKING included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rlkl"):
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                path = RLKL.parent / candidate.replace(".", "/")
                is_module = path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()
                found.add(candidate if is_module else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rlkl"))
    return found


GRAPH = {_module(p): _imports(p) for p in RLKL.rglob("*.py")}


def test_the_import_graph_of_rlkl_has_no_cycle() -> None:
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in sorted(GRAPH.get(node, ())):
            if target == node or target not in GRAPH:
                continue
            if state.get(target) == 1:
                pytest.fail("import cycle: " + " -> ".join([*trail, node, target]))
            if target not in state:
                visit(target, [*trail, node])
        state[node] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [])


def _layer(name: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if name in layer)


def _claims_name(module: str) -> str:
    """``rlkl.claims.prose.scanner`` -> ``prose.scanner``; the package itself is ``__init__``."""
    return "__init__" if module == "rlkl.claims" else module.removeprefix("rlkl.claims.")


def _below(target: str) -> bool:
    return any(target == b or target.startswith(b + ".") for b in BELOW_CLAIMS)


CLAIMS = sorted(m for m in GRAPH if m.startswith("rlkl.claims")
                and _claims_name(m) not in STAGES)


@pytest.mark.parametrize("module", CLAIMS)
def test_a_claim_stage_imports_only_stages_below_it(module: str) -> None:
    own = _layer(_claims_name(module))
    for target in GRAPH[module]:
        if target.startswith("rlkl.claims"):
            assert module == "rlkl.claims" or _layer(_claims_name(target)) < own, (
                f"{module} imports {target}")
        else:
            assert _below(target), f"{module} imports {target}, which is not below the engine"


@pytest.mark.parametrize("module", sorted(BELOW_CLAIMS))
def test_what_the_engine_imports_imports_no_consumer(module: str) -> None:
    """rlkl.scaffold, rlkl.corpus ... import only each other (and rlkl.core), never the
    engine or a consumer of it."""
    for target in GRAPH[module]:
        assert _below(target), f"{module} imports {target}"


def test_every_claims_module_has_a_layer_and_every_folder_is_a_stage() -> None:
    claims = RLKL / "claims"
    folders = {p.name for p in claims.iterdir() if (p / "__init__.py").is_file()}
    assert folders == STAGES
    for stage in STAGES:
        assert GRAPH[f"rlkl.claims.{stage}"] == set(), f"{stage}/__init__.py imports"
    names = {_claims_name(_module(p)) for p in claims.rglob("*.py")} - STAGES
    assert names == set().union(*LAYERS)


def test_the_site_imports_nothing_of_the_cli() -> None:
    site = {m: targets for m, targets in GRAPH.items() if m.startswith("rlkl.site")}
    assert not [(m, t) for m, ts in site.items() for t in ts if t.startswith("rlkl.cli")]


LONGEST = 60
"""Issue 9: no function of the claim engine is longer than a screen (~60 lines)."""


def test_no_function_in_the_claim_engine_is_longer_than_a_screen() -> None:
    long = [
        f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path in sorted((RLKL / "claims").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > LONGEST
    ]
    assert not long, "split these functions: " + "; ".join(long)
