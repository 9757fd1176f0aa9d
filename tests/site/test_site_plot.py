"""A lesson's plot is the core's function, drawn exactly: the curve through the values
rlkl.core computes on the plotted input's range, the authored point on it, and text escaped."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from rlkl.check import check_paths
from rlkl.claims.explore import Plot, explore, plot
from rlkl.claims.report import LessonReport
from rlkl.core import ppo_clip_objective
from rlkl.site.plot import HEIGHT, PAD, WIDTH, chart_svg, scale, with_scales
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
    data = with_scales({"plot": {"curves": {"": [1.0, 3.0], "eps:0": [-1.0, 4.0]}}})
    assert data["plot"]["scales"] == {"": [0.0, 3.0], "eps:0": [-1.0, 4.0]}
