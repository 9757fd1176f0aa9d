"""The check question: the key states the answer, distractors differ, the misconception
repeats the distractor it explains and is not the answer."""

from __future__ import annotations

from typing import Any

from rlkl.claims.bindings.model import Quiz
from rlkl.claims.evaluation.evaluate import Env
from rlkl.claims.evaluation.judge import judge, quote, verdict
from rlkl.claims.evaluation.precision import agrees, show
from rlkl.claims.prose.scanner import Mention
from rlkl.claims.records import Found, Problem, Prose


def _option_numbers(prose: Prose, check: dict[str, Any]) -> dict[int, Mention]:
    """The first number of each option that has one, by option index."""
    firsts = {}
    for i in range(len(check.get("options", []))):
        numbers = prose.by_pointer.get(f"/check/options/{i}", ())
        if numbers:
            firsts[i] = numbers[0]
    return firsts


def _bad_distractors(quiz: Quiz, key: Any, firsts: dict[int, Mention]) -> Found:
    problems = []
    for index, (_, where) in quiz.distractors.items():
        if index == key or index not in firsts:
            what = "the keyed answer" if index == key else "not an option with a number"
            problems.append(
                Problem(
                    "RLKL613",
                    f"distractor {index} is {what}; "
                    "name the index of a wrong option (counting from 0)",
                    at=where,
                )
            )
    for index, (_, where) in quiz.mistakes.items():
        if index not in quiz.distractors:
            problems.append(Problem(
                "RLKL613", f"quiz.mistakes names option {index}, which has no distractor "
                "expression: say in quiz.distractors what its number is computed by", at=where))
    return Found(problems=tuple(problems))


def _key(
    prose: Prose,
    mention: Mention,
    firsts: dict[int, Mention],
    key: Any,
    source: str,
    env: Env,
    answer: float,
) -> Found:
    stating = [i for i, m in firsts.items() if i != key and agrees(answer, m.value, m.decimals)]
    hint = f" (option {stating[0]} states the answer: is /check/answer right?)" if stating else ""
    judged = judge(
        "quiz-key",
        mention,
        "quiz.key",
        f"answer = {source}",
        env.inputs_of(source),
        answer,
        quote(prose.texts[mention.pointer], mention),
        hint=hint,
    )
    rewrite = () if judged.verdicts[-1].ok else ((mention.key, answer),)
    return Found(roles=((mention.key, "quiz-key"),)) + judged + Found(rewrites=rewrite)


def _distractor(
    prose: Prose, index: int, mention: Mention, quiz: Quiz, env: Env, answer: float
) -> Found:
    source = quiz.answer[0]
    said = quote(prose.texts[mention.pointer], mention)
    found = Found(roles=((mention.key, "distractor"),)) + judge(
        "distractor",
        mention,
        f"quiz.distractor.{index}",
        f"answer = {source}",
        env.inputs_of(source),
        answer,
        said,
        negative=True,
    )
    if index in quiz.distractors:
        mistake, where = quiz.distractors[index]
        value, problems = env.number(mistake, where)
        found += Found(problems=problems)
        if value is not None:
            found += judge(
                "distractor",
                mention,
                f"quiz.mistake.{index}",
                mistake,
                env.inputs_of(mistake),
                value,
                said,
            )
    return found


def _explanation(prose: Prose, source: str, env: Env, answer: float) -> Found:
    explanation = prose.by_pointer.get("/check/explanation", ())
    if not explanation:
        return Found()
    mention = explanation[0]
    judged = judge(
        "quiz-key",
        mention,
        "quiz.explanation",
        f"answer = {source}",
        env.inputs_of(source),
        answer,
        quote(prose.texts[mention.pointer], mention),
    )
    rewrite = () if judged.verdicts[-1].ok else ((mention.key, answer),)
    return Found(roles=((mention.key, "quiz-key"),)) + judged + Found(rewrites=rewrite)


def _misconception(
    prose: Prose, firsts: dict[int, Mention], key: Any, answer: float, inputs: dict[str, Any]
) -> Found:
    """The misconception states a distractor's value, not the answer. Its record carries the
    answer's inputs: when one changes, the fixture is stale, not drift."""
    stated = prose.by_pointer.get("/misconception", ())
    if not stated:
        return Found()
    mention = stated[0]
    wrong = [firsts[i] for i in firsts if i != key]
    explained = explained_distractor(prose, wrong)
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
    return Found(roles=((mention.key, "misconception"),)) + verdict(
        "misconception",
        mention,
        "misconception",
        "a distractor, not the answer",
        inputs,
        answer,
        ok,
        reason,
        quote(prose.texts[mention.pointer], mention),
    )


def check_quiz(prose: Prose, quiz: Quiz | None, env: Env) -> Found:
    """The keyed option and explanation state the answer; distractors differ; the
    misconception is a distractor."""
    check = prose.data.get("check")
    if quiz is None or not isinstance(check, dict):
        return Found()
    source, at = quiz.answer
    answer, problems = env.number(source, at)
    if answer is None:
        return Found(problems=problems)
    key = check.get("answer")
    firsts = _option_numbers(prose, check)
    found = Found(problems=problems) + _bad_distractors(quiz, key, firsts)
    for index, mention in firsts.items():
        if index == key:
            found += _key(prose, mention, firsts, key, source, env, answer)
        else:
            found += _distractor(prose, index, mention, quiz, env, answer)
    found += _explanation(prose, source, env, answer)
    return found + _misconception(prose, firsts, key, answer, env.inputs_of(source))


def explained_distractor(prose: Prose, distractors: list[Mention]) -> Mention | None:
    """The distractor whose words (after its number) the misconception repeats, if any."""
    misconception = prose.texts.get("/misconception", "")
    for mention in distractors:
        words = prose.texts[mention.pointer][mention.end :].strip(" ,.;:")
        if len(words) >= 12 and words in misconception:
            return mention
    return None
