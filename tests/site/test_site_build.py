"""The built site: every lesson published from the check's records, nothing unverified."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from rlkl.check import check_paths
from rlkl.cli import main
from rlkl.core import CORE_VERSION
from rlkl.site.build import SiteError
from rlkl.site.records import check_site
from tests.site.helpers import CONFIG, CONTENT, ROOT, build, copy_content, page


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("built"))


@pytest.fixture(scope="module")
def check():  # type: ignore[no-untyped-def]
    return check_site(CONTENT)


def _status(span: dict[str, str | None]) -> str | None:
    """A marked number's status, as its class says it (``rlkl-num rlkl-verified``)."""
    classes = (span.get("class") or "").split()
    if "rlkl-num" not in classes:
        return None
    statuses = [c.removeprefix("rlkl-") for c in classes if c != "rlkl-num"]
    assert len(statuses) == 1, classes  # one status class, nothing else
    return statuses[0]


def test_one_page_per_lesson_with_every_number_marked_as_the_check_says(site, check) -> None:
    for record in check.records().values():
        html = page(site, f"lessons/{record.lesson.id}")
        spans = [a for a in html.all("span") if _status(a) is not None]
        expected = [m for marks in record.marks.values() for m in marks]
        assert sorted(_status(s) or "" for s in spans) == sorted(m.status for m in expected)
        assert {m.status for m in expected} <= {"verified", "input", "exempt"}
        for span in spans:  # a keyboard stop where the record says more than the number
            assert span.get("tabindex") == (None if _status(span) == "input" else "0")
            assert span["data-detail"]
        verified = [s for s in spans if _status(s) == "verified"]
        assert verified and all("checked" in (s["data-detail"] or "") for s in verified)


def test_exempt_numbers_show_their_reason(site, check) -> None:
    for record in check.records().values():
        html = page(site, f"lessons/{record.lesson.id}")
        exempt = [a for a in html.all("span") if _status(a) == "exempt"]
        reasons = {m.detail for ms in record.marks.values() for m in ms if m.status == "exempt"}
        assert {a["data-detail"] for a in exempt} == reasons
        assert all((r or "").startswith("exempt: ") and len(r) > 10 for r in reasons)


def test_equations_are_mathml_and_no_tex_is_visible(site, check) -> None:
    from rlkl.site.mathml import relations, sides

    for record in check.records().values():
        html = page(site, f"lessons/{record.lesson.id}")
        pieces = sum(len(sides(part)) for s in record.lesson.science
                     for part in relations(s.equation))  # one <math> per relation side
        assert len(html.all("math")) == pieces >= len(record.lesson.science)
        assert not re.search(r"\\[a-zA-Z]+", html.visible), "raw TeX on the page"
        assert "rlkl-held-" not in (site / "lessons" / record.lesson.id / "index.html").read_text(
            encoding="utf-8"), "held-back MathML or SVG not put back"


def test_the_search_index_holds_each_lessons_sections(site, check) -> None:
    """The index reads a page's content with its MathML and SVG held back: each lesson is
    still indexed section by section, with its text."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    for record in check.records().values():
        docs = [d for d in index["docs"]
                if d["location"].startswith(f"lessons/{record.lesson.id}/")]
        assert len(docs) > 5
        assert record.lesson.name.split()[0] in " ".join(d["text"] for d in docs)
        assert not any("rlkl-held" in d["text"] for d in docs)


def test_what_a_page_excludes_from_search_is_not_indexed(site, check) -> None:
    """A lesson's "change one variable" controls are marked data-search-exclude and sit in
    nested <div>s, which mkdocs-material's parser took for the end of the excluded one: the
    index held every control's name after the first. Only the section's heading is left."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    texts = {d["location"]: d["text"] for d in index["docs"]}
    for record in check.records().values():
        assert record.explorable is not None
        text = texts[f"lessons/{record.lesson.id}/#change-one-variable"]
        for control in record.explorable.controls:
            assert f"<code>{control.name}</code>" not in text, record.lesson.id
        assert "lesson's values" not in text


