"""The built site in a real browser: the Debian chromium, driven by Playwright, offline.

A local HTTP server serves a fresh build; every request to another host is blocked and
recorded. A missing browser is a failure, never a skip: the site is one of rlkl's jobs.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from rlkl.core import ppo_clip_grad, ppo_clip_objective, ppo_ratio
from rlkl.site.lesson import show
from tests.site.helpers import CONTENT, HOSTILE, build, hostile_corpus

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
LOCAL = {"127.0.0.1", "localhost"}


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


PAGES = ["", "lessons/", "lessons/ppo-clipped-objective/", "lessons/policy-gradient-kl-control/",
         "lessons/reinforce-baseline-kl/", "lessons/kl-direction-estimators/", "report/",
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
    maths = v.page.locator("article math")
    assert maths.count() == 2
    for i in range(maths.count()):
        box = maths.nth(i).bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 20
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
    assert display == "block" and content.startswith('"verified') and "computed" in content
    v.page.mouse.move(0, 0)
    # keyboard: from one marked number, Tab moves to the next and shows its record
    first = v.page.locator(".rlkl-example .rlkl-num").first
    first.focus()
    v.page.keyboard.press("Tab")
    active = v.page.evaluate("document.activeElement.className")
    assert "rlkl-num" in active
    focused = v.page.locator(".rlkl-example .rlkl-num").nth(1)
    display, content = _tip(v.page, focused)
    assert display == "block" and content.strip('"').startswith(("input", "verified", "exempt"))
    exempt = v.page.locator(".rlkl-num.rlkl-exempt")
    if exempt.count():
        exempt.first.focus()
        assert "exempt: " in _tip(v.page, exempt.first)[1]
    assert marks.count() > 10
    v.page.screenshot(path=str(tmp_path / "focus.png"))
    v.clean()


def test_quiz_gives_the_answer_away_only_when_asked(visit: Any) -> None:
    """The options are not in authored order, moving through them with the arrow keys
    reveals nothing, the numbers' records do not say which is the key, and "Check my answer"
    gives the feedback."""
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
    mistake = v.page.locator(".rlkl-misconception")  # it names a distractor: after the answer
    assert mistake.count() == 1 and mistake.is_hidden()
    wrong = next(n for n in range(len(shown)) if n != key)
    quiz.locator(f"label[for=rlkl-choice-{wrong}]").click()
    v.page.keyboard.press("ArrowDown")  # the selection moves; nothing is revealed
    assert quiz.locator(".rlkl-answers").is_hidden() and feedback.inner_text() == ""
    quiz.locator(f"label[for=rlkl-choice-{wrong}]").click()
    quiz.locator(".rlkl-check-answer").click()
    assert feedback.inner_text().startswith("Not quite.")
    assert f"the computed answer is option {key + 1}." in feedback.inner_text()
    assert quiz.locator(".rlkl-answers").is_visible() and mistake.is_visible()
    assert "rlkl-wrong" in (quiz.locator(".rlkl-option").nth(wrong).get_attribute("class") or "")
    quiz.locator(f"label[for=rlkl-choice-{key}]").click()
    quiz.locator(".rlkl-check-answer").click()
    assert feedback.inner_text().startswith("Correct. The answer.")
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
    answers = v.page.locator(".rlkl-answers")
    assert answers.is_visible()
    assert not answers.locator(".rlkl-why").first.is_visible()  # closed until asked
    answers.locator("summary").click()
    assert "The answer." in answers.inner_text()
    assert v.page.locator("output[name=objective]").inner_text() == "\u22121.6"
    v.clean()


GRID_JS = """
([mode, grid]) => {
  const form = document.querySelector('[data-rlkl-controls]');
  const set = (name, value) => { const i = form.elements.namedItem(name); i.value = String(value);
                                 i.dispatchEvent(new Event('input', {bubbles: true})); };
  const read = (name) => { const o = form.querySelector(`output[name="${name}"]`);
                           return [o.dataset.value || '', o.textContent]; };
  return grid.map(([a, b, adv, eps]) => {
    if (mode === 'probs') { set('p_old', a); set('p_new', b); } else { set('ratio', a); }
    set('advantage', adv); set('epsilon', eps);
    return ['ratio_out', 'raw', 'clipped', 'objective', 'gradient', 'branch'].map(read);
  });
}
"""


def _expected(ratio: float, adv: float, eps: float) -> list[float]:
    return [ratio, ratio * adv, min(max(ratio, 1 - eps), 1 + eps) * adv,
            float(ppo_clip_objective(ratio, adv, eps)), float(ppo_clip_grad(ratio, adv, eps))]


def _agree(got: list[list[str]], want: list[float]) -> None:
    for (value, shown), expected in zip(got, want, strict=True):
        assert math.isclose(float(value), expected, rel_tol=1e-12, abs_tol=1e-15), (value, expected)
        assert shown == show(expected).replace("-", "\u2212")


@pytest.mark.parametrize(
    ("path", "mode"),
    [("lessons/ppo-clipped-objective/", "ratio"), ("lessons/policy-gradient-kl-control/", "probs")],
)
def test_controls_agree_with_the_core_on_a_grid(visit: Any, path: str, mode: str) -> None:
    v = visit(path)
    assert v.page.locator("[data-rlkl-controls]").get_attribute("data-mode") == mode
    advantages, epsilons = [-2.0, -0.5, 0.0, 1.0, 2.0], [0.0, 0.1, 0.2, 0.35]
    if mode == "ratio":
        firsts, seconds = [0.0, 0.5, 0.79, 0.8, 1.0, 1.2, 1.21, 1.4, 2.5], [0.0]
    else:
        firsts, seconds = [0.1, 0.5, 0.9, 1.0], [0.05, 0.5, 0.7, 1.0]
    grid = [[a, b, adv, eps] for a in firsts for b in seconds for adv in advantages
            for eps in epsilons]
    results = v.page.evaluate(GRID_JS, [mode, grid])
    assert len(results) == len(grid) >= 160
    for (a, b, adv, eps), got in zip(grid, results, strict=True):
        ratio = float(ppo_ratio(math.log(b), math.log(a))) if mode == "probs" else a
        _agree(got[:5], _expected(ratio, adv, eps))
        binds = (adv > 0 and ratio > 1 + eps) or (adv < 0 and ratio < 1 - eps)
        assert got[5][1] == ("clipped (flat, no gradient)" if binds else "raw product")
    v.clean()


def test_controls_refuse_what_the_core_refuses(visit: Any) -> None:
    v = visit("lessons/policy-gradient-kl-control/")
    form = v.page.locator("[data-rlkl-controls]")
    form.locator("input[name=p_old]").fill("0")
    assert form.locator(".rlkl-control-error").is_visible()
    assert form.locator("output[name=objective]").inner_text() == "—"
    form.locator("input[name=p_old]").fill("0.5")
    form.locator("input[name=epsilon]").fill("-0.1")
    assert "ε" in form.locator(".rlkl-control-error").inner_text()
    v.clean()


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


SET_INPUTS = """
([ratio, adv, eps]) => {
  const form = document.querySelector('[data-rlkl-controls]');
  const set = (name, value) => { const i = form.elements.namedItem(name); i.value = String(value);
                                 i.dispatchEvent(new Event('input', {bubbles: true})); };
  set('ratio', ratio); set('advantage', adv); set('epsilon', eps);
"""
"""The PPO panel's inputs set as a learner types them (the start of a page function)."""

PLOT_JS = SET_INPUTS + """\
  const svg = document.querySelector('svg.rlkl-plot'), dot = svg.querySelector('.rlkl-sample');
  return [{...svg.dataset}, +dot.getAttribute('cx'), +dot.getAttribute('cy'),
          svg.querySelector('.rlkl-curve-pos').getAttribute('points'),
          svg.querySelector('.rlkl-curve-neg').getAttribute('points'),
          svg.querySelector('title').textContent];
}
"""


@pytest.mark.parametrize(("ratio", "adv", "eps"),
                         [(1.4, 2.0, 0.2), (0.5, -2.0, 0.2), (0.9, 1.0, 0.3), (3.0, 1.0, 0.1)])
def test_the_controls_move_the_plots_dot_onto_the_cores_curve(
    visit: Any, ratio: float, adv: float, eps: float
) -> None:
    v = visit("lessons/ppo-clipped-objective/")
    scale, cx, cy, positive, negative, title = v.page.evaluate(PLOT_JS, [ratio, adv, eps])
    pad, width, height = float(scale["pad"]), float(scale["width"]), float(scale["height"])
    rmax, low, high = float(scale["rmax"]), float(scale["low"]), float(scale["high"])

    def x(r: float) -> float:
        return pad + (width - 2 * pad) * r / rmax

    def y(value: float) -> float:
        return height - pad - (height - 2 * pad) * (value - low) / (high - low)

    r0 = min(ratio, rmax)
    assert f"the chosen sample r = {show(ratio)}" in title  # what a screen reader announces
    assert abs(cx - x(r0)) < 0.06 and abs(cy - y(float(ppo_clip_objective(r0, adv, eps)))) < 0.06
    kinks = [k for k in (1 - eps, 1 + eps) if 0 < k < rmax]
    for points, sign in ((positive, 1.0), (negative, -1.0)):
        got = [tuple(map(float, p.split(","))) for p in points.split()]
        want = [(x(r), y(float(ppo_clip_objective(r, sign * abs(adv), eps))))
                for r in (0.0, *kinks, rmax)]
        assert len(got) == len(want)
        assert all(abs(a - b) < 0.06 for g, w in zip(got, want, strict=True)
                   for a, b in zip(g, w, strict=True))
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
def test_wide_equations_fit_or_scroll_where_the_keyboard_reaches(browser: Any, base_url: str,
                                                                 width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        fitted = scrolling = 0
        lessons = sorted(p.name for p in CONTENT.iterdir() if (p / "lesson.json").is_file())
        for lesson in lessons:
            page = context.new_page()
            page.goto(f"{base_url}lessons/{lesson}/", wait_until="load")
            for box in page.locator(".rlkl-equation").all():
                fits, focusable, labelled = box.evaluate(
                    "b => [b.scrollWidth <= b.clientWidth + 1, b.tabIndex === 0,"
                    " b.getAttribute('role') === 'region' && !!b.getAttribute('aria-label')]")
                if fits:
                    fitted += 1
                else:  # a scroll region the keyboard can reach, with a name
                    assert focusable and labelled, (lesson, width)
                    scrolling += 1
            page.close()
        assert fitted + scrolling > 0
        if width == 1280:
            assert scrolling == 0, f"{scrolling} equations still scroll at 1280 px"
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


PANEL_JS = SET_INPUTS + """\
  const svg = document.querySelector('svg.rlkl-plot');
  const top = +svg.dataset.pad, bottom = +svg.dataset.height - +svg.dataset.pad;
  const ys = [...svg.querySelectorAll('polyline')].flatMap(
    l => l.getAttribute('points').split(' ').map(p => +p.split(',')[1]));
  const shown = l => l.getAttribute('visibility') !== 'hidden';
  return {inside: ys.every(y => y >= top - 0.1 && y <= bottom + 0.1),
          tag: svg.querySelector('.rlkl-sample-label').textContent,
          labels: [...svg.querySelectorAll('.rlkl-label-pos, .rlkl-label-neg')]
                    .filter(shown).map(l => l.textContent),
          border: getComputedStyle(form.elements.namedItem('ratio')).borderTopWidth};
}
"""


def test_the_ppo_panel_keeps_its_curves_and_labels_true(visit: Any) -> None:
    """The reviewer's cases: Â = 10 keeps the curves on the chart, ρ = 3 labels the sample
    with its own value (the table's −6, off the chart to the right), Â = 0 labels the flat
    curve A = 0, and the number boxes have a visible border."""
    v = visit("lessons/ppo-clipped-objective/")
    big = v.page.evaluate(PANEL_JS, [1.4, 10, 0.2])
    assert big["inside"] and big["labels"] == ["A = +10", "A = \u221210"]
    far = v.page.evaluate(PANEL_JS, [3, -2, 0.2])
    assert far["inside"] and far["tag"] == "(3, \u22126) \u2192"
    flat = v.page.evaluate(PANEL_JS, [0.5, 0, 0.2])
    assert flat["labels"] == ["A = 0"] and flat["tag"] == "(0.5, 0)"
    assert float(big["border"].removesuffix("px")) >= 1
    v.clean()
