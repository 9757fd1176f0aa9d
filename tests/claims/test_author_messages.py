"""Messages an author reads once (issue 9, item 6): each case an author met in a new lesson."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl.claims.bindings.model import Template
from rlkl.claims.records import Located
from rlkl.claims.templates import slots
from rlkl.cli import main
from rlkl.diagnostics import brief
from rlkl.regen import regen_paths
from tests.claims.helpers import SEED, Workspace

TRADEOFF = "A clipped objective does not replace measured policy drift."
KL_DIRECTIONS = "kl-direction-estimators"


def _codes(space: Workspace, lesson: str = SEED) -> list[str]:
    return [d.code for d in space.check(lesson).diagnostics]


def test_a_brace_right_after_a_slot_closes_the_slot() -> None:
    template = Template("γV_{t+{one}}", (), Located("", 1, 1))
    assert template.slots == [("one", "number")]
    assert slots.pieces("V_{t+{k}} is {v}}") == ("V_{t+", slots.Slot("k", "number"), "} is ",
                                                  slots.Slot("v", "number"), "}")


def test_an_exemption_of_index_notation_says_it_matches_no_number(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit(TRADEOFF, TRADEOFF + " The target bootstraps from γV_{t+1}.")
    bindings = space.read(name="claims.yaml") + (
        '  - in: /tradeoff\n    says: "γV_{t+{one}}"\n    reason: "the index of the next step"\n'
    )
    space.path(name="claims.yaml").write_text(bindings, encoding="utf-8")
    diagnostics = space.check().diagnostics
    codes = [d.code for d in diagnostics]
    assert "RLKL607" in codes and "RLKL503" not in codes and "RLKL614" not in codes
    assert any("slot {one} did not match one number" in d.message for d in diagnostics)


def test_index_notation_is_not_a_numeric_claim(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit(TRADEOFF, TRADEOFF + " The target bootstraps from V_{t+1} at step t+1 (or t−1).")
    assert "RLKL410" not in _codes(space)


def test_a_changed_input_is_never_reported_as_core_drift(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("For advantage −2 and ratio 1.4, what", "For advantage −3 and ratio 1.4, what")
    codes = _codes(space)
    assert "RLKL406" in codes  # the root cause: the keyed option no longer states the answer
    assert "RLKL504" not in codes


def test_consequences_of_one_wrong_digit_are_one_summary_line(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("For advantage −2 and ratio 1.4, what", "For advantage −3 and ratio 1.4, what")
    stale = [d for d in space.check().diagnostics if d.code == "RLKL502"]
    assert len(stale) <= 1
    assert all("because of the errors above" in d.message for d in stale)


def test_a_failing_claim_shows_the_expression_and_list_inputs_apart(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path, KL_DIRECTIONS)
    space.edit("0.022582 is the reversed", "0.022583 is the reversed", lesson=KL_DIRECTIONS)
    [message] = [d.message for d in space.check(KL_DIRECTIONS).diagnostics if d.code == "RLKL401"]
    assert "kl_divergence(quiz_new, p_old)" in message
    assert "quiz_new = [" in message and "p_old = [" in message
    assert "kl_divergence([" not in message


def test_a_unit_belongs_to_its_mention(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("is 0.082283 nats", "is 0.118709 bits")  # the first of two places; both true
    codes = _codes(space)
    assert "RLKL401" not in codes and "RLKL404" not in codes and "RLKL420" not in codes


DECODER = '"The executable decoder has {decoder_parameters} parameters"'


def test_an_exemption_with_a_new_sentence_is_one_change_not_an_orphan(tmp_path: Path) -> None:
    """The exempt number is still there, so it is not "no longer in the lesson": one RLKL502
    that names what changed."""
    space = Workspace.copy(tmp_path)
    space.edit(DECODER, '"decoder has {decoder_parameters} parameters"', name="claims.yaml")
    found = [(d.code, d.message) for d in space.check().diagnostics]
    assert found == [("RLKL502", "stale fixtures: exempt number 423 changed (quote); review "
                                 "it, then run `rlkl regen`")]


def test_two_number_slots_with_nothing_between_them_are_one_error(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit(DECODER, '"decoder has {a}{b}{c} parameters"', name="claims.yaml")
    [found] = space.check().diagnostics
    assert (found.code, found.pointer) == ("RLKL621", "/exempt/0/says")
    assert found.message.startswith("{a}{b}, {b}{c} in 'decoder has {a}{b}{c} parameters': "
                                    "two number slots with nothing between them")


def test_a_number_slot_may_touch_a_unit_or_a_list_slot(tmp_path: Path) -> None:
    """Where a number ends and a unit or a list begins is no guess (they start with a letter
    or "["): only two number slots need text between them."""
    space = Workspace.copy(tmp_path)
    space.edit(DECODER, '"decoder has {n}{u:unit}{l:list}{m} parameters"', name="claims.yaml")
    assert "RLKL621" not in _codes(space)


def _exempt_twice(space: Workspace) -> None:
    """Two exempt 0.5 in one field, recorded in the fixtures."""
    space.edit(TRADEOFF, TRADEOFF + " First 0.5 here. Second 0.5 there.")
    bindings = space.read(name="claims.yaml") + (
        '  - in: /tradeoff\n    says: "First {x} here"\n    reason: "the first example number"\n'
        '  - in: /tradeoff\n    says: "Second {x} there"\n    reason: "the second example number"\n'
    )
    space.path(name="claims.yaml").write_text(bindings, encoding="utf-8")
    regen_paths([space.root / SEED])


def test_a_changed_exemption_is_paired_with_its_own_record(tmp_path: Path) -> None:
    """The first sentence goes, the second's reason changes: the second is "changed
    (reason)", and the orphan is the first's record, not the other way round."""
    space = Workspace.copy(tmp_path)
    _exempt_twice(space)
    space.edit(" First 0.5 here.", "")
    space.edit('  - in: /tradeoff\n    says: "First {x} here"\n'
               '    reason: "the first example number"\n', "",
               name="claims.yaml")
    space.edit('"the second example number"', '"the second one, reworded"', name="claims.yaml")
    found = {(d.code, d.message.split(";")[0]) for d in space.check().diagnostics}
    assert ("RLKL502", "stale fixtures: exempt number 0.5 changed (reason)") in found
    orphans = [d for d in space.check().diagnostics if d.code == "RLKL503"]
    assert [d.pointer for d in orphans] == ["/exempt/1"]  # the record of "First 0.5 here"


