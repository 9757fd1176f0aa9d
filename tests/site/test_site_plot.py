"""A lesson's plot is the core's function, drawn exactly: the curve through the values
rlkl.core computes on the plotted input's range, the authored point on it, and text escaped."""

from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rlkl.check import check_paths
from rlkl.claims.explore import Plot, explore, plot
from rlkl.claims.report import LessonReport
from rlkl.core import ppo_clip_objective
from rlkl.site.plot import HEIGHT, PAD, WIDTH, chart_svg, column, scale, shipped
from rlkl.site.records import Chart
from tests.site.helpers import CONTENT

SVG = "{http://www.w3.org/2000/svg}"


@functools.lru_cache(maxsize=1)
def _reports() -> dict[str, LessonReport]:
    return {r.id: r for r in check_paths([CONTENT]).reports}


def _plot(lesson: str) -> Plot:
    report = _reports()[lesson]
    drawn = plot(report, explore(report))
    assert drawn is not None
    return drawn


def test_the_ppo_plot_is_the_clipped_objective_of_the_core() -> None:
    """ppo-clipped-objective plots obj_rho_neg = ppo_clip_objective(rho, A_neg, eps) over
    rho's declared range 0.1–2.0, with A_neg = −2 and ε = 0.2 as the lesson states them;
    with ε moved to 0.3 the curve is the core's at ε = 0.3."""
    drawn = _plot("ppo-clipped-objective")
    assert (drawn.x, drawn.y, drawn.xs[0], drawn.xs[-1]) == ("rho", "obj_rho_neg", 0.1, 2.0)
    np.testing.assert_allclose(drawn.ys, ppo_clip_objective(np.array(drawn.xs), -2.0, 0.2),
                               rtol=0, atol=1e-12)
    assert drawn.point == (0.5, -1.6)
    eps = next(k for k in explore(_reports()["ppo-clipped-objective"]) if k.name == "eps")
    i = eps.values.index(0.3)
    np.testing.assert_allclose(drawn.moved[("eps", i)],
                               ppo_clip_objective(np.array(drawn.xs), -2.0, 0.3), atol=1e-12)


def test_every_plot_runs_through_its_point() -> None:
    """Every lesson has a plot whose curve passes through the authored point (the SFT
    lesson's against one entry of a list, nll2[5], declared under explore:)."""
    without = set()
    for lesson, report in _reports().items():
        drawn = plot(report, explore(report))
        if drawn is None:
            without.add(lesson)
            continue
        at = drawn.xs.index(drawn.point[0])
        assert drawn.ys[at] == pytest.approx(drawn.point[1], rel=1e-12, abs=1e-15), lesson
        assert list(drawn.xs) == sorted(drawn.xs)
    assert without == set()


def test_the_svg_draws_the_chart_exactly() -> None:
    chart = Chart("ratio <b>ρ</b>", "objective & more", (0.0, 0.5, 1.0, 1.5),
                  (0.0, -1.0, None, -3.0), (0.5, -1.0), ((0.0, "0"), (1.5, "1.5")))
    root = ET.fromstring(str(chart_svg(chart)))
    low, high = scale(chart.ys)
    line = root.find(f"{SVG}polyline")
    assert line is not None
    got = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]

    def at(x: float, y: float) -> tuple[float, float]:
        return (PAD + (WIDTH - 2 * PAD) * x / 1.5,
                HEIGHT - PAD - (HEIGHT - 2 * PAD) * (y - low) / (high - low))

    want = [at(x, y) for x, y in zip(chart.xs, chart.ys, strict=True) if y is not None]
    assert np.allclose(got, want, atol=0.06)  # a value the core could not give is left out
    dot = root.find(f"{SVG}circle")
    assert dot is not None
    assert np.allclose((float(dot.get("cx") or 0), float(dot.get("cy") or 0)),
                       at(0.5, -1.0), atol=0.06)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "ratio <b>ρ</b>" in texts and "objective & more" in texts  # text, not markup
    assert "1.5" in texts and "(0.5, −1)" in texts


def test_the_scale_holds_every_value_and_zero_when_near() -> None:
    assert scale([1.0, 3.0]) == (0.0, 3.0)  # zero is nearer than the span: shown
    assert scale([10.0, 11.0]) == (10.0, 11.0)
    assert scale([-3.0, None, -1.0]) == (-3.0, 0.0)
    assert scale([2.0, 2.0]) == (1.0, 3.0)  # a flat curve still has an axis


def _runs(entries: Sequence[Any], each: Any) -> list[Any]:
    """What rlkl.js's ``runs`` does: ``[entry, count]`` is ``count`` entries."""
    out = []
    for entry in entries:
        count = entry[1] if isinstance(entry, list) else 1
        out += [each(entry[0] if isinstance(entry, list) else entry) for _ in range(count)]
    return out


def _column(code: list[Any]) -> list[float | None]:
    """What rlkl.js's ``column`` does, in the same double arithmetic: a running sum of
    whole numbers, divided by ``Number("1e" + k)``."""
    k, total = code[0], 0

    def each(entry: Any) -> Any:
        nonlocal total
        if entry is None or k is None:
            return entry
        total += entry
        assert abs(total) <= 2**53 and isinstance(entry, int)  # an exact double in JS
        return float(total) / float(f"1e{k}")

    return _runs(json.loads(json.dumps(code))[1:], each)


