"""The built site in a real browser: the Debian chromium, driven by Playwright, offline.

A local HTTP server serves a fresh build; every request to another host is blocked and
recorded. A missing browser is a failure, never a skip: the site is one of rlkl's jobs.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator, Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from rlkl.check import check_paths
from rlkl.claims.explore import explore, plot
from rlkl.site.plot import HEIGHT, PAD, WIDTH, scale
from tests.site.helpers import CONTENT, HOSTILE, build, hostile_corpus

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
LOCAL = {"127.0.0.1", "localhost"}
LESSONS = sorted(p.name for p in CONTENT.iterdir() if (p / "lesson.json").is_file())


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("browser")
    site = build(tmp)
    hostile = build(tmp / "hostile", hostile_corpus(tmp / "hostile"))
    (site / "hostile").symlink_to(hostile, target_is_directory=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `apt-get install -y chromium` (see .ci/run)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield instance
        instance.close()


class Visit:
    """One page in a fresh context, with every console error, page error, dialog and
    non-local request recorded (non-local requests are aborted)."""

    def __init__(self, browser: Any, url: str, *, javascript: bool = True,
                 color_scheme: str = "light") -> None:
        self.context = browser.new_context(java_script_enabled=javascript,
                                           viewport={"width": 1280, "height": 900},
                                           color_scheme=color_scheme)
        self.errors: list[str] = []
        self.blocked: list[str] = []
        self.dialogs: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.goto(url, wait_until="load")

    def _route(self, route: Any) -> None:
        host = urlsplit(route.request.url).hostname
        if route.request.url.startswith(("data:", "blob:")) or host in LOCAL:
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def clean(self) -> None:
        assert self.errors == [], self.errors
        assert self.blocked == [], self.blocked
        assert self.dialogs == [], self.dialogs

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visit(browser: Any, base_url: str) -> Iterator[Any]:
    opened: list[Visit] = []

    def open_page(path: str, **kwargs: Any) -> Visit:
        opened.append(Visit(browser, base_url + path, **kwargs))
        return opened[-1]

    yield open_page
    for page in opened:
        page.close()


PAGES = ["", "lessons/", *(f"lessons/{lesson}/" for lesson in LESSONS), "report/",
         "experiment/", "guide/authoring/", "reference/cli/", "reference/schema/",
         "reference/configuration/", "reference/rules/"]


@pytest.mark.parametrize("path", PAGES)
def test_pages_render_offline_without_errors(visit: Any, path: str) -> None:
    v = visit(path)
    assert v.page.locator("article h1").count() >= 1
    v.page.wait_for_timeout(200)
    v.clean()


def test_math_is_rendered_and_no_tex_is_visible(visit: Any) -> None:
    v = visit("lessons/ppo-clipped-objective/")
    equations = v.page.locator("article .rlkl-equation")
    assert equations.count() == 2
    for i in range(equations.count()):  # each relation and side is set, none empty
        pieces = equations.nth(i).locator("math")
        assert pieces.count() >= 2
        for j in range(pieces.count()):
            box = pieces.nth(j).bounding_box()
            assert box is not None and box["width"] > 20 and box["height"] > 15
    text = v.page.locator("article").inner_text()
    assert "\\frac" not in text and "\\hat" not in text and "\\min" not in text
    v.clean()


def _tip(page: Any, locator: Any) -> tuple[str, str]:
    return locator.evaluate(
        "e => { const s = getComputedStyle(e, '::after'); return [s.display, s.content]; }"
    )


def test_hover_and_keyboard_focus_show_a_numbers_record(visit: Any, tmp_path: Path) -> None:
    v = visit("lessons/ppo-clipped-objective/")
    marks = v.page.locator("#example ~ .rlkl-section .rlkl-example .rlkl-num")
    verified = v.page.locator(".rlkl-example .rlkl-num.rlkl-verified").first
    assert _tip(v.page, verified)[0] == "none"
    verified.hover()
    display, content = _tip(v.page, verified)
    assert display == "block" and content.startswith('"verified') and "checked" in content
    v.page.mouse.move(0, 0)
    # keyboard: from one marked number, Tab moves to the next and shows its record
    stops = v.page.locator(".rlkl-example .rlkl-num[tabindex]")
    assert v.page.locator(".rlkl-example .rlkl-num.rlkl-input[tabindex]").count() == 0
    stops.first.focus()  # inputs are no keyboard stop: their controls are
    v.page.keyboard.press("Tab")
    active = v.page.evaluate("document.activeElement.className")
    assert "rlkl-num" in active and "rlkl-input" not in active
    display, content = _tip(v.page, stops.nth(1))
    assert display == "block" and content.strip('"').startswith(("verified", "exempt"))
    exempt = v.page.locator(".rlkl-num.rlkl-exempt")
    if exempt.count():
        exempt.first.focus()
        assert "exempt: " in _tip(v.page, exempt.first)[1]
    assert marks.count() > 10
    v.page.screenshot(path=str(tmp_path / "focus.png"))
    v.clean()


KEY_IN_PAGE_JS = """
() => ({
  text: document.body.textContent,
  attributes: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes])
    .map(a => a.name + '=' + a.value).join(' '),
  keyed: document.querySelectorAll('[data-key], .rlkl-why, noscript').length,
})
"""


@pytest.mark.parametrize("lesson", LESSONS)
def test_nothing_on_the_page_tells_the_key_before_a_choice(visit: Any, lesson: str) -> None:
    """Not the text, not an attribute, not the misconception (it names a distractor), not
    the explanation of the key: the page's script takes all of it out of the page (the
    <noscript> block readers without JavaScript open) until the learner asks."""
    v = visit(f"lessons/{lesson}/")
    page = v.page.evaluate(KEY_IN_PAGE_JS)
    assert page["keyed"] == 0
    for hint in ("The answer.", "Not the answer.", "Common mistake", "data-answer",
                 "quiz-key", "distractor", "meant to be wrong", "The mistake it encodes"):
        assert hint not in page["text"] and hint not in page["attributes"], hint
    v.clean()


def test_quiz_gives_the_answer_away_only_when_asked(visit: Any) -> None:
    """The options are not in authored order, moving through them with the arrow keys
    reveals nothing, the numbers' records do not say which is the key, and "Check my answer"
    gives the feedback: for a wrong option, the mistake it encodes and its arithmetic."""
    v = visit("lessons/ppo-clipped-objective/")
    quiz = v.page.locator("[data-rlkl-quiz]")
    assert quiz.get_attribute("data-answer") is None
    shown = [int(i) for i in quiz.locator(".rlkl-option").evaluate_all(
        "options => options.map(o => o.dataset.index)")]
    assert sorted(shown) == list(range(len(shown))) and shown != sorted(shown)
    key = shown.index(0)  # the authored key (check.answer = 0) sits at this position
    for option in quiz.locator(".rlkl-option").all():  # the records hide which is the key
        records = option.locator(".rlkl-num").evaluate_all(
            "numbers => numbers.map(n => n.dataset.detail)")
        assert any("whether it is the answer is for you" in r for r in records), records
        assert not any("quiz-key" in r or "distractor" in r or "meant to be wrong" in r
                       for r in records), records
    feedback = quiz.locator(".rlkl-feedback")
    answers = quiz.locator("div.rlkl-answers")
    wrong = shown.index(1)  # distractor 1: "clipping only acts on ratios above 1.2"
    quiz.locator(f"label[for=rlkl-choice-{wrong}]").click()
    v.page.keyboard.press("ArrowDown")  # the selection moves; nothing is revealed
    assert answers.is_hidden() and feedback.inner_text() == ""
    quiz.locator(f"label[for=rlkl-choice-{wrong}]").click()
    quiz.locator(".rlkl-check-answer").click()
    said = feedback.inner_text()
    assert said.startswith("Not quite. Not the answer. The mistake it encodes: clipping "
                           "believed to act only above the upper threshold")
    assert f"The computed answer is option {key + 1}." in said
    assert "\u22120.7 = min(0.7 \u00d7 (\u22121), min(0.7, 1.2) \u00d7 (\u22121)), " \
           "checked to 1 decimal" in said
    mistake = v.page.locator(".rlkl-misconception")  # it names a distractor: after the answer
    assert answers.is_visible() and mistake.is_visible()
    assert "rlkl-wrong" in (quiz.locator(".rlkl-option").nth(wrong).get_attribute("class") or "")
    quiz.locator(f"label[for=rlkl-choice-{key}]").click()
    quiz.locator(".rlkl-check-answer").click()
    assert feedback.inner_text().startswith("Correct. The answer.")
    assert "\u22120.8 = ppo_clip_objective(0.7, \u22121, 0.2)" in feedback.inner_text()
    v.clean()


@pytest.mark.parametrize(("typed", "said"), [
    ("\u22120.8", "Correct: \u22120.8 is the answer to 1 decimal"),
    ("-0.80", "Correct: -0.80 is the answer to 2 decimals"),
    ("-0.7", "Not quite: -0.7 is not the answer to 1 decimal"),
    ("-0.84", "Not quite: -0.84 is not the answer to 2 decimals"),  # more decimals: closer
    ("-1", "Write it to at least 1 decimal, as the options are."),
    ("minus one", "Type a number"),
])
def test_a_typed_answer_is_graded_at_its_written_precision(visit: Any, typed: str,
                                                           said: str) -> None:
    """ppo-clipped-objective's answer is −0.8 (ρ = 0.7, Â = −1, ε = 0.2)."""
    v = visit("lessons/ppo-clipped-objective/")
    quiz = v.page.locator("[data-rlkl-quiz]")
    quiz.locator("input[name=rlkl-typed]").fill(typed)
    quiz.locator(".rlkl-check-answer").click()
    assert quiz.locator(".rlkl-feedback").inner_text().startswith(said)
    revealed = said.startswith(("Correct", "Not quite"))
    assert quiz.locator("div.rlkl-answers").is_visible() == revealed
    v.clean()


