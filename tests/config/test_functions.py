"""Functions of your own: a module named in the configuration, or an installed package's
`rlkl.functions` entry point, callable from bindings beside rlkl.core's; their version is in
the fixtures, so a new version is drift, and a name rlkl already has is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlkl.extensions import deactivate
from tests.claims.helpers import CONTENT, SEED, Workspace
from tests.config.helpers import run

EXEMPTION = '''exempt:
  - in: /specs/0/context
    says: "The executable decoder has {decoder_parameters} parameters"
    reason: "Size of the upstream lab's decoder; rlkl.core has no decoder to recompute it from."
'''
CLAIM = '''  - id: decoder-size
    in: /specs/0/context
    says: "({inputs} inputs, {hidden} hidden units, {outputs} outputs) has {size} parameters"
    where:
      size: mlp_parameters(inputs, hidden, outputs)
'''
SIZED = ("The executable decoder has 423 parameters",  # an illustrative decoder, not upstream's
         "The executable decoder (18 inputs, 16 hidden units, 7 outputs) has 423 parameters")
MODULE = '''"""Binding functions of our own."""

__all__ = ["mlp_parameters"]
RLKL_FUNCTIONS_VERSION = "{version}"


def mlp_parameters(inputs: int, hidden: int, outputs: int) -> int:
    """Weights and biases of a one-hidden-layer MLP: (inputs+1)*hidden + (hidden+1)*outputs."""
    return (inputs + 1) * hidden + (hidden + 1) * outputs
'''


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """The seed lesson, its decoder's size computed by a function of the author's own."""
    space = Workspace.copy(tmp_path)
    bindings = space.path(name="claims.yaml")
    text = bindings.read_text(encoding="utf-8")
    assert EXEMPTION in text
    text = text.replace(EXEMPTION, "").replace("claims:\n", "claims:\n" + CLAIM, 1)
    bindings.write_text(text, encoding="utf-8")
    space.edit(*SIZED)
    (tmp_path / "lesson_functions.py").write_text(MODULE.format(version="1"), encoding="utf-8")
    (tmp_path / "rlkl.toml").write_text('functions = ["lesson_functions"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield space
    deactivate()
    sys.modules.pop("lesson_functions", None)


def _errors(out: str) -> list[dict[str, object]]:
    """The errors of a JSON report (the copied catalog's other lessons are warnings)."""
    return [d for d in json.loads(out)["diagnostics"] if d["severity"] == "error"]


def _codes(out: str) -> list[str]:
    return [str(d["code"]) for d in _errors(out)]


def test_a_configured_function_computes_a_claim_and_its_version_is_recorded(
    repo: Workspace,
) -> None:
    code, out, err = run("regen", "--format", "json")
    assert code == 0, out + err
    fixture = json.loads(repo.read(name="fixtures.json"))
    assert fixture["functions"] == {"lesson_functions": "1"}
    (claim,) = [c for c in fixture["claims"] if c["id"].startswith("decoder-size")]
    assert claim["computed"] == 423 and claim["verified"]
    assert run("check", "--format", "json")[0] == 0
    # the function is really called: a wrong number fails
    repo.edit("has 423 parameters", "has 424 parameters")
    code, out, _ = run("check", "--format", "json")
    assert code == 1 and "RLKL401" in _codes(out)


def test_a_new_version_of_the_functions_is_drift(repo: Workspace, tmp_path: Path) -> None:
    assert run("regen")[0] == 0
    sys.modules.pop("lesson_functions", None)
    (tmp_path / "lesson_functions.py").write_text(MODULE.format(version="2"), encoding="utf-8")
    code, out, _ = run("check", "--format", "json")
    (drift,) = _errors(out)
    assert code == 1 and drift["code"] == "RLKL504"
    assert "your functions lesson_functions 1, these are lesson_functions 2" in drift["message"]
    assert run("regen")[0] == 0 and run("check")[0] == 0


def test_without_the_module_the_binding_is_an_unknown_function(repo: Workspace) -> None:
    Path("rlkl.toml").unlink()
    code, out, _ = run("check", "--format", "json")
    (unknown,) = _errors(out)  # one thing to fix: no RLKL612 for the slots it reads
    assert code == 1 and unknown["code"] == "RLKL606"
    assert "'mlp_parameters'" in str(unknown["message"])
    assert "configuration's `functions`" in str(unknown["message"])


@pytest.mark.parametrize(("module", "code", "says"), [
    ('__all__ = ["exp"]\nRLKL_FUNCTIONS_VERSION = "1"\ndef exp(x):\n    return x\n',
     "RLKL808", "takes the name of rlkl's own 'exp'"),
    ('__all__ = ["f"]\ndef f(x):\n    return x\n', "RLKL807", "has no version"),
    ('__all__ = ["f"]\nRLKL_FUNCTIONS_VERSION = "1"\nf = 3\n', "RLKL807", "not a Python function"),
    ('RLKL_FUNCTIONS_VERSION = "1"\ndef f(x):\n    return x\n', "RLKL807", "__all__"),
    ('raise RuntimeError("boom")\n', "RLKL807", "RuntimeError: boom"),
])
def test_an_unusable_module_is_a_located_usage_error(
    repo: Workspace, tmp_path: Path, module: str, code: str, says: str
) -> None:
    (tmp_path / "lesson_functions.py").write_text(module, encoding="utf-8")
    Path("rlkl.toml").write_text('jobs = 1\nfunctions = ["lesson_functions"]\n',
                                 encoding="utf-8")
    exit_code, out, err = run("check", "--format", "json")
    (found,) = _errors(out)
    assert exit_code == 2 and (found["file"], found["line"], found["code"]) == (
        "rlkl.toml", 2, code)
    assert says in found["message"] and f"rlkl.toml:2:1: {code}" in err


def test_an_installed_package_provides_functions_through_its_entry_point(
    tmp_path: Path,
) -> None:
    """A real package (built and installed by pip, with the rlkl.functions entry point) and
    a lesson that calls it, checked by rlkl in another process with several workers."""
    package = tmp_path / "package"
    (package / "ourfunctions").mkdir(parents=True)
    (package / "ourfunctions" / "__init__.py").write_text(
        MODULE.replace('RLKL_FUNCTIONS_VERSION = "{version}"\n', ""), encoding="utf-8")
    (package / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "ourfunctions"\nversion = "3.1"\n'
        '[project.entry-points."rlkl.functions"]\nour = "ourfunctions"\n', encoding="utf-8")
    site = tmp_path / "site-packages"
    built = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                            "--no-build-isolation", "--target", str(site), str(package)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    repo = tmp_path / "lessons"
    repo.mkdir()
    space = Workspace.copy(repo)
    bindings = space.path(name="claims.yaml")
    text = bindings.read_text(encoding="utf-8").replace(EXEMPTION, "")
    bindings.write_text(text.replace("claims:\n", "claims:\n" + CLAIM, 1), encoding="utf-8")
    space.edit(*SIZED)
    copies = [f"{SEED}-{n}" for n in range(60)]  # enough lessons for the process pool
    catalog = json.loads((CONTENT / "catalog.json").read_text(encoding="utf-8"))
    for name in copies:
        folder = space.root / name
        folder.mkdir()
        for part in ("lesson.json", "claims.yaml"):
            body = space.path(name=part).read_text(encoding="utf-8")
            (folder / part).write_text(body.replace(SEED, name), encoding="utf-8")
        catalog["lessons"].append({"id": name, "title": name, "status": "published"})
    (space.root / "catalog.json").write_text(json.dumps(catalog), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path[1:]])}

    def rlkl(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rlkl", *args, "--jobs", "2"], cwd=repo,
                              env=env, capture_output=True, text=True, timeout=600)

    regen = rlkl("regen")
    assert regen.returncode == 0, regen.stdout + regen.stderr
    for name in [SEED, *copies]:
        fixture = json.loads((space.root / name / "fixtures.json").read_text(encoding="utf-8"))
        assert fixture["functions"] == {"ourfunctions": "3.1"}, name
    assert rlkl("check").returncode == 0
