"""A lesson's plot as an inline SVG drawn at build time from values ``rlkl.core`` computed,
and the explorable data as the page ships it.

The values are the page's :class:`~rlkl.site.records.Chart`: one output of the worked
example over a fine grid of one input's range (:func:`rlkl.claims.explore.plot`), the
authored point marked. The SVG carries its geometry in ``data-`` attributes so the page's
script can redraw it from the shipped curves when a control moves (it rescales the vertical
axis and moves the point; it never computes a value). An inline SVG costs a few kilobytes
and no request.

The page ships its explorable data (:func:`shipped`) with each repeated part once: numbers
that move alike with a control, the plot's curves and straight stretches of them. Its script
unpacks them to exactly the texts and values written here.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from markupsafe import Markup, escape

from rlkl.site.records import Chart

WIDTH, HEIGHT, PAD = 560, 300, 48

__all__ = ["HEIGHT", "PAD", "WIDTH", "chart_svg", "column", "scale", "shipped"]


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


def _runs(entries: Sequence[Any]) -> list[Any]:
    """``entries`` with a run of one entry written ``[entry, count]`` where that is shorter
    (entries are equal when they are written alike: 0.0 and −0.0 are not)."""
    out: list[Any] = []
    for _, group in itertools.groupby(entries, key=repr):
        run = list(group)
        one = json.dumps(run[0])
        if len(one) + len(str(len(run))) + 3 < len(run) * (len(one) + 1) - 1:
            out.append([run[0], len(run)])
        else:
            out.extend(run)
    return out


_POWERS = 22  # 10**k is a double exactly for k <= 22
_WHOLE = 2**52  # a value's integer, and the difference of two, stay exact doubles


def column(values: Sequence[float | None]) -> list[Any]:
    """Numbers as the page ships them: ``[k, …]``, each entry a value's difference from the
    value before it in units of 10**−k, an integer (``null`` where there is no value;
    :func:`_runs`), so a flat or straight stretch of a curve is one entry. The script sums
    them and divides by 10**k, exactly: the sum is a whole number of at most 2**52, 10**k a
    double, so the quotient is the double nearest the decimal the value's ``repr`` writes,
    which is the value. Values that cannot be written so (over 2**52 units, 10**k with
    k > 22, −0.0, not finite) are shipped as they are: ``[null, …]``, in runs."""
    known = [float(v) for v in values if v is not None]
    exact = all(math.isfinite(v) and (v != 0 or math.copysign(1.0, v) > 0) for v in known)
    decimals = [Decimal(repr(v)) for v in known] if exact else []
    k = max((max(0, -int(d.as_tuple().exponent)) for d in decimals), default=0)
    whole = [int(d.scaleb(k)) for d in decimals]
    if not exact or k > _POWERS or any(abs(n) > _WHOLE for n in whole):
        return [None, *_runs([None if v is None else float(v) for v in values])]
    entries: list[int | None] = []
    last, numbers = 0, iter(whole)
    for v in values:
        if v is None:
            entries.append(None)
            continue
        n = next(numbers)
        entries.append(n - last)
        last = n
    return [k, *_runs(entries)]


class _Table:
    """Distinct values, each once: the index of each (values JSON writes alike are one)."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.index: dict[str, int] = {}

    def __call__(self, value: Any) -> int:
        key = json.dumps(value)
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(value)
        return self.index[key]


def shipped(data: Mapping[str, Any]) -> dict[str, Any]:
    """The explorable data (:attr:`rlkl.site.records.Explorable.data`) as the page ships it,
    each repeated part once: every text once in ``texts``; each list of texts (a control's
    points, a moving number's text at each of them) once in ``lists``, as indexes into
    ``texts`` in runs (:func:`_runs`), so numbers that move alike share one; each distinct
    curve of the plot once in ``ys`` (:func:`column`), its vertical range (:func:`scale`) at
    the same index of ``scales``, so the script rescales the axis when a control swaps the
    curve without computing. A PPO lesson's data: 10.1 KB as written, 3.5 KB shipped."""
    texts, lists = _Table(), _Table()

    def listed(items: Sequence[str]) -> int:
        return lists(_runs([texts(t) for t in items]))

    out: dict[str, Any] = {"knobs": [
        {**knob, "texts": listed(knob["texts"]),
         "numbers": {n: listed(v) for n, v in knob["numbers"].items()}}
        for knob in data["knobs"]]}
    plot = data.get("plot")
    if plot is not None:
        curves = _Table()
        scales: list[list[float]] = []

        def drawn(ys: Sequence[float | None]) -> int:
            index = curves(list(ys))
            if index == len(scales):
                scales.append(list(scale(ys)))
            return index

        curve = drawn(plot["curve"])
        moved = {name: [drawn(ys) for ys in each] for name, each in plot["moved"].items()}
        out["plot"] = {"x": plot["x"], "xs": column(plot["xs"]), "at": plot["at"],
                       "points": plot["points"], "curve": curve, "moved": moved,
                       "ys": [column(ys) for ys in curves.items], "scales": scales}
    out["texts"], out["lists"] = texts.items, lists.items
    return out