def test_the_keyboard_reaches_the_check_question_before_the_marked_numbers(visit: Any) -> None:
    """A lesson's first stop is a link past its many marked numbers to the question."""
    v = visit("lessons/ppo-clipped-objective/")
    first = v.page.evaluate(
        "() => { const f = [...document.querySelectorAll('article a[href], article [tabindex]')]"
        ".find(e => e.tabIndex >= 0); return [f.className, f.getAttribute('href')]; }")
    assert first == ["rlkl-skip", "#check"]
    v.page.focus(".rlkl-skip")
    assert v.page.locator(".rlkl-skip").is_visible()
    v.page.keyboard.press("Enter")
    assert v.page.evaluate("() => location.hash") == "#check"
    v.clean()


def test_quiz_is_readable_without_javascript(visit: Any) -> None:
    v = visit("lessons/ppo-clipped-objective/", javascript=False)
    answers = v.page.locator("details.rlkl-answers")
    assert answers.is_visible()
    assert not answers.locator(".rlkl-why").first.is_visible()  # closed until asked
    answers.locator("summary").click()
    assert "The answer." in answers.inner_text()
    controls = v.page.locator("input[data-knob]")
    assert controls.count() > 0 and controls.first.is_disabled()  # nothing moves without JS
    assert v.page.locator(".rlkl-example").inner_text().count("\u22121.6") >= 1
    v.clean()


