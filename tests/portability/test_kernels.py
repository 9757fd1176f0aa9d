"""The same commit gets the same verdict with another set of numpy's exp/log kernels.

numpy dispatches its SIMD kernels by CPU; ``NPY_DISABLE_CPU_FEATURES`` turns off the
dispatched levels this machine has, so numpy runs its baseline kernels: a second, different
set of exp/log results on the same machine, as a contributor's laptop, an ARM Mac or a cloud
runner has. ``rlkl check`` and ``rlkl regen`` run in a subprocess under each set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.portability.shipped import CONTENT, copy_content, fixture_files

_FEATURES = (
    "from numpy._core import _multiarray_umath as m\n"
    "print(' '.join(t for t in m.__cpu_dispatch__ if m.__cpu_features__.get(t)))"
)
_BITS = (  # the last bits of exp and log over a grid, as the kernels in use compute them
    "import hashlib, numpy as np\n"
    "x = np.linspace(-20, 20, 100_003)\n"
    "print(hashlib.sha256(np.exp(x).tobytes() + np.log(np.abs(x) + 1e-3).tobytes()).hexdigest())"
)


def _python(code: str, env: dict[str, str]) -> str:
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def _dispatched() -> str:
    try:
        return _python(_FEATURES, dict(os.environ))
    except subprocess.CalledProcessError:  # numpy < 2 keeps it in numpy.core
        return _python(_FEATURES.replace("numpy._core", "numpy.core"), dict(os.environ))


DISPATCHED = _dispatched()
KERNELS = {
    "dispatched": {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"},
    "baseline": {**os.environ, "NPY_DISABLE_CPU_FEATURES": DISPATCHED},
}
BITS = {k: _python(_BITS, env) for k, env in KERNELS.items()} if DISPATCHED else {}
"""The last bits of exp and log under each set: the tests below prove something only where
they differ. They do not on every CPU: numpy's float64 exp/log have AVX-512 kernels, so on a
CPU whose best level is AVX2 (X86_V3) both sets compute the same bits."""
needs_two = pytest.mark.skipif(
    len(set(BITS.values())) < 2,
    reason=f"numpy's dispatched kernels ({DISPATCHED or 'none'}) and its baseline compute the "
    "same exp/log bits on this CPU; tests/portability/test_ulps.py moves every fixture float "
    "as another machine's kernels would")


def _rlkl(kernels: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = KERNELS[kernels]
    return subprocess.run([sys.executable, "-m", "rlkl", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _verdict(kernels: str, root: Path) -> tuple[int, dict[str, object]]:
    run = _rlkl(kernels, "check", str(root), "--no-cache", "--format", "json")
    report = json.loads(run.stdout)
    return run.returncode, {"diagnostics": report["diagnostics"], "summary": report["summary"]}


@needs_two
def test_check_and_regen_of_the_shipped_content_agree_across_kernels(tmp_path: Path) -> None:
    root = copy_content(tmp_path)
    before = _snapshot(root)
    verdicts = {k: _verdict(k, root) for k in KERNELS}
    assert verdicts["dispatched"] == verdicts["baseline"]
    code, verdict = verdicts["baseline"]
    assert code == 0 and verdict["diagnostics"] == []
    for kernels in KERNELS:
        run = _rlkl(kernels, "regen", str(root), "--no-cache")
        assert run.returncode == 0, run.stdout + run.stderr
        assert "0 updated" in run.stderr, run.stdout + run.stderr
        assert _snapshot(root) == before  # no byte of the content tree changed


@needs_two
@pytest.mark.parametrize(("writer", "checker"), [("dispatched", "baseline"),
                                                 ("baseline", "dispatched")])
def test_fixtures_written_with_one_kernel_set_pass_with_the_other(
    tmp_path: Path, writer: str, checker: str
) -> None:
    root = copy_content(tmp_path)
    for path in fixture_files(root):
        path.unlink()
    written = _rlkl(writer, "regen", str(root), "--no-cache")
    assert written.returncode == 0, written.stdout + written.stderr
    assert len(fixture_files(root)) == len(fixture_files(CONTENT))
    after = _snapshot(root)
    code, verdict = _verdict(checker, root)
    assert (code, verdict["diagnostics"]) == (0, [])
    again = _rlkl(checker, "regen", str(root), "--no-cache")
    assert again.returncode == 0 and "0 updated" in again.stderr, again.stderr
    assert _snapshot(root) == after
