"""The Python script a lesson page shows recomputes every number it lists: run for every
shipped lesson, each quantity equals what rlkl computed and the fixtures record."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from rlkl.check import check_paths
from rlkl.claims.script import lesson_script
from tests.claims.helpers import CONTENT

LESSONS = sorted(p.parent.name for p in CONTENT.glob("*/lesson.json"))


@pytest.fixture(scope="module")
def reports():  # type: ignore[no-untyped-def]
    return {r.id: r for r in check_paths([CONTENT]).reports}


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_script_runs_and_recomputes_every_number_it_lists(reports, lesson: str) -> None:
    report = reports[lesson]
    script = lesson_script(report)
    assert script.startswith("import numpy as np\n")
    namespace: dict[str, object] = {}
    exec(compile(script, f"<{lesson} script>", "exec"), namespace)  # the script rlkl wrote
    names = re.findall(r"^([A-Za-z_]\w*) = .*  # ", script, flags=re.MULTILINE)
    assert names, "the script computes nothing"
    outputs = {c.expression.split("=")[0].strip(): c for c in report.checks if c.kind == "output"}
    for name in names:
        element = re.compile(rf"^{re.escape(name)}\[(\d+)\]$")
        for target, check in outputs.items():
            value = namespace[name]
            if target == name:
                np.testing.assert_allclose(np.asarray(value, float),
                                           np.asarray(check.computed, float),
                                           rtol=1e-9, atol=1e-12, err_msg=name)
            elif match := element.match(target):
                got = np.asarray(value, float)[int(match.group(1))]
                np.testing.assert_allclose(got, float(check.computed), rtol=1e-9, atol=1e-12,
                                           err_msg=target)


def test_the_check_question_is_not_in_the_script(reports) -> None:
    """The script is shown before the question: no number of /check or /misconception."""
    report = reports["output-head"]
    script = lesson_script(report)
    assert "h_quiz" not in script and "z_quiz" not in script
    assert "-2.048287" not in script and "2.04828" not in script


def test_a_lesson_with_no_computed_number_has_no_script(tmp_path: Path) -> None:
    from tests.claims.helpers import Workspace

    space = Workspace.copy(tmp_path)
    report = space.check().reports[0]
    assert lesson_script(report).count("\n") > 3  # the seed computes its ratio and more
