"""A lesson's plot as an inline SVG drawn at build time from values ``rlkl.core`` computed.

The values are the page's :class:`~rlkl.site.records.Chart`: one output of the worked
example over a fine grid of one input's range (:func:`rlkl.claims.explore.plot`), the
authored point marked. The SVG carries its geometry in ``data-`` attributes so the page's
script can redraw it from the shipped curves when a control moves (it rescales the vertical
axis and moves the point; it never computes a value). An inline SVG costs a few kilobytes
and no request.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from rlkl.site.records import Chart

WIDTH, HEIGHT, PAD = 560, 300, 48

__all__ = ["HEIGHT", "PAD", "WIDTH", "chart_svg", "scale", "with_scales"]


def tick(x: float) -> str:
    """An axis number: 4 significant digits, U+2212 for minus (as the page's script)."""
    text = f"{x:.4g}"
    return "0" if text in ("0", "-0") else text.replace("-", "\u2212")


def scale(values: Sequence[float | None]) -> tuple[float, float]:
    """The vertical range that holds every value and zero when it is near (span ≥ tiny)."""
    known = [v for v in values if v is not None and math.isfinite(v)]
    low, high = min(known, default=0.0), max(known, default=1.0)
    if low > 0 and low < (high - low):
        low = 0.0
    if high < 0 and -high < (high - low):
        high = 0.0
    if high - low < 1e-12:
        low, high = low - 1.0, high + 1.0
    return low, high


class _Frame:
    """The chart's mapping from values to SVG coordinates."""

    def __init__(self, x0: float, x1: float, low: float, high: float) -> None:
        self.x0, self.x1, self.low, self.high = x0, x1, low, high

    def x(self, value: float) -> float:
        return PAD + (WIDTH - 2 * PAD) * (value - self.x0) / ((self.x1 - self.x0) or 1.0)

    def y(self, value: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - self.low) / (self.high - self.low)

    def line(self, xs: Sequence[float], ys: Sequence[float | None]) -> str:
        return " ".join(f"{self.x(x):.1f},{self.y(y):.1f}"
                        for x, y in zip(xs, ys, strict=True) if y is not None)


def chart_svg(chart: Chart) -> Markup:
    """The chart: axes with their labels and ticks, the curve and the authored point."""
    xs, ys = chart.xs, chart.ys
    x0, x1 = xs[0], xs[-1]
    ax, ay = chart.point
    low, high = scale([*ys, ay])
    frame = _Frame(x0, x1, low, high)
    px, py = frame.x, frame.y

    x_label, y_label = escape(chart.x_label), escape(chart.y_label)
    zero = "" if low <= 0 <= high else ' visibility="hidden"'
    title = escape(f"{chart.y_label} against {chart.x_label}; the lesson's point: "
                   f"{chart.x_label} = {tick(ax)}, {chart.y_label} = {tick(ay)}")
    parts = [
        f'<svg class="rlkl-plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="rlkl-plot-title" xmlns="http://www.w3.org/2000/svg" '
        f'data-pad="{PAD}" data-width="{WIDTH}" data-height="{HEIGHT}" '
        f'data-x0="{x0!r}" data-x1="{x1!r}">',
        f'<title id="rlkl-plot-title">{title}</title>',
        f'<line class="rlkl-axis" x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" '
        f'y2="{HEIGHT - PAD}"/>',
        f'<line class="rlkl-axis" x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}"/>',
        f'<line class="rlkl-axis rlkl-zero" x1="{PAD}" x2="{WIDTH - PAD}" y1="{py(0):.1f}" '
        f'y2="{py(0):.1f}"{zero}/>',
        f'<polyline class="rlkl-curve" points="{frame.line(xs, ys)}"/>',
        f'<circle class="rlkl-sample" cx="{px(ax):.1f}" cy="{py(ay):.1f}" r="5"/>',
        f'<text class="rlkl-sample-label" x="{min(px(ax) + 8, WIDTH - PAD - 90):.1f}" '
        f'y="{max(py(ay) - 8, 14):.1f}">({tick(ax)}, {tick(ay)})</text>',
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 8}" text-anchor="end">{x_label}</text>',
        f'<text x="{PAD - 40}" y="{PAD - 20}">{y_label}</text>',
    ]
    for x, written in chart.ticks:
        parts.append(f'<text x="{px(x):.1f}" y="{HEIGHT - PAD + 16}" text-anchor="middle">'
                     f"{escape(written)}</text>")
    for role, value in (("low", low), ("high", high)):
        parts.append(f'<text class="rlkl-ytick" data-at="{role}" x="{PAD - 6}" '
                     f'y="{py(value) + 4:.1f}" text-anchor="end">{tick(value)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def with_scales(data: Mapping[str, Any]) -> dict[str, Any]:
    """The page's plot data with each curve's vertical range (:func:`scale`) beside it, so
    the page's script rescales the axis when a control swaps the curve without computing."""
    plot = data.get("plot")
    if plot is None:
        return dict(data)
    scales = {key: list(scale(ys)) for key, ys in plot["curves"].items()}
    return {**data, "plot": {**plot, "scales": scales}}