def test_the_page_follows_the_published_order(site) -> None:
    html = (site / "lessons/ppo-clipped-objective/index.html").read_text("utf-8")
    anchors = ["establishes", "mechanism", "symbols", "derivation", "change-one-variable",
               "example", "experiment", "limits", "check", "sources", "continue"]
    positions = [re.search(f'id="?{a}"?[ >]', html).start() for a in anchors]  # type: ignore[union-attr]
    assert positions == sorted(positions)


def test_every_lesson_page_has_its_controls_and_plot(site, check) -> None:
    """Each page with bindings has a range control per explorable input, disabled until the
    page's script runs (the prose shows the lesson's own values), and the data it reads;
    and every page has its plot."""
    for record in check.records().values():
        html = page(site, f"lessons/{record.lesson.id}")
        sliders = [a for a in html.all("input") if a.get("type") == "range"]
        assert record.explorable is not None and sliders, record.lesson.id
        assert len(sliders) == len(record.explorable.controls)
        assert all("disabled" in s for s in sliders)
        data = json.loads(next(s for s in html.scripts if s.startswith('{"knobs"')))
        assert [k["name"] for k in data["knobs"]] == [c.name for c in record.explorable.controls]
        plots = [a for a in html.all("svg") if a.get("class") == "rlkl-plot"]
        assert len(plots) == 1 and "plot" in data, record.lesson.id


def test_planned_lessons_are_shown_as_planned_never_as_links(site, check) -> None:
    planned = {c.title for c in check.catalog if c.status == "planned"}
    for uri in ["lessons", "lessons/ppo-clipped-objective"]:
        text = (site / uri / "index.html").read_text("utf-8")
        for match in re.finditer(r'<span class="?rlkl-planned"?>(.*?) <em>\(planned\)</em>', text):
            assert match.group(1) in planned
    catalog = page(site, "lessons").visible
    assert all(title in catalog for title in planned)
    ppo = (site / "lessons/ppo-clipped-objective/index.html").read_text("utf-8")
    assert "InstructGPT: change the training signal to change behavior <em>(planned)</em>" in ppo
    assert re.search(r'href="?\.\./policy-gradient-kl-control/"?[ >]', ppo)


def test_catalog_and_navigation_grouped_by_branch_and_sub_branch(site, check) -> None:
    catalog = page(site, "lessons")
    headings = [a.get("id") for a in catalog.all("h2")]
    branches = {r.lesson.branch for r in check.lessons}
    assert {f"branch-{b}" for b in branches} <= set(headings)
    nav = (site / "lessons/ppo-clipped-objective/index.html").read_text("utf-8")
    for record in check.records().values():
        assert (record.lesson.subbranch or "General") in nav


def test_home_page_and_catalog_list_the_lessons_in_learning_order(site, check) -> None:
    """The catalog's order is the learning path (each lesson after its prerequisites): the
    home page lists the published lessons in it, and so do the catalog page's groups."""
    published = {r.lesson.id for r in check.lessons}
    order = [c.id for c in check.catalog if c.id in published]
    home = (site / "index.html").read_text("utf-8")
    path = home[home.index("rlkl-path"):]
    linked = re.findall(r"href=\"?lessons/([a-z0-9-]+)/", path)
    assert linked == order
    guide = (site / "guide/publishing/index.html").read_text("utf-8")
    assert "rlkl-path" not in guide and "&lt;!-- rlkl:learning-path --" in guide  # quoted
    catalog = (site / "lessons/index.html").read_text("utf-8")
    listed = re.findall(r"<li><a href=\"?([a-z0-9-]+)/", catalog)
    assert [x for x in listed if x in published] == order
    # each entry says what a learner can change there: ppo-clipped-objective's 6 inputs
    marked = re.findall(r"lessons/([a-z0-9-]+)/\"?>[^<]*</a> <small>[^<]*</small> "
                        r"<small class=\"?rlkl-explorable\"?>· explorable: (\d+) inputs?"
                        r"( and a plot)?", path)
    assert {m[0] for m in marked} == published
    ppo = next(m for m in marked if m[0] == "ppo-clipped-objective")
    assert ppo[1:] == ("6", " and a plot")
    assert catalog.count("rlkl-explorable") == len(published)