MOVE_JS = """
([k, i]) => {
  const slider = document.querySelectorAll('input[data-knob]')[k];
  slider.value = String(i);
  slider.dispatchEvent(new Event('input', {bubbles: true}));
  const svg = document.querySelector('svg.rlkl-plot');
  const dot = svg && svg.querySelector('.rlkl-sample');
  return {
    marks: [...document.querySelectorAll('article .rlkl-num')].map(m => [
      m.dataset.n === undefined ? null : +m.dataset.n, m.textContent,
      m.classList.contains('rlkl-moved'), m.classList.contains('rlkl-untrue')]),
    output: slider.parentNode.querySelector('output').textContent,
    others: [...document.querySelectorAll('input[data-knob]')].map(s => +s.value),
    summary: document.querySelector('.rlkl-moved-summary').textContent,
    dot: dot ? [+dot.getAttribute('cx'), +dot.getAttribute('cy')] : null,
    curve: svg ? svg.querySelector('.rlkl-curve').getAttribute('points') : null,
    width: document.documentElement.scrollWidth,
  };
}
"""


@functools.lru_cache(maxsize=1)
def _reports() -> dict[str, Any]:
    return {r.id: r for r in check_paths([CONTENT]).reports}


def _points(knob: Any) -> list[int]:
    """The points a test moves an input to: both ends of its range (not the authored)."""
    return sorted({0, len(knob.values) - 1} - {knob.at})


