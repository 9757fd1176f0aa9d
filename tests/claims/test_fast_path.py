"""The accelerated path (libyaml, jsonschema-rs, the template search, lazy positions, memoised
compiles) gives byte-identical output to the pure-Python reference path (``RLKL_REFERENCE=1``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rlkl.check import check_paths
from rlkl.render import render
from tests.claims import test_bindings, test_examples
from tests.claims.helpers import SEED, Workspace
from tests.validate.helpers import NEGATIVE, examples

_MARK = test_bindings.test_binding_mistakes_are_located.pytestmark[0]  # type: ignore[attr-defined]
BINDING_CASES = [args[0] for args in _MARK.args[1]]
EXTRA_BINDINGS = [
    "claims: &a [x]\nother: *a\n",  # an alias
    "lesson: &a x\n*a : 1\n",  # an alias as a key
    "claims: []\nlesson: &a policy-gradient-kl-control\n",  # an anchor, never used
    "claims:\n  - id: a\n    says: x {y}\n    is: !x 2\n",  # a local tag
    "lesson: policy-gradient-kl-control\nlesson: again\n",  # a duplicate key
    "claims:\n  - id: a\n    says: !!str x {y}\n",  # an explicit tag
    "yes: 1\nclaims: []\n",  # YAML 1.1 would read a boolean key
    "lesson: 0x1F\n",
    "\ufeffclaims: []\n",
]


def _both(monkeypatch: pytest.MonkeyPatch, paths: list[Path]) -> tuple[str, str]:
    outputs = []
    for reference in ("", "1"):
        monkeypatch.setenv("RLKL_REFERENCE", reference)
        result = check_paths(paths)
        outputs.append(render(result.diagnostics, result.summary(), "json"))
    return outputs[0], outputs[1]


@pytest.mark.parametrize("example", examples(NEGATIVE), ids=lambda p: p.name)
def test_negative_examples(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, reference = _both(monkeypatch, [example])
    assert fast == reference


@pytest.mark.parametrize("folder", test_examples.cases(), ids=lambda p: p.name)
def test_claim_examples(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lesson, _ = test_examples.build(tmp_path, folder)
    fast, reference = _both(monkeypatch, [lesson])
    assert fast == reference


@pytest.mark.parametrize("yaml", BINDING_CASES + EXTRA_BINDINGS)
def test_binding_mistakes(yaml: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    space = Workspace.copy(tmp_path)
    space.path(name="claims.yaml").write_text(yaml, encoding="utf-8")
    fast, reference = _both(monkeypatch, [space.root / SEED])
    assert fast == reference


@pytest.mark.parametrize("opening", ["[", "{a: ", "- "])
def test_deep_bindings_are_a_located_error_at_once(opening: str, tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.path(name="claims.yaml").write_text("claims: " + opening * 5000 + "\n", encoding="utf-8")
    started = time.perf_counter()
    diagnostics = space.check().diagnostics
    assert time.perf_counter() - started < 1.0
    [problem] = [d for d in diagnostics if d.file.endswith("claims.yaml")]
    assert problem.code == "RLKL601" and problem.line == 1