def test_every_internal_link_and_asset_resolves_and_nothing_is_remote(site) -> None:
    for html_file in site.rglob("*.html"):
        parsed = page(html_file.parent, "") if html_file.name == "index.html" else None
        if parsed is None:
            continue
        for tag, attribute in (("a", "href"), ("link", "href"), ("script", "src"), ("img", "src")):
            for attrs in parsed.all(tag):
                target = attrs.get(attribute)
                if not target:
                    continue
                parts = urlsplit(target)
                if parts.scheme or parts.netloc:
                    assert tag == "a", f"{html_file}: {tag} loads {target}"
                    assert parts.scheme in ("http", "https")
                    continue
                path = (html_file.parent / parts.path).resolve() if parts.path else html_file
                if path.is_dir():
                    path = path / "index.html"
                assert path.exists(), f"{html_file}: broken link {target}"
                if parts.fragment and path.suffix == ".html":
                    found = re.search(f'id="?{re.escape(parts.fragment)}"?[ >]',
                                      path.read_text("utf-8"))
                    assert found, target
    css = "".join(p.read_text("utf-8") for p in site.rglob("*.css"))
    assert "fonts.googleapis" not in css and "@import url(http" not in css


def test_report_lists_every_claim_with_status_and_core_version(site, check) -> None:
    report = page(site, "report")
    captions = re.findall(r"<caption>(\d+) (\w+)", (site / "report/index.html").read_text("utf-8"))
    assert sum(int(n) for n, _ in captions) == check.summary["claims"] == len(check.claims)
    assert {status for _, status in captions} == {"verified"}
    tables = [a for a in report.all("table") if "rlkl-claims" in (a.get("class") or "")]
    assert len(tables) == len(check.lessons)
    assert all(a["class"] == "rlkl-claims rlkl-row-verified" for a in tables)
    cells = report.visible
    assert all(f"{c.pointer} {c.line}:{c.column}" in cells and c.name in cells
               for c in check.claims)
    assert check.core_version == CORE_VERSION
    assert f"core version {CORE_VERSION}" in report.visible
    assert f"(core version {CORE_VERSION})" in page(site, "lessons/ppo-clipped-objective").visible


def test_a_claims_status_is_its_change_record_as_rlkl_check_judges_it(tmp_path: Path) -> None:
    """Drift and stale fixtures reach the report and the page as the changes records say."""
    content = copy_content(tmp_path)
    path = content / "ppo-clipped-objective" / "fixtures.json"
    fixtures = json.loads(path.read_text("utf-8"))
    drifted, stale = fixtures["claims"][0], fixtures["claims"][1]
    drifted["computed"] = drifted["computed"] + 1.0
    stale["quote"] = "words the lesson no longer has"
    path.write_text(json.dumps(fixtures, indent=2) + "\n", "utf-8")
    site = check_site(content)
    truth = {(report.id, c.id): c.status.value for report in check_paths([content]).reports
             for c in report.changes if c.subject == "claim"}
    lesson = "ppo-clipped-objective"
    assert truth[lesson, drifted["id"]] == "drift" and truth[lesson, stale["id"]] == "stale"
    assert {(r.lesson, r.claim): r.status for r in site.claims} == truth
    assert site.errors > 0 and "RLKL504" in site.report
    record = site.records([lesson])[lesson]
    marks = {(pointer, m.start): m for pointer, ms in record.marks.items() for m in ms}
    assert marks[(drifted["pointer"], drifted["span"][0])].status == "drift"
    assert marks[(stale["pointer"], stale["span"][0])].status == "stale"
    assert record.verified == len(fixtures["claims"]) - 2


def test_cli_reference_is_the_click_help(site) -> None:
    from rlkl.cli.reference import reference

    text = page(site, "reference/cli").visible
    for block in re.findall(r"```text\n(.*?)\n```", reference(), re.S):
        assert " ".join(block.split()) in " ".join(text.split())


def test_schema_reference_lists_every_field(site) -> None:
    text = page(site, "reference/schema").visible
    for path in sorted((ROOT / "schema").glob("*.schema.json")):
        schema = json.loads(path.read_text("utf-8"))
        assert path.name in text
        for spec in [schema, *(schema.get("$defs") or {}).values()]:
            for field in spec.get("properties", {}):
                assert field in text, (path.name, field)