@pytest.mark.parametrize("lesson", LESSONS)
def test_moving_an_input_moves_exactly_the_numbers_computed_from_it(visit: Any,
                                                                     lesson: str) -> None:
    """Every input of every lesson, moved to both ends of its range: the numbers the
    bindings compute from it show the values rlkl.core gives there (rlkl.claims.explore,
    itself checked against each lesson's script in tests/claims/test_explore.py), the
    claims that stop holding are marked, and every other number keeps its text."""
    report = _reports()[lesson]
    knobs = explore(report)
    assert knobs, f"{lesson} has nothing a learner can change"
    v = visit(f"lessons/{lesson}/")
    authored = v.page.evaluate(MOVE_JS, [0, knobs[0].at])["marks"]
    assert any(n is not None for n, *_ in authored)
    for k, knob in enumerate(knobs):
        for i in _points(knob):
            got = v.page.evaluate(MOVE_JS, [k, i])
            assert got["output"] == knob.texts[i]
            assert got["others"] == [i if j == k else other.at for j, other in enumerate(knobs)]
            for (n, text, moved, untrue), (_, before, *_) in zip(got["marks"], authored,
                                                                 strict=True):
                want = knob.numbers[n][i] if n in knob.numbers else before
                assert text == want, (knob.name, knob.texts[i], n, text, want)
                assert moved == (want != before)
                assert untrue == (n in knob.untrue and i in knob.untrue[n])
            assert got["summary"].startswith(f"{knob.name} = {knob.texts[i]}")
    v.clean()


EVERY_POINT_JS = """
() => {
  const section = document.querySelector('[data-rlkl-explore]');
  const svg = section.querySelector('svg.rlkl-plot');
  const sliders = [...section.querySelectorAll('input[data-knob]')];
  const state = () => ({
    marks: [...document.querySelectorAll('article .rlkl-num[data-n]')].map(m => [
      +m.dataset.n, m.textContent]),
    curve: svg ? svg.querySelector('.rlkl-curve').getAttribute('points') : null,
  });
  const authored = state(), moves = [];
  sliders.forEach((slider, k) => {
    for (let i = 0; i <= +slider.max; i++) {
      slider.value = String(i);
      slider.dispatchEvent(new Event('input', {bubbles: true}));
      moves.push([k, i, state()]);
    }
  });
  return {data: section.rlklExplore, authored, moves,
          frame: svg ? ['x0', 'x1'].map(k => +svg.dataset[k]) : null};
}
"""


def _drawn(ys: Sequence[float | None]) -> list[float | None]:
    """A curve as the page draws it: 6 significant digits (rlkl.site.records)."""
    return [None if y is None else float(f"{y:.6g}") for y in ys]


def _exact(values: Sequence[Any]) -> list[str | None]:
    """Numbers as doubles, to compare exactly (Playwright gives whole ones as int)."""
    return [None if v is None else float(v).hex() for v in values]


