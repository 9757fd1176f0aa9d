"""The explorable example (rlkl.claims.explore): what moves when a learner changes an input.

The values a page shows at every point of every input's range are checked against a second
path to rlkl.core: the lesson's own Python script (rlkl.claims.script, the code the page
shows), run with that one input changed. Each moved number must be true at its written
precision for the script's value, exactly as an authored number is checked.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rlkl.check import check_paths
from rlkl.claims.evaluation.precision import agrees
from rlkl.claims.evaluation.ranges import inferred, points, stated
from rlkl.claims.explore import Knob, explore
from rlkl.claims.prose.scanner import scan
from rlkl.claims.report import LessonReport
from rlkl.claims.script import lesson_script

CONTENT = Path(__file__).resolve().parents[2] / "content"
LESSONS = sorted(p.name for p in CONTENT.iterdir() if (p / "claims.yaml").is_file())


@functools.lru_cache(maxsize=1)
def _reports() -> dict[str, LessonReport]:
    return {r.id: r for r in check_paths([CONTENT]).reports}


def _run(script: str, name: str, value: Any) -> dict[str, Any]:
    """The lesson's script with input ``name`` set to ``value`` (its own line replaced; for
    a list's entry ``x[i]``, that entry of the list's line)."""
    base, bracket, rest = name.partition("[")
    line = re.compile(rf"^{re.escape(base)} = (.*)$", re.MULTILINE)
    assert len(line.findall(script)) == 1, f"the script states {base} once"
    if bracket:
        entries = list(eval(line.findall(script)[0], {"np": np}))  # the script's own literal
        entries[int(rest.rstrip("]"))] = value
        name, value = base, [float(e) for e in entries]
    whole = not isinstance(value, list) and float(value).is_integer()
    written = (f"np.array({list(value)!r}, float)" if isinstance(value, list)
               else str(int(value)) if whole else repr(value))  # as the script writes it
    namespace: dict[str, Any] = {}
    exec(line.sub(lambda _: f"{name} = {written}", script), namespace)
    return namespace


def _value(point: float, knob: Knob, report: LessonReport) -> Any:
    if "[" in knob.name:
        return point  # one entry of a list
    base = next(c.inputs[knob.name] for c in report.checks if knob.name in c.inputs)
    return [point, float(Decimal(1) - Decimal(repr(point)))] if isinstance(base, list) else point


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_moved_number_is_what_the_lessons_script_computes(lesson: str) -> None:
    report = _reports()[lesson]
    script = lesson_script(report)
    knobs = explore(report)
    assert knobs, lesson
    for knob in knobs:
        if not re.search(rf"^{re.escape(knob.name.partition('[')[0])} = ", script,
                         re.MULTILINE):
            # read only by conditions and negatives: nothing computed from it is shown
            assert all(report.numbers[n].role == f"input {knob.name}" for n in knob.numbers)
            continue
        for i, point in enumerate(knob.values):
            namespace = _run(script, knob.name, _value(point, knob, report))
            for index, texts in knob.numbers.items():
                number = report.numbers[index]
                written = scan("", texts[i])[0]
                if number.role.startswith("input "):
                    assert written.value in (Decimal(repr(point)),
                                             Decimal(1) - Decimal(repr(point))), texts[i]
                    continue
                check = report.check(number.checks[0])
                assert check is not None and check.target is not None, number
                name, element, _ = check.target
                value = namespace[name] if element is None else namespace[name][element]
                assert agrees(float(value), written.value, written.decimals), (
                    lesson, knob.name, point, name, texts[i], float(value))


def test_the_ppo_lesson_moves_its_ratio_past_the_threshold() -> None:
    """ρ moved from 0.5 to 1.3 in ppo-clipped-objective (A = −2, ε = 0.2): the raw product
    is −2.6, the clipped candidate −2.4 and the minimum −2.6; the sentence that says the
    ratio "is already below 0.8" (condition rho < lower) no longer holds; ε's own numbers
    and the p_old/p_new case do not move."""
    report = _reports()["ppo-clipped-objective"]
    rho = next(k for k in explore(report) if k.name == "rho")
    assert rho.values[rho.at] == 0.5 and rho.values[0] == 0.1 and rho.values[-1] == 2.0
    i = rho.values.index(1.3)
    moved = {report.numbers[n].role: texts[i] for n, texts in rho.numbers.items()}
    assert moved["input rho"] == "1.3"
    assert moved["output raw_rho_neg"] == "\u22122.6"
    assert moved["output clipped_rho_neg"] == "\u22122.4"
    assert moved["output obj_rho_neg"] == "\u22122.6"
    roles = {report.numbers[n].role for n in rho.numbers}
    assert not roles & {"input eps", "input p_old", "input p_new", "output ratio"}
    flagged = [report.numbers[n] for n, at in rho.untrue.items() if i in at]
    assert any(c.kind == "condition" and "rho < lower" in c.expression
               for n in flagged for c in map(report.check, n.checks) if c is not None)
    assert all(rho.at not in at for at in rho.untrue.values())  # all hold as written


def test_a_whole_number_that_stops_being_whole_gets_decimals() -> None:
    """A_pos = +2 moved to +1 halves "0.5 × 2 = 1": the page writes 0.5, not 0 or 1."""
    report = _reports()["ppo-clipped-objective"]
    a_pos = next(k for k in explore(report) if k.name == "A_pos")
    i = a_pos.values.index(1.0)
    texts: dict[str, set[str]] = {}
    for n, t in a_pos.numbers.items():
        texts.setdefault(report.numbers[n].role, set()).add(t[i])
    assert texts["output obj_rho_pos"] == {"0.5"}
    assert texts["input A_pos"] == {"+1", "1"}  # each in its own sign style, as written


def test_inferred_ranges_are_nice_steps_around_the_authored_value() -> None:
    def grid(text: str, decimals: int) -> list[float]:
        return [float(p) for p in inferred(Decimal(text), decimals)]

    assert grid("0.2", 1) == [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]
    assert grid("0.5", 1) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]  # inside (0, 1)
    assert grid("-2", 0) == [-6, -5, -4, -3, -2, -1]  # the sign is kept
    assert grid("4", 0) == [1, 2, 3, 4, 5, 6, 7, 8]  # whole numbers
    assert grid("0", 0) == [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    assert grid("768", 0)[:3] == [368, 468, 568]  # no small divisor: 100s around it
    assert [float(p) for p in points(Decimal("0.1"), Decimal("0.5"), Decimal("0.2"))] == [
        0.1, 0.3, 0.5]


def test_what_a_page_can_move() -> None:
    """A number, and a two-action distribution by its first probability; not a list of
    rewards that happens to sum to one, nor an input the page shows only in the question."""
    numbers = [("/a", "input p", 1), ("/a", "input r", 1), ("/a", "input x", 2),
               ("/check/question", "input q", 1), ("/a", "output y", 1)]
    values = {"p": np.array([0.6, 0.4]), "r": np.array([1.0, 0.0]), "x": 0.25, "q": 0.5}
    assert stated(numbers, values) == {"p": (Decimal("0.6"), 1, 2), "x": (Decimal("0.25"), 2, 1)}


def test_declared_ranges_and_plot_survive_the_cache() -> None:
    report = _reports()["ppo-clipped-objective"]
    again = LessonReport.from_json(report.to_json())
    assert again.explore == report.explore and again.explore
    assert again.plot == report.plot and report.plot is not None
    assert explore(again) == explore(report)


def test_a_declared_list_entry_moves_alone() -> None:
    """sft-chat-loss-masks declares nll2[5], the second answer's first trained token (0.3):
    at 0.8 only that number of the list moves, the second sequence's masked mean becomes
    (0.8 + 0.1) / 2 and the per-token batch loss (4.8 + 0.9) / 6 = 0.95, written at the
    lesson's 6 decimals."""
    report = _reports()["sft-chat-loss-masks"]
    entry = next(k for k in explore(report) if k.name == "nll2[5]")
    assert (entry.values[0], entry.values[-1], entry.texts[entry.at]) == (0.1, 3.0, "0.3")
    i = entry.values.index(0.8)
    moved = {report.numbers[n].role: t[i] for n, t in entry.numbers.items()}
    assert moved["input nll2"] == "0.8"
    assert moved["output loss_token"] == "0.950000"
    assert moved["output loss_seq"] == "0.8"  # (1.2 + 0.45) / 2 = 0.825 at 1 decimal
    own = [n for n in entry.numbers if report.numbers[n].role == "input nll2"]
    assert len(own) == 1 and report.numbers[own[0]].text == "0.3"


def test_explored_data_reads_back_and_a_curve_short_of_a_point_is_refused() -> None:
    """What the site caches of a lesson's knobs and plot reads back as computed; an entry
    whose curves for a knob miss one of its points is refused (a damaged cache entry is a
    miss, never a page that cannot be made)."""
    from rlkl.claims.explore import explored, read_explored

    data = explored(_reports()["ppo-clipped-objective"])
    knobs, drawn = read_explored(data)
    assert drawn is not None and drawn.moved and [k.name for k in knobs] == [
        k["name"] for k in data["knobs"]]
    damaged = {**data, "plot": {**data["plot"], "moved": data["plot"]["moved"][1:]}}
    with pytest.raises(ValueError, match="one per point"):
        read_explored(damaged)