def test_a_message_shows_a_very_long_number_by_its_ends(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit(TRADEOFF, TRADEOFF + " Seed " + "7" * 3000 + ".")
    [found] = [d for d in space.check().diagnostics if d.code == "RLKL410"]
    assert "7777777777…7777777777 (3,000 characters)" in found.message
    assert len(found.message) < 300


def test_a_long_number_is_kept_as_written_where_it_is_recorded(tmp_path: Path) -> None:
    """Only messages are brief: a failing claim's message quotes the long number by its ends,
    while the fixture records the quote and the number as the lesson writes them."""
    space = Workspace.copy(tmp_path)
    long = "1.5" + "0" * 2990 + "1"
    space.edit("ratio is 1.4.", f"ratio is {long}.")
    [found] = [d for d in space.check().diagnostics if d.code == "RLKL401"]
    assert len(found.message) < 400 and "1.50000000…0000000001 (2,994 characters)" in found.message
    regen_paths([space.root / SEED])
    recorded = space.read(name="fixtures.json")
    assert long in recorded and "…" not in recorded


@pytest.mark.parametrize(
    "kept",
    [
        "rates 0.1+0.2+0.3+0.4+0.5+0.6+0.7 add up",  # the numbers a message is about
        "ratio is 1.3999999900000009111821580, not 1.4",
        "run `rlkl regen content/2023-2024-2025-2026-2027-review`",  # a slug, a command
    ],
)
def test_a_message_keeps_numbers_and_names_under_100_characters(kept: str) -> None:
    assert brief(kept) == kept


def test_a_message_shortens_long_runs_of_any_digits() -> None:
    assert brief("the number " + "²" * 500) == "the number ²²²²²²²²²²…²²²²²²²²²² (500 characters)"
    assert brief(brief("x " + "1" * 100)) == "x 1111111111…1111111111 (100 characters)"


def test_the_claims_table_is_not_padded_to_a_long_number(tmp_path: Path) -> None:
    """Every row of ``rlkl claims`` was padded to the widest number: 3,000 characters each."""
    space = Workspace.copy(tmp_path)
    space.edit(TRADEOFF, TRADEOFF + " Seed " + "7" * 3000 + ".")
    result = CliRunner().invoke(main, ["claims", str(space.root / SEED)])
    assert "7777777777…7777777777 (3,000 characters)" in result.output
    assert max(map(len, result.output.splitlines())) < 400


SPEC = "The executable decoder has 423 parameters;"


def test_each_record_stands_for_one_exempt_number(tmp_path: Path) -> None:
    """The same sentence written twice is two exempt numbers and two records: a second copy
    is new, and a record left over once it is gone is orphaned (the records were compared as
    a set, so both passed and regen kept a dead record forever)."""
    space = Workspace.copy(tmp_path)
    space.edit(SPEC, SPEC + " The executable decoder has 423 parameters;")
    assert [d.code for d in space.check().diagnostics] == ["RLKL502"]
    regen_paths([space.root / SEED])
    assert space.read(name="fixtures.json").count('"authored": "423"') == 2
    space.edit(SPEC + " The executable decoder has 423 parameters;", SPEC)
    assert [d.code for d in space.check().diagnostics] == ["RLKL503"]
    regen_paths([space.root / SEED])
    assert space.read(name="fixtures.json").count('"authored": "423"') == 1
    assert space.check().diagnostics == []


def test_regen_keeps_the_fixtures_of_a_lesson_whose_bindings_are_broken(tmp_path: Path) -> None:
    """With claims.yaml in error its claims are unknown: regen wrote fixtures without them
    (23 of 29 claims and the exemption gone); now it says so and leaves the file."""
    space = Workspace.copy(tmp_path)
    before = space.read(name="fixtures.json")
    space.edit("reason: \"Size of the upstream lab's decoder; rlkl.core has no decoder to "
               "recompute it from.\"", 'reason: "short"', name="claims.yaml")
    report, result = regen_paths([space.root / SEED])
    assert space.read(name="fixtures.json") == before
    assert "claims.yaml has errors" in report.not_fixed[space.path()]
    assert "RLKL601" in [d.code for d in result.diagnostics]


@pytest.mark.parametrize(("numbers", "lines"), [(3, 3), (5, 1)])
def test_one_edit_to_an_exemption_is_one_line(tmp_path: Path, numbers: int, lines: int) -> None:
    """A new reason for an exemption that covers many numbers changes every record: one
    RLKL502 says so (it was one line per number: 4,000 lines for a table of counts)."""
    space = Workspace.copy(tmp_path)
    space.edit(TRADEOFF, TRADEOFF + " Counts:" + " x 1" * numbers + ".")
    bindings = space.read(name="claims.yaml") + (
        '  - in: /tradeoff\n    says: "x {n}"\n    reason: "a table of counts, no quantity"\n'
    )
    space.path(name="claims.yaml").write_text(bindings, encoding="utf-8")
    regen_paths([space.root / SEED])
    space.edit("no quantity", "not a quantity", name="claims.yaml")
    found = [d.message for d in space.check().diagnostics]
    assert len(found) == lines and all(m.startswith("stale fixtures: ") for m in found)
    if lines == 1:
        assert found[0].startswith(f"stale fixtures: {numbers} exempt numbers changed (reason)")


def test_a_reworded_exemption_is_paired_with_its_own_record(tmp_path: Path) -> None:
    """The first sentence goes, the second is reworded around its 0.5: the second is
    "changed (quote)", and the orphan is the first's record (the first record with that
    number was taken: "changed (quote, reason)" and the survivor's record orphaned)."""
    space = Workspace.copy(tmp_path)
    _exempt_twice(space)
    space.edit(" First 0.5 here. Second 0.5 there.", " Second 0.5 over there.")
    space.edit('  - in: /tradeoff\n    says: "First {x} here"\n'
               '    reason: "the first example number"\n', "", name="claims.yaml")
    space.edit('"Second {x} there"', '"Second {x} over there"', name="claims.yaml")
    found = sorted((d.code, d.pointer, d.message.split(";")[0])
                   for d in space.check().diagnostics)
    assert found == [
        ("RLKL502", "/tradeoff", "stale fixtures: exempt number 0.5 changed (quote)"),
        ("RLKL503", "/exempt/1", "orphaned fixture: exempt number 0.5 is no longer in the lesson"),
    ]


def test_regen_keeps_the_fixtures_when_claims_yaml_has_semantic_errors(tmp_path: Path) -> None:
    """Another lesson's claims.yaml loads but names none of this lesson's sentences (RLKL609,
    RLKL607...): the fixtures are kept, as --fix keeps the prose (29 claims became 6)."""
    space = Workspace.copy(tmp_path, SEED, "adaptive-kl-controllers")
    before = space.read(name="fixtures.json")
    other = space.read("adaptive-kl-controllers", "claims.yaml")
    space.path(name="claims.yaml").write_text(other, encoding="utf-8")
    report, _ = regen_paths([space.root / SEED])
    assert space.read(name="fixtures.json") == before
    assert "claims.yaml has errors" in report.not_fixed[space.path()]