def test_experiment_page_has_table_plot_and_command(site) -> None:
    html = page(site, "experiment")
    assert any((a.get("src") or "").endswith("plot.png") for a in html.all("img"))
    assert "rlkl experiment --seeds" in html.visible and "ppo_clip" in html.visible
    assert (site / "experiment" / "plot.png").stat().st_size > 1000


def test_each_lesson_designs_its_own_experiment_and_only_ppo_links_the_matched_budget_one(
    site, check
) -> None:
    from rlkl.site.experiment import LESSONS

    for record in check.records().values():
        lesson = record.lesson
        html = page(site, f"lessons/{lesson.id}")
        linked = "The matched-budget experiment and how to rerun it" in html.visible
        assert linked == (lesson.id in LESSONS), lesson.id
        if lesson.id not in LESSONS:
            assert lesson.experiment is not None, f"{lesson.id} has no experiment of its own"
            raw = (site / "lessons" / lesson.id / "index.html").read_text("utf-8")
            section = raw[raw.index("id=experiment"):][:4000]
            from rlkl.site.html import prose

            first_words = " ".join(lesson.experiment.design.split()[:2])
            assert str(prose(first_words)) in section, lesson.id  # as the page sets symbols


def test_each_lesson_shows_the_python_that_recomputes_its_numbers(site, check) -> None:
    for record in check.records().values():
        html = page(site, f"lessons/{record.lesson.id}")
        codes = [c for c in html.all("code") if "language-python" in (c.get("class") or "")]
        assert len(codes) == 2 and record.script, record.lesson.id  # the script, the function
        assert "from rlkl.core import" in html.visible


def test_a_wrong_number_fails_the_build_with_the_located_diagnostic(tmp_path: Path) -> None:
    content = copy_content(tmp_path)
    lesson = content / "ppo-clipped-objective" / "lesson.json"
    text = lesson.read_text("utf-8")
    lesson.write_text(text.replace("the ratio is 1.4 and", "the ratio is 1.5 and"), "utf-8")
    with pytest.raises(SiteError) as error:
        build(tmp_path, content)
    messages = "\n".join(error.value.messages)
    assert re.search(r"ppo-clipped-objective/lesson\.json:\d+:\d+ /engineeringExample RLKL401",
                     messages)
    assert not (tmp_path / "site" / "lessons").exists()


