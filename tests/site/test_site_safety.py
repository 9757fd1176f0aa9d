"""Lesson text is data, never markup: hostile lessons publish as text and nothing runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import Markup

from rlkl.site.build import SiteError
from rlkl.site.html import href, marked
from rlkl.site.lesson import TOKEN, hold_back, put_back
from rlkl.site.mathml import MathError, to_mathml
from rlkl.site.records import Mark
from tests.site.helpers import HOSTILE, HOSTILE_URL, build, hostile_corpus, hostile_lesson, page


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("hostile")
    return build(tmp, hostile_corpus(tmp))


def _scripts(site: Path, uri: str) -> list[dict[str, str | None]]:
    return page(site, uri).all("script")


def test_markup_in_every_field_is_shown_literally(hostile_site: Path) -> None:
    html = page(hostile_site, "lessons/hostile-lesson")
    # every text field holds HOSTILE; at least one copy per field reaches the page as text
    assert html.visible.count(HOSTILE) >= 30
    assert not html.all("img") and not html.all("b")
    for tag, attrs in html.elements:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith("javascript:"), (tag, attrs)


def test_no_script_is_added_by_a_lesson(hostile_site: Path) -> None:
    ours = [a.get("src") for a in _scripts(hostile_site, "lessons/hostile-lesson")]
    home = [a.get("src") for a in _scripts(hostile_site, "")]
    assert len(ours) == len(home)
    assert all(src is None or "alert" not in src for src in ours)
    html = page(hostile_site, "lessons/hostile-lesson")
    assert not any("alert" in script for script in html.scripts)
    assert not html.all("img")
    raw = (hostile_site / "lessons/hostile-lesson/index.html").read_text("utf-8")
    title = raw[raw.index("<title>") : raw.index("</title>")]
    assert "<script" not in title[len("<title>"):]  # kept escaped in the source as well


def test_markdown_in_lesson_text_is_not_rendered(hostile_site: Path) -> None:
    raw = (hostile_site / "lessons/hostile-lesson/index.html").read_text("utf-8")
    assert "<strong>bold</strong>" not in raw and "<em>em</em>" not in raw
    assert "<code>code</code>" not in raw and "**bold**" in raw


def test_catalog_report_and_navigation_escape_titles(hostile_site: Path) -> None:
    for uri in ("lessons", "report", "lessons/hostile-lesson", ""):
        html = page(hostile_site, uri)
        assert not html.all("img") and not html.all("b"), uri
        assert not any("alert" in script for script in html.scripts), uri
        assert not uri or "<script>alert(document.cookie)</script>" in html.visible, uri
    assert HOSTILE in page(hostile_site, "lessons").visible
    assert "Hostile " + HOSTILE in page(hostile_site, "lessons/hostile-lesson").visible


def test_a_hostile_url_is_an_escaped_attribute(hostile_site: Path) -> None:
    html = page(hostile_site, "lessons/hostile-lesson")
    assert HOSTILE_URL in [a.get("href") for a in html.all("a")]


def test_an_equation_with_markup_fails_the_build_located(tmp_path: Path) -> None:
    lesson = hostile_lesson()
    lesson["science"][0]["equation"] = r"\text{<script>alert(document.cookie)</script>}"
    with pytest.raises(SiteError) as error:
        build(tmp_path, hostile_corpus(tmp_path, lesson))
    messages = "\n".join(error.value.messages)
    assert re.search(r"hostile-lesson/lesson\.json:\d+:\d+ /science/0/equation RLKL701", messages)


def test_marks_escape_text_and_attributes() -> None:
    text = 'a <b>"1.4"</b> & 2'
    out = marked(text, [Mark(6, 9, "1.4", "verified", 'computed "1.4" <i>x</i> & y')])
    assert isinstance(out, Markup)
    assert out == (
        'a &lt;b&gt;&#34;<span class="rlkl-num rlkl-verified" tabindex="0" '
        'data-detail="computed &#34;1.4&#34; &lt;i&gt;x&lt;/i&gt; &amp; y">'
        "1.4</span>"
        "&#34;&lt;/b&gt; &amp; 2"
    )


@pytest.mark.parametrize(
    ("written", "html"),
    [
        ("π_ref and Â_t", "π<sub>ref</sub> and Â<sub>t</sub>"),
        ("V_{t+1} − V(s_t)", "V<sub>t+1</sub> − V(s<sub>t</sub>)"),
        # identifiers and anything else with an underscore stay as written
        ("dpo_loss, n_steps, ignore_index=-100, a_b_c",
         "dpo_loss, n_steps, ignore_index=-100, a_b_c"),
        # the subscript is text like any other: escaped
        ("x_{<b>} & y_<i>", "x<sub>&lt;b&gt;</sub> &amp; y_&lt;i&gt;"),
    ],
)
def test_symbols_in_prose_get_their_subscripts_and_nothing_else_changes(
    written: str, html: str
) -> None:
    assert marked(written, []) == html


def test_a_subscript_beside_a_marked_number_keeps_the_mark() -> None:
    out = marked("r_w = 1.5", [Mark(6, 9, "1.5", "input", "d")])
    assert str(out).startswith("r<sub>w</sub> = <span class=\"rlkl-num rlkl-input\"")


def test_a_mark_that_does_not_fit_the_text_is_plain_text() -> None:
    assert marked("x 1.4", [Mark(2, 5, "1.5", "verified", "d")]) == "x 1.4"


@pytest.mark.parametrize("url", ["javascript:alert(document.cookie)", "data:text/html,x",
                                 "//evil.example", "ftp://x.example/y", " JAVASCRIPT:x"])
def test_only_absolute_http_links_become_hrefs(url: str) -> None:
    assert href(url) is None
    assert href("https://arxiv.org/abs/1707.06347") == "https://arxiv.org/abs/1707.06347"


def test_mathml_keeps_only_mathml() -> None:
    assert "href" not in to_mathml(r"\href{javascript:alert(document.cookie)}{x}")
    with pytest.raises(MathError, match="script"):
        to_mathml(r"\text{<script>alert(document.cookie)</script>}")
    with pytest.raises(MathError):
        to_mathml(r"\unknowncommand{x}")
    assert "<mtext>&lt;b&gt;</mtext>" in to_mathml(r"\text{&lt;b&gt;}")


def test_an_equation_is_cut_where_it_may_wrap_and_nowhere_else() -> None:
    """At a top-level \\quad (between relations) and after a top-level = (between the sides
    of one); never inside braces or \\left … \\right, and never in a word like \\quadratic."""
    from rlkl.site.lesson import equation_html
    from rlkl.site.mathml import relations, sides

    assert relations(r"a=b,\quad c=\frac{d}{e}\qquad f") == ["a=b,", r"c=\frac{d}{e}", "f"]
    assert relations(r"\left(a\quad b\right)\quad c") == [r"\left(a\quad b\right)", "c"]
    assert relations(r"x^{\quad}\quadratic") == [r"x^{\quad}\quadratic"]
    assert sides(r"A=r-\frac{1}{k}=\frac{k}{k-1}") == ["A=", r"r-\frac{1}{k}=", r"\frac{k}{k-1}"]
    assert sides(r"f\left(a=b\right)=c") == [r"f\left(a=b\right)=", "c"]
    assert sides("y_{i=1}") == ["y_{i=1}"]
    html = str(equation_html(r"a=b,\quad c"))
    assert html.count('class="rlkl-relation"') == 2 and html.count('class="rlkl-side"') == 3
    assert str(equation_html("x+1")).startswith("<math")  # nothing to cut: one block


def test_notation_the_author_marks_is_inline_math_and_nothing_else() -> None:
    r"""\( … \) in prose is set as inline MathML, through the equations' sanitiser: markup in
    it is never published; notation the converter refuses stays text; around it the prose
    is escaped as always. A marked number splits the notation, which then stays text."""
    from rlkl.site.html import marked, prose

    out = str(prose(r"the ratio \(\pi_\theta/\pi_{old}\) & <b>bold</b>"))
    assert '<math display="inline"' in out and "<msub><mi>π</mi><mi>θ</mi></msub>" in out
    assert "&amp; &lt;b&gt;bold&lt;/b&gt;" in out and "\\(" not in out
    hostile = str(prose(r"\(\text{<script>alert(1)</script>}\)"))
    assert "<script" not in hostile
    assert str(prose(r"\(\frac{1}\)")).count("<math") <= 1  # refused or rendered, never raw
    with_number = str(marked(r"\(x^2\) then \(1.4 r\)", [Mark(15, 18, "1.4", "verified", "d")]))
    assert with_number.count("<math") == 1 and "\\(" in with_number  # the second stays text


def test_what_the_search_index_skips_is_held_back_and_put_back_byte_for_byte() -> None:
    """Of rlkl's blocks, each data-search-exclude element is held back whole (nested
    elements of its own tag included), and so are MathML and a marked number's tags; one
    holding a heading is left to the index (a heading starts a section even there); the
    page's other HTML is not touched."""
    blocks = [
        '<div class="a" data-search-exclude><div>one</div><p>two</p></div><p>kept</p>',
        '<table data-search-exclude><tr><td><math><mi>x</mi></math></td></tr></table>',
        '<div data-search-exclude><h3 id="h">Heading</h3><p data-search-exclude>x</p></div>',
        '<p>ratio <span class="rlkl-num" data-detail="d">1.4</span></p>',
    ]
    html = "".join(f"<p>{TOKEN}{i}</p>\n" for i in range(len(blocks)))
    html += '<div data-search-exclude><div>a page of its own</div></div>'
    held, parts = hold_back(html, blocks)
    for text in ("one", "two", "<math", 'data-detail="d"', ">x<"):
        assert text not in held
    for text in ("kept", "Heading", "ratio ", "1.4", "a page of its own"):
        assert text in held
    assert put_back(held, parts) == "".join(f"{b}\n" for b in blocks) + html.rsplit("\n", 1)[1]
