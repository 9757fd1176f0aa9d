"""The PPO clipped objective against the ratio, as an inline SVG computed at build time.

``L(r) = min(r·A, clip(r, 1 − ε, 1 + ε)·A)`` (Schulman et al. 2017, eq. 7,
https://arxiv.org/abs/1707.06347) is evaluated with :func:`rlkl.core.ppo_clip_objective` on a
grid of ratios for ``A = +|Â|`` and ``A = −|Â|``; the lesson's worked sample is marked. An
inline SVG costs a few kilobytes and no extra request, so a 1,000-page build stays fast.
"""

from __future__ import annotations

import numpy as np
from markupsafe import Markup

from rlkl.core import ppo_clip_objective
from rlkl.site.records import PpoPoint

WIDTH, HEIGHT, PAD = 560, 300, 44
R_MAX = 2.0


def curves(point: PpoPoint) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratios on [0, R_MAX] and the clipped objective there for A = +|Â| and A = −|Â|.

    The objective is linear between its kinks at 1 − ε and 1 + ε, so the curve through
    0, the kinks and R_MAX is exact (a polyline of at most four points).
    """
    kinks = [r for r in (1.0 - point.epsilon, 1.0 + point.epsilon) if 0.0 < r < R_MAX]
    ratios = np.array([0.0, *kinks, R_MAX])
    size = abs(point.advantage)
    positive = np.asarray(ppo_clip_objective(ratios, size, point.epsilon))
    negative = np.asarray(ppo_clip_objective(ratios, -size, point.epsilon))
    return ratios, positive, negative


def _fmt(x: float) -> str:
    return f"{x:.4g}".replace("-", "\u2212")


def clipped_objective_svg(point: PpoPoint) -> Markup:
    """An accessible inline SVG of both curves, the clip thresholds and the worked sample."""
    ratios, positive, negative = curves(point)
    r0 = min(max(point.ratio, 0.0), R_MAX)  # the dot: on its curve, at the chart's edge at most
    y0 = float(ppo_clip_objective(r0, point.advantage, point.epsilon))
    value = float(ppo_clip_objective(point.ratio, point.advantage, point.epsilon))  # the sample's
    beyond = " →" if point.ratio > R_MAX else ""
    low = float(min(negative.min(), positive.min(), y0))
    high = float(max(negative.max(), positive.max(), y0))
    span = (high - low) or 1.0

    def x(r: float) -> float:
        return PAD + (WIDTH - 2 * PAD) * r / R_MAX

    def y(v: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / span

    def line(values: np.ndarray) -> str:
        pairs = zip(ratios, values, strict=True)
        return " ".join(f"{x(float(r)):.1f},{y(float(v)):.1f}" for r, v in pairs)

    eps = point.epsilon
    size = abs(point.advantage)  # 0: both curves are the flat zero line, labelled once
    plus, hidden = ("+", "") if size else ("", ' visibility="hidden"')
    parts = [
        f'<svg class="rlkl-plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="rlkl-plot-title" xmlns="http://www.w3.org/2000/svg" '
        # the scale, so the page's controls can redraw curves and move the dot (rlkl.js)
        f'data-pad="{PAD}" data-width="{WIDTH}" data-height="{HEIGHT}" data-rmax="{R_MAX}" '
        f'data-low="{low!r}" data-high="{high!r}">',
        f'<title id="rlkl-plot-title">Clipped objective against the ratio for A = ±{_fmt(size)}, '
        f"ε = {_fmt(eps)}; the worked sample r = {_fmt(point.ratio)}, "
        f"A = {_fmt(point.advantage)} gives {_fmt(value)}</title>",
        f'<line class="rlkl-axis rlkl-zero" x1="{PAD}" y1="{y(0):.1f}" x2="{WIDTH - PAD}" '
        f'y2="{y(0):.1f}"/>',
        f'<line class="rlkl-axis" x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}"/>',
    ]
    for sign, edge, label in ((-1, 1 - eps, "1 − ε"), (1, 1 + eps, "1 + ε")):
        shown = "" if 0 <= edge <= R_MAX else ' visibility="hidden"'
        parts.append(
            f'<g class="rlkl-edge" data-sign="{sign}"{shown}>'
            f'<line class="rlkl-threshold" x1="{x(edge):.1f}" y1="{PAD}" '
            f'x2="{x(edge):.1f}" y2="{HEIGHT - PAD}"/>'
            f'<text x="{x(edge):.1f}" y="{PAD - 6}" text-anchor="middle">{label} = '
            f"{_fmt(edge)}</text></g>"
        )
    parts += [
        f'<polyline class="rlkl-curve-pos" points="{line(positive)}"/>',
        f'<polyline class="rlkl-curve-neg" points="{line(negative)}"/>',
        f'<circle class="rlkl-sample" cx="{x(r0):.1f}" cy="{y(y0):.1f}" r="5"/>',
        f'<text class="rlkl-sample-label" x="{x(r0) + 8:.1f}" y="{y(y0) - 8:.1f}">'
        f"({_fmt(point.ratio)}, {_fmt(value)}){beyond}</text>",
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 10}" text-anchor="end">ratio r</text>',
        f'<text x="{PAD + 4}" y="{PAD - 24}">objective</text>',
        f'<text class="rlkl-label-pos" x="{WIDTH - PAD}" y="{y(float(positive[-1])) - 6:.1f}" '
        f'text-anchor="end">A = {plus}{_fmt(size)}</text>',
        f'<text class="rlkl-label-neg" x="{WIDTH - PAD}" y="{y(float(negative[-1])) - 8:.1f}" '
        f'text-anchor="end"{hidden}>A = −{_fmt(size)}</text>',
    ]
    for tick in (0.0, 0.5, 1.0, 1.5, 2.0):
        parts.append(
            f'<text x="{x(tick):.1f}" y="{HEIGHT - PAD + 16}" text-anchor="middle">'
            f"{_fmt(tick)}</text>"
        )
    for role, tick in (("low", low), ("zero", 0.0), ("high", high)):
        parts.append(
            f'<text class="rlkl-ytick" data-at="{role}" x="{PAD - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{_fmt(tick)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