def test_cli_builds_and_fails_with_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(main, ["site", "build", "--config", str(CONFIG),
                              "--out", str(tmp_path / "ok")])
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "ok" / "lessons" / "ppo-clipped-objective" / "index.html").is_file()
    content = copy_content(tmp_path)
    (content / "kl-direction-estimators" / "fixtures.json").unlink()
    bad = runner.invoke(main, ["site", "build", "--config", str(CONFIG), "--content",
                               str(content), "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 1
    assert "RLKL501" in bad.output and "kl-direction-estimators/lesson.json" in bad.output
    missing = runner.invoke(main, ["site", "build", "--config", str(tmp_path / "nope.yml")])
    assert missing.exit_code == 2
    plain = tmp_path / "plain.yml"
    plain.write_text("site_name: plain\ndocs_dir: docs\n", "utf-8")
    (tmp_path / "docs").mkdir()
    unplugged = runner.invoke(main, ["site", "build", "--config", str(plain)])
    assert unplugged.exit_code == 1 and "does not use the rlkl plugin" in unplugged.output


def test_serve_builds_and_serves_the_site(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-c", "from rlkl.cli import main; main()", "site", "serve",
         "--config", str(CONFIG), "--dev-addr", f"127.0.0.1:{port}"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                url = f"http://127.0.0.1:{port}/lessons/ppo-clipped-objective/"
                with urllib.request.urlopen(url, timeout=5) as response:
                    body = response.read().decode("utf-8")
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "rlkl site serve did not answer"
                time.sleep(0.5)
        assert "rlkl-num rlkl-verified" in body
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_records_converted_in_worker_processes_are_the_serial_ones(
    check, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large corpus is checked across processes; each page's records are built where its
    lesson was checked, and they are exactly what one process builds."""
    from rlkl import check as engine
    from rlkl import pool

    pools = []

    def spy(function, paths, jobs):  # type: ignore[no-untyped-def]
        pools.append(jobs)
        return real(function, paths, jobs)

    real = engine.map_paths
    monkeypatch.setattr(engine, "map_paths", spy)
    monkeypatch.setattr(pool, "POOL_MIN_LESSONS", 1)
    pooled = check_site(CONTENT, jobs=2)
    assert pools == [2]
    assert pooled == check


@pytest.mark.parametrize(("command", "processes"), [("build", True), ("serve", False)])
def test_only_a_batch_build_checks_in_processes(command: str, processes: bool) -> None:
    """`mkdocs build` and `rlkl site build` may fork workers; `serve` never does (its
    rebuilds run beside the server's threads)."""
    import os

    from rlkl.site.plugin import RlklPlugin

    plugin = RlklPlugin()
    plugin.load_config({}, config_file_path=str(CONFIG))
    plugin.on_startup(command=command, dirty=False)
    assert plugin.jobs == ((os.cpu_count() or 1) if processes else 1)
    plugin.on_serve(type("Server", (), {"watch": lambda self, path: None})(),
                    config=type("Config", (), {"config_file_path": "site/mkdocs.yml"})(),
                    builder=None)
    assert plugin.jobs == 1


def test_a_rebuild_reads_the_explorable_examples_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check
) -> None:
    """The knobs and plots (every point of every input's range, up to a second a lesson)
    are computed once per lesson content: a rebuild reads them from the cache, and after
    one lesson changes only that lesson's are computed again."""
    from rlkl.cache import Cache
    from rlkl.site import records

    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    cache = Cache(tmp_path / "cache")
    first = check_site(content, cache=cache)
    computed: list[str] = []
    explored = records.explored

    def spy(report):  # type: ignore[no-untyped-def]
        computed.append(report.id)
        return explored(report)

    monkeypatch.setattr(records, "explored", spy)
    again = check_site(content, cache=cache)
    assert computed == []
    assert again.lessons == first.lessons
    assert again.records() == first.records() and computed == []
    lesson = content / "ppo-clipped-objective" / "lesson.json"
    text = lesson.read_text("utf-8")
    assert '"engineeringExample": "' in text
    lesson.write_text(text.replace('"engineeringExample": "', '"engineeringExample": "Worked: ',
                                   1), "utf-8")  # every number of the example moves along
    check_site(content, cache=cache)
    assert computed == ["ppo-clipped-objective"]


def test_each_lesson_shows_the_core_function_behind_its_numbers(site, check) -> None:
    """The code panel holds the installed rlkl.core function's own source (docstring
    included): PPO's pages show ppo_clip_objective, whose plot they draw."""
    import inspect

    from rlkl import core

    for record in check.records().values():
        assert record.core is not None, record.lesson.id
        name, source = record.core
        assert source == inspect.getsource(getattr(core, name)), name
        html = (site / "lessons" / record.lesson.id / "index.html").read_text("utf-8")
        assert f"def {name}(" in html and "rlkl.core function behind these numbers" in html
    ppo = check.records(["ppo-clipped-objective"])["ppo-clipped-objective"]
    assert ppo.core is not None and ppo.core[0] == "ppo_clip_objective"


def test_pinned_constants_are_checked_but_not_marked(check) -> None:
    """The 1 of r − 1 (exempt with `equals:`) and the inputs explore: keeps fixed are
    left as plain text; every other number of the prose carries its mark."""
    reports = {r.id: r for r in check_paths([CONTENT]).reports}
    unmarked_total = 0
    for record in check.records().values():
        report = reports[record.lesson.id]
        fixed = {f"input {r.name}" for r in report.explore if r.fixed}
        marked = {(p, m.start) for p, ms in record.marks.items() for m in ms}
        for number in report.numbers:
            constant = number.pinned or number.role in fixed
            assert ((number.pointer, number.start) in marked) != constant, (
                record.lesson.id, number.pointer, number.text, number.role)
            unmarked_total += constant
    assert unmarked_total >= 10  # the shipped lessons pin a dozen constants
