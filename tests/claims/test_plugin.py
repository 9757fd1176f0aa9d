"""The pytest plugin, driven through pytester the way a user runs it."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.claims.helpers import CONTENT, SEED

pytest_plugins = ["pytester"]


@pytest.fixture
def corpus(pytester: pytest.Pytester) -> pytest.Pytester:
    root = pytester.path / "content"
    root.mkdir()
    shutil.copy(CONTENT / "catalog.json", root / "catalog.json")
    shutil.copytree(CONTENT / SEED, root / SEED)
    return pytester


def _claims() -> list[str]:
    fixture = json.loads((CONTENT / SEED / "fixtures.json").read_text(encoding="utf-8"))
    return [c["id"] for c in fixture["claims"]]


def test_one_item_per_claim_with_readable_ids(corpus: pytest.Pytester) -> None:
    result = corpus.runpytest("content", "--collect-only", "-q", "-p", "no:cacheprovider")
    lines = [line for line in result.outlines if "fixtures.json::" in line]
    assert len(lines) == len(_claims()) + 1
    assert f"content/{SEED}/fixtures.json::ppo-ratio.ratio@/engineeringExample" in lines


def test_all_claims_pass(corpus: pytest.Pytester) -> None:
    corpus.runpytest("content", "-p", "no:cacheprovider").assert_outcomes(passed=len(_claims()) + 1)


def test_failure_message_shows_expected_computed_and_precision(corpus: pytest.Pytester) -> None:
    lesson = corpus.path / "content" / SEED / "lesson.json"
    lesson.write_text(
        lesson.read_text(encoding="utf-8").replace("ratio is 1.4", "ratio is 1.5", 1),
        encoding="utf-8",
    )
    result = corpus.runpytest("content", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, passed=len(_claims()))
    result.stdout.fnmatch_lines(
        [
            "*claim ppo-ratio.ratio@/engineeringExample*",
            "prose says 1.5 (1 decimal written)*",
            "expected (computed): ratio = ppo_ratio_from_probs(p_new, p_old) -> 1.4",
        ]
    )


def test_works_under_xdist(corpus: pytest.Pytester) -> None:
    corpus.runpytest("content", "-n", "2", "-p", "no:cacheprovider").assert_outcomes(
        passed=len(_claims()) + 1
    )


def test_update_option_rewrites_fixtures_like_regen(corpus: pytest.Pytester) -> None:
    fixture = corpus.path / "content" / SEED / "fixtures.json"
    good = fixture.read_text(encoding="utf-8")
    fixture.write_text(good.replace('"computed": 1.4', '"computed": 1.5', 1), encoding="utf-8")
    corpus.runpytest("content", "-p", "no:cacheprovider").assert_outcomes(
        failed=1, passed=len(_claims())
    )
    result = corpus.runpytest("content", "-n", "2", "--rlkl-update", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["rlkl: 1 fixtures updated, 0 unchanged, 0 removed"])
    assert fixture.read_text(encoding="utf-8") == good
    corpus.runpytest("content", "-p", "no:cacheprovider").assert_outcomes(passed=len(_claims()) + 1)


def test_lesson_without_fixtures_is_not_skipped(corpus: pytest.Pytester) -> None:
    (corpus.path / "content" / SEED / "fixtures.json").unlink()
    result = corpus.runpytest("content", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*RLKL501 no fixtures for this lesson's*"])


def test_update_writes_only_below_the_content_folders(corpus: pytest.Pytester) -> None:
    elsewhere = corpus.path / "tests" / "data" / SEED
    shutil.copytree(CONTENT / SEED, elsewhere)
    (elsewhere / "fixtures.json").unlink()
    (corpus.path / "content" / SEED / "fixtures.json").unlink()
    corpus.runpytest("--rlkl-update", "-p", "no:cacheprovider", "--co")
    assert (corpus.path / "content" / SEED / "fixtures.json").is_file()
    assert not (elsewhere / "fixtures.json").exists()


def test_lesson_item_reports_unaccounted_numbers(corpus: pytest.Pytester) -> None:
    lesson = corpus.path / "content" / SEED / "lesson.json"
    text = lesson.read_text(encoding="utf-8")
    lesson.write_text(
        text.replace("PPO is worked here only.", "PPO is worked 3 times.", 1), encoding="utf-8"
    )
    result = corpus.runpytest("content", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, passed=len(_claims()))
    result.stdout.fnmatch_lines(["*/description RLKL410 the number 3*"])


def test_a_broken_claims_yaml_is_said_once_and_update_says_what_it_kept(
    corpus: pytest.Pytester,
) -> None:
    """Each claim item names the cause (it said "no longer in the lesson; run rlkl regen",
    which writes nothing for such a lesson), and --rlkl-update says it kept the fixtures."""
    bindings = corpus.path / "content" / SEED / "claims.yaml"
    text = bindings.read_text(encoding="utf-8")
    bindings.write_text(text.replace(
        "reason: \"Size of the upstream lab's decoder; rlkl.core has no decoder to recompute "
        "it from.\"", 'reason: "short"'), encoding="utf-8")
    result = corpus.runpytest("content", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=len(_claims()) + 1)
    result.stdout.fnmatch_lines(["*is not checked: the lesson's claims.yaml has errors*"])
    assert "orphaned fixture" not in result.stdout.str()
    result = corpus.runpytest("content", "--rlkl-update", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["rlkl: not updated: *lesson.json: its claims.yaml has errors*"])


def _two_faults(corpus: pytest.Pytester) -> None:
    """A wrong computed number (claim ppo-ratio.ratio) and a number nothing accounts for."""
    lesson = corpus.path / "content" / SEED / "lesson.json"
    text = lesson.read_text(encoding="utf-8").replace("ratio is 1.4", "ratio is 1.5", 1)
    lesson.write_text(text.replace("PPO is worked here only.", "PPO is worked 3 times.", 1),
                      encoding="utf-8")


def test_one_item_per_lesson_on_request(corpus: pytest.Pytester) -> None:
    collected = corpus.runpytest("content", "--co", "-q", "--rlkl-items=lesson",
                                 "-p", "no:cacheprovider")
    assert [line for line in collected.outlines if "::" in line] == [
        f"content/{SEED}/fixtures.json::lesson"]
    corpus.runpytest("content", "--rlkl-items=lesson", "-p", "no:cacheprovider").assert_outcomes(
        passed=1)


def test_a_lesson_item_fails_with_every_failing_claim_located(corpus: pytest.Pytester) -> None:
    """The one item says what the claim items and the lesson item would say, each failing
    claim at the line and column of its number, as `rlkl check` locates it."""
    _two_faults(corpus)
    per_claim = corpus.runpytest("content", "-p", "no:cacheprovider", "-rf")
    per_claim.assert_outcomes(failed=2, passed=len(_claims()) - 1)
    # -rN: no short summary (under CI=true it repeats each failure's message)
    result = corpus.runpytest("content", "--rlkl-items=lesson", "-p", "no:cacheprovider", "-rN")
    result.assert_outcomes(failed=1)
    check = corpus.run("rlkl", "check", "content")
    [located] = [line.split(" ")[0] for line in check.outlines if " RLKL401 " in line]
    result.stdout.fnmatch_lines([
        f"{located} /engineeringExample claim ppo-ratio.ratio@/engineeringExample: "
        "prose says 1.5 (1 decimal written)*",
        "expected (computed): ratio = ppo_ratio_from_probs(p_new, p_old) -> 1.4",
        "*/description RLKL410 the number 3*",
    ])
    assert result.stdout.str().count("prose says 1.5") == 1  # not again as a diagnostic


def test_the_ini_option_chooses_items_and_refuses_a_wrong_value(corpus: pytest.Pytester) -> None:
    corpus.makeini("[pytest]\nrlkl_items = lesson\n")
    corpus.runpytest("content", "-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert corpus.runpytest("content", "--rlkl-items=claim", "-p", "no:cacheprovider").ret == 0
    corpus.makeini("[pytest]\nrlkl_items = lessons\n")
    result = corpus.runpytest("content", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*rlkl_items = 'lessons': write 'claim' or 'lesson'*"])
