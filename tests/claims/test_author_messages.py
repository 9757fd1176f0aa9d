"""Messages an author reads once (issue 9, item 6): each case an author met in a new lesson."""

from __future__ import annotations

from pathlib import Path

from rlkl.claims import slots
from rlkl.claims.bindings import Template
from rlkl.claims.records import Located
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
    space.edit("0.087177 is the reversed", "0.087178 is the reversed", lesson=KL_DIRECTIONS)
    [message] = [d.message for d in space.check(KL_DIRECTIONS).diagnostics if d.code == "RLKL401"]
    assert "kl_divergence(p_new, p_old)" in message
    assert "p_new = [" in message and "p_old = [" in message
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


def test_two_slots_with_nothing_between_them_are_reported(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit(DECODER, '"decoder has {hundreds}{rest} parameters"', name="claims.yaml")
    [found] = space.check().diagnostics
    assert (found.code, found.pointer) == ("RLKL621", "/exempt/0/says")
    assert found.message.startswith("{hundreds}{rest} in 'decoder has {hundreds}{rest} "
                                    "parameters': two slots with nothing between them")


def test_a_message_shows_a_very_long_number_by_its_ends(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit(TRADEOFF, TRADEOFF + " Seed " + "7" * 3000 + ".")
    [found] = [d for d in space.check().diagnostics if d.code == "RLKL410"]
    assert "7777777777…7777777777 (3,000 characters)" in found.message
    assert len(found.message) < 300
