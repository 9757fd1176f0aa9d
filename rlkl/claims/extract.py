"""One lesson's claims, stage by stage: the orchestrator of :mod:`rlkl.claims`.

scan (:mod:`~rlkl.claims.prose.scanner`) → match bindings
(:mod:`~rlkl.claims.templates.bind`) → evaluate (:mod:`~rlkl.claims.evaluation.evaluate`,
:mod:`~rlkl.claims.forms.forms`, :mod:`~rlkl.claims.evaluation.quiz`) → account
(:mod:`~rlkl.claims.coverage`); equations (:mod:`~rlkl.claims.equations.equations`) are checked
against the same quantities, and the placeholders ``rlkl new`` left are reported
(:func:`rlkl.scaffold.placeholders`). Each stage takes records and returns records; this
module only runs them in order and turns their problems into located diagnostics.
"""

from __future__ import annotations

from dataclasses import replace

from rlkl.claims.bindings.model import Bindings
from rlkl.claims.coverage import apply_exemptions, unaccounted
from rlkl.claims.equations.equations import check_equations
from rlkl.claims.evaluation.evaluate import check_claims, compute_outputs, read_inputs
from rlkl.claims.evaluation.functions import evaluation_budget, used_versions
from rlkl.claims.evaluation.quiz import check_quiz
from rlkl.claims.evaluation.ranges import plot_problems, range_problems, stated
from rlkl.claims.forms.forms import check_arithmetic, check_core_calls
from rlkl.claims.prose.fields import prose_strings
from rlkl.claims.prose.scanner import scan
from rlkl.claims.prose.source import locate
from rlkl.claims.records import Found, LessonClaims, Problem, Prose, Verdict, assign_roles
from rlkl.claims.templates.bind import match_claims
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document
from rlkl.scaffold import placeholders


def read_prose(document: Document) -> Prose:
    """Stage 1, scan: every prose string of the lesson and the numbers written in it."""
    data = document.data if isinstance(document.data, dict) else {}
    texts = dict(prose_strings(data))
    by_pointer = {p: tuple(scan(p, t)) for p, t in texts.items()}
    return Prose(str(data.get("id", "")), data, texts, by_pointer)


def unique_ids(verdicts: tuple[Verdict, ...]) -> tuple[Verdict, ...]:
    """Verdict ids made unique in lesson order: the second ``x`` is ``x#2``."""
    counts: dict[str, int] = {}
    out = []
    for v in verdicts:
        counts[v.id] = counts.get(v.id, 0) + 1
        out.append(v if counts[v.id] == 1 else replace(v, id=f"{v.id}#{counts[v.id]}"))
    return tuple(out)


def diagnostic(document: Document, bindings: Bindings | None, problem: Problem) -> Diagnostic:
    """A problem located in the lesson (at its mention) or in the bindings file."""
    if problem.mention is not None:
        line, column = locate(document, problem.mention)
        pointer = problem.mention.pointer
        return Diagnostic(document.display, line, column, pointer, problem.code, problem.message)
    assert bindings is not None and problem.at is not None
    return bindings.diagnostic(problem.at, problem.code, problem.message)


def extract(
    document: Document, bindings: Bindings | None, *, coverage: bool = True
) -> LessonClaims:
    """All claims of one loaded lesson, checked; diagnostics for everything that fails.

    ``coverage=False`` skips the unaccounted-number errors (used when the bindings file
    itself is broken: its own diagnostics say what to fix first).
    """
    with evaluation_budget():  # one deterministic budget of expensive work per lesson
        claims = _extract(document, bindings, coverage=coverage)
        used = used_versions()  # the authors' functions called, recorded in the fixtures
    return replace(claims, functions=used) if used else claims


def _extract(document: Document, bindings: Bindings | None, *, coverage: bool) -> LessonClaims:
    prose = read_prose(document)
    matched, match_problems = match_claims(prose, bindings)
    inputs, read = read_inputs(matched)
    env, compute_problems = compute_outputs(matched, inputs)
    found = Found(problems=match_problems) + read + Found(problems=compute_problems)
    found += check_claims(prose, matched, env)
    roles = assign_roles({}, found.roles)
    found += check_arithmetic(prose, roles) + check_core_calls(prose, roles)
    found += check_quiz(prose, bindings.quiz if bindings else None, env)
    found += apply_exemptions(prose, bindings, assign_roles({}, found.roles))
    roles = assign_roles({}, found.roles)
    problems = found.problems + (unaccounted(prose, roles) if coverage else ())
    declared = tuple(bindings.explore) if bindings else ()
    plot = bindings.plot if bindings else None
    if declared or plot:
        numbers = ((m.pointer, roles.get(m.key, ""), m.decimals) for m in prose.mentions)
        movable = stated(numbers, inputs, (r.name for r in declared if "[" in r.name))
        problems += tuple(range_problems(declared, movable))
        if plot is not None:
            fixed = (r.name for r in declared if r.fixed)
            problems += tuple(plot_problems(plot, movable, fixed, env.values, env.sources))
    equations, equation_problems = check_equations(
        document, bindings, env.values, coverage=coverage
    )
    diagnostics = [
        *(diagnostic(document, bindings, p) for p in problems),
        *placeholders(document),  # what `rlkl new` left to write
        *equation_problems,
    ]
    return LessonClaims(
        prose.lesson_id,
        prose.mentions,
        unique_ids(found.verdicts),
        found.exempt,
        roles,
        tuple(dict.fromkeys(diagnostics)),  # one report per fact
        dict(found.rewrites),
        tuple(equations),
        explore=declared,
        plot=bindings.plot if bindings else None,
        mistakes={i: text for i, (text, _) in bindings.quiz.mistakes.items()}
        if bindings and bindings.quiz else {},
    )