def _fixed(value: float) -> str:
    """JavaScript's ``value.toFixed(1)``: the exact double rounded, a tie away from 0."""
    text = str(Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    return "0.0" if text == "-0.0" and value == 0 else text


def _polyline(xs: Sequence[float], ys: Sequence[float | None], x0: float, x1: float) -> str:
    """The ``points`` rlkl.js's ``redraw`` writes for a curve, in the same double
    arithmetic and order, with its vertical range from :func:`scale`."""
    low, high = scale(ys)
    return " ".join(
        _fixed(PAD + (WIDTH - 2 * PAD) * (x - x0) / ((x1 - x0) or 1)) + "," +
        _fixed(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (y - low) / (high - low))
        for x, y in zip(xs, ys, strict=True) if y is not None)


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_page_unpacks_every_text_and_curve_exactly(visit: Any, lesson: str) -> None:
    """The explorable data ships each repeated part once (rlkl.site.plot.shipped); the
    page's script gets back exactly what the records give: each input's texts, each moving
    number's text at every point of every input's range, the plot's grid and every curve
    (value for value, as doubles). Moved to every point of every range, the page shows
    those texts in the marked numbers and draws the curve of that point."""
    report = _reports()[lesson]
    knobs = explore(report)
    drawn = plot(report, knobs)
    v = visit(f"lessons/{lesson}/")
    got = v.page.evaluate(EVERY_POINT_JS)
    data = got["data"]
    assert [k["name"] for k in data["knobs"]] == [k.name for k in knobs]
    for shown, knob in zip(data["knobs"], knobs, strict=True):
        assert shown["texts"] == list(knob.texts) and shown["at"] == knob.at
        assert shown["numbers"] == {str(n): list(t) for n, t in knob.numbers.items()}
        assert shown["untrue"] == {str(n): list(p) for n, p in knob.untrue.items()}
    if drawn is not None:
        shipped = data["plot"]
        assert _exact(shipped["xs"]) == _exact(drawn.xs)
        assert _exact(shipped["ys"][shipped["curve"]]) == _exact(_drawn(drawn.ys))
        for (name, i), ys in drawn.moved.items():
            assert _exact(shipped["ys"][shipped["moved"][name][i]]) == _exact(_drawn(ys))
        for ys, (low, high) in zip(shipped["ys"], shipped["scales"], strict=True):
            assert _exact([low, high]) == _exact(scale(ys))
    authored = dict(got["authored"]["marks"])
    assert len(got["moves"]) == sum(len(k.values) for k in knobs)
    for k, i, state in got["moves"]:
        knob = knobs[k]
        for n, text in state["marks"]:
            want = knob.numbers[n][i] if n in knob.numbers else authored[n]
            assert text == want, (knob.name, knob.texts[i], n, text, want)
        if drawn is not None:
            curve = drawn.ys if knob.name == drawn.x else drawn.moved.get((knob.name, i),
                                                                          drawn.ys)
            assert state["curve"] == _polyline(drawn.xs, _drawn(curve), *got["frame"]), \
                (knob.name, i)
    v.clean()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lesson", ["ppo-clipped-objective", "reinforce-baseline-kl"])
def test_the_plot_follows_the_controls_and_stays_on_the_chart(browser: Any, base_url: str,
                                                              lesson: str, width: int) -> None:
    """Moving the plotted input moves the dot along the curve to the core's value; moving
    another input swaps the curve and rescales the axis; nothing leaves the chart, and a
    phone page never scrolls sideways."""
    report = _reports()[lesson]
    knobs = explore(report)
    drawn = plot(report, knobs)
    assert drawn is not None
    v = Visit(browser, f"{base_url}lessons/{lesson}/")
    v.page.set_viewport_size({"width": width, "height": 900})
    try:
        for k, knob in enumerate(knobs):
            for i in _points(knob):
                got = v.page.evaluate(MOVE_JS, [k, i])
                assert got["width"] <= width
                ys = [float(p.split(",")[1]) for p in got["curve"].split()]
                assert all(PAD - 0.1 <= y <= HEIGHT - PAD + 0.1 for y in ys)
                curve = drawn.ys if knob.name == drawn.x else drawn.moved.get((knob.name, i),
                                                                              drawn.ys)
                x = knob.values[i] if knob.name == drawn.x else drawn.point[0]
                y = curve[drawn.xs.index(x)]
                low, high = scale(curve)
                assert got["dot"] is not None and y is not None
                cx = PAD + (WIDTH - 2 * PAD) * (x - drawn.xs[0]) / (drawn.xs[-1] - drawn.xs[0])
                cy = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (y - low) / (high - low)
                assert abs(got["dot"][0] - cx) < 0.06 and abs(got["dot"][1] - cy) < 0.06
        v.clean()
    finally:
        v.close()


def test_search_works_offline(visit: Any) -> None:
    v = visit("")
    _search(v.page, "clipped")
    assert "PPO: inspect the clipped objective" in v.page.locator(".md-search-result").inner_text()
    v.clean()


def _search(page: Any, query: str) -> None:
    page.wait_for_timeout(500)  # the search worker loads its index
    page.keyboard.press("/")
    page.keyboard.type(query, delay=20)
    page.locator(".md-search-result__item").first.wait_for(timeout=15000)


def test_hostile_lesson_shows_markup_as_text_and_runs_nothing(visit: Any) -> None:
    v = visit("hostile/lessons/hostile-lesson/")
    text = v.page.locator("article").inner_text()
    assert "<script>alert(document.cookie)</script>" in text
    assert "**bold**" in text and "[click](javascript:" in text
    v.page.locator("label[for=rlkl-choice-0]").click()
    v.page.locator("a", has_text="<script>").first.hover()
    v.page.wait_for_timeout(200)
    assert v.page.evaluate("document.querySelectorAll('article img, article b').length") == 0
    assert HOSTILE.split(" ")[0] in text
    _search(v.page, "Hostile")
    assert "<script>alert(document.cookie)" in v.page.locator(".md-search-result").inner_text()
    v.clean()


def test_screenshots_of_the_ppo_guide_and_the_catalog(visit: Any, tmp_path: Path) -> None:
    for path, name in (("lessons/ppo-clipped-objective/", "ppo"), ("lessons/", "catalog")):
        v = visit(path)
        target = tmp_path / f"{name}.png"
        v.page.screenshot(path=str(target), full_page=True)
        assert target.stat().st_size > 10_000
        v.clean()


TIP_JS = """
e => { const s = getComputedStyle(e, '::after'); const r = e.getBoundingClientRect();
       const left = r.left + parseFloat(s.left);
       return [s.display, left, left + parseFloat(s.width),
               document.documentElement.clientWidth]; }
"""


@pytest.mark.parametrize("width", [1280, 420])
def test_a_numbers_record_stays_inside_the_window(visit: Any, width: int) -> None:
    v = visit("lessons/ppo-clipped-objective/")
    v.page.set_viewport_size({"width": width, "height": 900})
    marks = v.page.locator("article .rlkl-num")
    rights = marks.evaluate_all("ms => ms.map(m => m.getBoundingClientRect().right)")
    for index in sorted(range(len(rights)), key=lambda i: -rights[i])[:3]:  # the right-most
        mark = marks.nth(index)
        mark.scroll_into_view_if_needed()
        mark.hover()
        display, left, right, window = mark.evaluate(TIP_JS)
        assert display == "block" and left >= 0 and right <= window, (left, right, window)
        v.page.mouse.move(0, 0)
    v.clean()


def _luminance(rgb: str) -> float:
    """WCAG relative luminance of a computed ``rgb(r, g, b)`` colour."""
    channels = [int(c) / 255 for c in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_dark_system_gets_the_dark_palette_with_readable_marks(visit: Any) -> None:
    v = visit("lessons/ppo-clipped-objective/", color_scheme="dark")
    body = v.page.locator("body")
    assert body.get_attribute("data-md-color-scheme") == "slate"
    background = v.page.evaluate(
        "getComputedStyle(document.querySelector('.md-main')).backgroundColor"
        " || getComputedStyle(document.body).backgroundColor")
    if background in ("rgba(0, 0, 0, 0)", "transparent"):
        background = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
    for selector in (".rlkl-num.rlkl-verified", ".rlkl-num.rlkl-input"):
        style = v.page.locator(f"article {selector}").first.evaluate(
            "n => [getComputedStyle(n).color, getComputedStyle(n).borderBottomColor]")
        for colour in style:  # the number's text and its status mark
            assert _contrast(colour, background) >= 4.5, (selector, colour, background)
    toggle = v.page.locator("form[data-md-component=palette] label").first
    assert toggle.get_attribute("title") or toggle.get_attribute("aria-label")
    light = visit("lessons/ppo-clipped-objective/")  # a light system: the light palette
    assert light.page.locator("body").get_attribute("data-md-color-scheme") == "default"
    v.clean()
    light.clean()


@pytest.mark.parametrize("width", [1280, 390])
def test_every_equation_fits_on_a_desktop_and_on_a_phone(browser: Any, base_url: str,
                                                         width: int) -> None:
    """No equation of any lesson is cut off or scrolls at 1280 or 390 px: an equation of
    several relations wraps between them, a long relation after its "=", and what is still
    wide is set a little smaller (to 0.85em at least). Should one still not fit, it would be
    a named scroll region the keyboard reaches (checked here too)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        counted, wide = 0, []
        for lesson in LESSONS:
            page = context.new_page()
            page.goto(f"{base_url}lessons/{lesson}/", wait_until="load")
            for box in page.locator(".rlkl-equation").all():
                fits, focusable, labelled = box.evaluate(
                    "b => [b.scrollWidth <= b.clientWidth + 1, b.tabIndex === 0,"
                    " b.getAttribute('role') === 'region' && !!b.getAttribute('aria-label')]")
                counted += 1
                if not fits:
                    assert focusable and labelled, (lesson, width)
                    wide.append(lesson)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, lesson
            page.close()
        assert counted == 31 and wide == [], wide  # 31 equations in the shipped lessons
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("path", PAGES)
def test_axe_finds_nothing_serious(browser: Any, base_url: str, path: str, width: int) -> None:
    """axe-core (WCAG 2.1 A/AA rules, bundled with axe-playwright-python) on each page, on a
    desktop and on a phone: no serious or critical violation."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(base_url + path, wait_until="load")
        found = Axe().run(page).response["violations"]
        serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found
                   if v["impact"] in ("serious", "critical")]
        assert serious == [], serious
    finally:
        context.close()
