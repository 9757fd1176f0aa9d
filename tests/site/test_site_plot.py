"""The clipped-objective plot is the core's function, drawn exactly."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from rlkl.core import ppo_clip_objective
from rlkl.site.plot import R_MAX, clipped_objective_svg, curves
from rlkl.site.records import PpoPoint

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(
    "point", [PpoPoint(0.5, -2.0, 0.2), PpoPoint(1.4, 2.0, 0.2), PpoPoint(3.0, 0.5, 0.0)]
)
def test_polylines_are_the_core_objective_at_its_kinks(point: PpoPoint) -> None:
    ratios, positive, negative = curves(point)
    size = abs(point.advantage)
    assert ratios[0] == 0.0 and ratios[-1] == R_MAX
    assert all(k in ratios for k in (1 - point.epsilon, 1 + point.epsilon) if 0 < k < R_MAX)
    dense = np.linspace(0.0, R_MAX, 401)  # the polyline through the kinks is exact
    np.testing.assert_allclose(np.interp(dense, ratios, positive),
                               ppo_clip_objective(dense, size, point.epsilon), atol=1e-12)
    np.testing.assert_allclose(np.interp(dense, ratios, negative),
                               ppo_clip_objective(dense, -size, point.epsilon), atol=1e-12)


def test_the_sample_sits_on_its_curve() -> None:
    point = PpoPoint(0.5, -2.0, 0.2)
    root = ET.fromstring(str(clipped_objective_svg(point)))
    line = root.find(f"{SVG}polyline[@class='rlkl-curve-neg']")
    dot = root.find(f"{SVG}circle")
    assert line is not None and dot is not None
    xs, ys = zip(*(map(float, p.split(",")) for p in (line.get("points") or "").split()),
                 strict=True)
    cx, cy = float(dot.get("cx") or "nan"), float(dot.get("cy") or "nan")
    assert abs(float(np.interp(cx, xs, ys)) - cy) < 0.2
    title = root.find(f"{SVG}title")
    assert title is not None and "−1.6" in (title.text or "")


def test_the_built_plot_labels_a_flat_curve_and_a_sample_beyond_the_chart() -> None:
    flat = ET.fromstring(str(clipped_objective_svg(PpoPoint(0.5, 0.0, 0.2))))
    labels = {t.get("class"): (t.text, t.get("visibility")) for t in flat.iter(f"{SVG}text")}
    assert labels["rlkl-label-pos"] == ("A = 0", None)
    assert labels["rlkl-label-neg"][1] == "hidden"
    far = ET.fromstring(str(clipped_objective_svg(PpoPoint(3.0, -2.0, 0.2))))
    tag = next(t for t in far.iter(f"{SVG}text") if t.get("class") == "rlkl-sample-label")
    assert tag.text == "(3, −6) →"  # the sample's own value, as the table says