def _same(got: Sequence[float | None], want: Sequence[float | None]) -> bool:
    """Equal value for value, as doubles (−0.0 is not 0.0)."""
    return [None if v is None else float(v).hex() for v in got] == \
        [None if v is None else float(v).hex() for v in want]


SIX = st.floats(allow_nan=False, allow_infinity=False).map(lambda v: float(f"{v:.6g}"))


@given(st.lists(st.one_of(st.none(), SIX, st.floats(allow_nan=False, allow_infinity=False),
                          st.integers(-50, 50).map(lambda i: i / 20)), max_size=60))
@example([-0.0, 1.0])
@example([1e22, 1e-22])
@example([0.1 * i for i in range(40)])
@example([9007199254740993.0, 1.5])
def test_a_shipped_column_is_every_value_exactly(values: list[float | None]) -> None:
    """The page's script gets back exactly the values written (the drawn curves' 6
    significant digits, or any double), never a neighbouring double."""
    code = column(values)
    assert _same(_column(code), values)
    assert json.loads(json.dumps(code, allow_nan=False)) == code


CURVE = st.floats(-1e6, 1e6).filter(lambda v: v == 0 or abs(v) >= 1e-4).map(
    lambda v: float(f"{v:.6g}") or 0.0)


@given(st.lists(st.one_of(st.none(), CURVE), min_size=1, max_size=60))
def test_a_drawn_curve_ships_as_whole_numbers(values: list[float | None]) -> None:
    """A curve as the page draws it (6 significant digits; here between 1e−4 and 1e6 in
    size, so at most 10**15 units of 10**−9) is written as whole numbers
    (:func:`column`), and read back exactly."""
    code = column(values)
    assert code[0] is not None
    assert _same(_column(code), values)


def test_a_straight_or_flat_stretch_is_one_entry() -> None:
    """ppo's clipped objective against ρ is flat, then straight: a few entries."""
    curve = [-1.6] * 15 + [round(-1.6 - 0.1 * i, 6) for i in range(1, 25)]
    assert column(curve) == [1, -16, [0, 14], [-1, 24]]
    assert column([0.1, 0.15, 0.2, 0.25]) == [2, 10, 5, 5, 5]  # a run only where shorter
    assert column([None, 2.5, None]) == [1, None, 25, None]
    assert column([-0.0, 1.0]) == [None, -0.0, 1.0]  # as they are: −0.0 has no whole number


def test_the_shipped_data_is_the_records_each_repeated_part_once() -> None:
    """Numbers that move alike share one list of texts; equal curves are one curve, with
    its vertical range (:func:`scale`) beside it; the script's unpacking (mirrored here)
    gives every text and value back."""
    data = {
        "knobs": [{"name": "eps", "at": 1, "texts": ["0.1", "0.2", "0.3", "0.4"],
                   "numbers": {"0": ["0.1", "0.2", "0.3", "0.4"], "4": ["1", "1", "1", "1"],
                               "7": ["0.1", "0.2", "0.3", "0.4"]}, "untrue": {"4": [2]}},
                  {"name": "rho", "at": 0, "texts": ["0.5", "1"], "numbers": {},
                   "untrue": {}}],
        "plot": {"x": "rho", "xs": [0.5, 1.0], "curve": [1.0, 3.0],
                 "moved": {"eps": [[-1.0, 4.0], [1.0, 3.0], [None, 2.0], [1.0, 3.0]]},
                 "at": 0, "points": [0, 1]},
    }
    out = shipped(data)
    assert list(out) == ["knobs", "plot", "texts", "lists"]  # the page finds it by "knobs"
    eps = out["knobs"][0]
    assert eps["texts"] == eps["numbers"]["0"] == eps["numbers"]["7"] != eps["numbers"]["4"]
    assert out["lists"][eps["numbers"]["4"]] == [[out["texts"].index("1"), 4]]
    assert eps["untrue"] == {"4": [2]} and (eps["name"], eps["at"]) == ("eps", 1)

    def texts(index: int) -> list[str]:
        return _runs(out["lists"][index], lambda t: out["texts"][t])

    for knob, written in zip(out["knobs"], data["knobs"], strict=True):
        assert texts(knob["texts"]) == written["texts"]
        assert {n: texts(i) for n, i in knob["numbers"].items()} == written["numbers"]
    drawn = out["plot"]
    assert drawn["moved"]["eps"][1] == drawn["curve"]  # the lesson's own curve, once
    assert len(drawn["ys"]) == len(drawn["scales"]) == 3
    assert drawn["scales"][drawn["curve"]] == [0.0, 3.0]
    assert drawn["scales"][drawn["moved"]["eps"][0]] == [-1.0, 4.0]
    assert _same(_column(drawn["xs"]), [0.5, 1.0])
    assert _same(_column(drawn["ys"][drawn["curve"]]), [1.0, 3.0])
    for i, ys in enumerate(data["plot"]["moved"]["eps"]):
        assert _same(_column(drawn["ys"][drawn["moved"]["eps"][i]]), ys)
    assert (drawn["x"], drawn["at"], drawn["points"]) == ("rho", 0, [0, 1])
