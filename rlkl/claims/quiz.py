"""The check question: the key states the answer, distractors differ, the misconception
repeats the distractor it explains and is not the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rlkl.claims.precision import agrees, show
from rlkl.claims.scanner import Mention

if TYPE_CHECKING:
    from rlkl.claims.engine import Extraction


def check_quiz(state: Extraction) -> None:
    """The keyed option and explanation state the answer; distractors differ; the
    misconception is a distractor."""
    check = state.data.get("check")
    quiz = state.bindings.quiz if state.bindings else None
    if quiz is None or not isinstance(check, dict):
        return
    source, at = quiz.answer
    answer = state.number(source, at)
    if answer is None:
        return
    inputs = state.inputs_of(source)
    key = check.get("answer")
    firsts = {
        i: ms[0]
        for i, ms in (
            (i, state.by_pointer.get(f"/check/options/{i}", []))
            for i in range(len(check.get("options", [])))
        )
        if ms
    }
    for index, (_, where) in quiz.distractors.items():
        if index == key or index not in firsts:
            what = "the keyed answer" if index == key else "not an option with a number"
            state.at_binding(
                where,
                "RLKL613",
                f"distractor {index} is {what}; name the index of a wrong option (counting from 0)",
            )
    for index, mention in firsts.items():
        if index == key:
            state.role(mention, "quiz-key")
            stating = [
                i for i, m in firsts.items() if i != key and agrees(answer, m.value, m.decimals)
            ]
            hint = (
                f" (option {stating[0]} states the answer: is /check/answer right?)"
                if stating
                else ""
            )
            if not state.compare(
                "quiz-key",
                mention,
                "quiz.key",
                f"answer = {source}",
                inputs,
                answer,
                hint=hint,
            ):
                state.out.rewrites[mention.key] = answer
        else:
            state.role(mention, "distractor")
            state.compare(
                "distractor",
                mention,
                f"quiz.distractor.{index}",
                f"answer = {source}",
                inputs,
                answer,
                negative=True,
            )
            if index in quiz.distractors:
                mistake, where = quiz.distractors[index]
                value = state.number(mistake, where)
                if value is None:
                    continue
                state.compare(
                    "distractor",
                    mention,
                    f"quiz.mistake.{index}",
                    mistake,
                    state.inputs_of(mistake),
                    value,
                )
    explanation = state.by_pointer.get("/check/explanation", [])
    if explanation:
        state.role(explanation[0], "quiz-key")
        if not state.compare(
            "quiz-key", explanation[0], "quiz.explanation", f"answer = {source}", inputs, answer
        ):
            state.out.rewrites[explanation[0].key] = answer
    stated = state.by_pointer.get("/misconception", [])
    if stated:
        mention = stated[0]
        state.role(mention, "misconception")
        wrong = [firsts[i] for i in firsts if i != key]
        explained = explained_distractor(state, wrong)
        candidates = [explained] if explained else wrong
        same = [m for m in candidates if m.value == mention.value]
        ok = bool(same) and not agrees(answer, mention.value, mention.decimals)
        which = (
            f"the distractor it explains ({explained.text} at {explained.pointer})"
            if explained
            else f"one distractor ({', '.join(m.text for m in wrong)})"
        )
        reason = (
            ""
            if ok
            else f"the misconception's value {mention.text} must be wrong (the answer is "
            f"{show(answer)}) and equal {which}"
        )
        state.verdict(
            "misconception",
            mention,
            "misconception",
            "a distractor, not the answer",
            {},
            answer,
            ok,
            reason,
        )


def explained_distractor(state: Extraction, distractors: list[Mention]) -> Mention | None:
    """The distractor whose words (after its number) the misconception repeats, if any."""
    misconception = state.texts.get("/misconception", "")
    for mention in distractors:
        words = state.texts[mention.pointer][mention.end :].strip(" ,.;:")
        if len(words) >= 12 and words in misconception:
            return mention
    return None
