"""The import graph: no cycles in rlkl/, no claim stage imports a stage above it, and no
function of the claim engine is longer than a screen."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RLKL = Path(__file__).resolve().parents[1] / "rlkl"

# rlkl.claims, bottom to top: a module may import only modules of lower layers.
LAYERS = [
    {"scanner", "slots", "fields", "functions", "yaml_source", "latex_cache", "template_search",
     "recorded", "status"},
    {"expr", "precision", "records", "source", "latex"},
    {"bindings", "matching"},
    {"judge", "bind"},
    {"evaluate"},
    {"forms", "quiz", "coverage", "equations"},
    {"extract"},
    {"fixtures", "changes"},
    {"report"},
    {"listing"},
    {"__init__"},
]
ABOVE_CLAIMS = {"rlkl.check", "rlkl.regen", "rlkl.validate", "rlkl.cli", "rlkl.pytest_plugin"}


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
                is_module = (RLKL.parent / (candidate.replace(".", "/") + ".py")).is_file()
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


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("rlkl.claims")))
def test_a_claim_stage_imports_only_stages_below_it(module: str) -> None:
    own = _layer("__init__" if module == "rlkl.claims" else module.rsplit(".", 1)[1])
    for target in GRAPH[module]:
        assert not any(target == a or target.startswith(a + ".") for a in ABOVE_CLAIMS), target
        if target.startswith("rlkl.claims.") and module != "rlkl.claims":
            assert _layer(target.rsplit(".", 1)[1]) < own, f"{module} imports {target}"


def test_every_claims_module_has_a_layer() -> None:
    names = {p.stem for p in (RLKL / "claims").glob("*.py")}
    assert names == set().union(*LAYERS)


LONGEST = 60
"""Issue 9: no function of the claim engine is longer than a screen (~60 lines)."""


def test_no_function_in_the_claim_engine_is_longer_than_a_screen() -> None:
    long = [
        f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path in sorted((RLKL / "claims").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > LONGEST
    ]
    assert not long, "split these functions: " + "; ".join(long)
