"""Stage 3, evaluate: inputs read from the prose, outputs computed with :mod:`rlkl.core`,
every output, negative and condition of the authored claims judged.

:func:`read_inputs` and :func:`compute_outputs` produce the lesson's :class:`Env` (named
quantities); :func:`check_claims` judges the bound sentences against it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rlkl import shown
from rlkl.claims.bindings.model import Claim
from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.judge import judge, plain, verdict
from rlkl.claims.prose.scanner import Mention
from rlkl.claims.records import Found, Key, Located, Problem, Prose
from rlkl.claims.templates import matching
from rlkl.claims.templates.bind import Matched


@dataclass(frozen=True)
class Env:
    """The lesson's named quantities: values, outputs that failed, each output's expression."""

    values: Mapping[str, Any] = field(default_factory=dict)
    failed: frozenset[str] = frozenset()
    sources: Mapping[str, str] = field(default_factory=dict)

    def usable(self, source: str) -> bool:
        """False when ``source`` reads an output that could not be computed (already reported)."""
        return not expr.names(expr.parse(source)) & self.failed

    def inputs_of(self, source: str) -> dict[str, Any]:
        """The quantities ``source`` reads, with their values, by name."""
        names = sorted(expr.names(expr.parse(source)))
        return {n: self.values[n] for n in names if n in self.values}

    def authored(self, source: str, at: Located) -> tuple[Any, tuple[Problem, ...]]:
        """Evaluate an authored expression: (value, ()) or (None, RLKL421 at ``at``).

        None without a problem when it reads an output that could not be computed.
        """
        if not self.usable(source):
            return None, ()
        try:
            return expr.evaluate(expr.parse(source), self.values), ()
        except expr.ExprError as exc:
            return None, (Problem(expr_code(exc), f"cannot compute {source}: {exc}", at=at),)

    def number(self, source: str, at: Located) -> tuple[float | None, tuple[Problem, ...]]:
        """:meth:`authored`, which must give one number (else RLKL421 at ``at``)."""
        value, problems = self.authored(source, at)
        if value is not None and np.size(value) != 1:
            message = f"{source} must compute one number, not {plain(value)}"
            return None, (Problem("RLKL421", message, at=at),)
        if value is None:
            return None, problems
        return float(np.asarray(value, dtype=np.float64).reshape(())), problems


def _first(occurrence: matching.Occurrence) -> Mention:
    """The first number of a matched sentence (where its sentence-level problems point)."""
    return next(m for slot in occurrence.slots for m in slot.mentions)


def _value(slot: matching.SlotMatch) -> Any:
    if slot.kind == "unit":
        return slot.base
    if slot.is_list:
        return np.array([m.number for m in slot.mentions], dtype=np.float64)
    return slot.mentions[0].number


def _reading(slot: matching.SlotMatch) -> Any:
    """What a slot states, comparably: the unit word, or the exact decimals written."""
    return slot.word.rstrip("s") if slot.kind == "unit" else tuple(m.value for m in slot.mentions)


def _said(slot: matching.SlotMatch) -> str:
    return slot.word if slot.kind == "unit" else ", ".join(m.text for m in slot.mentions)


Places = dict[Any, tuple[matching.SlotMatch, Mention]]


def _slot_roles(matched: tuple[Matched, ...]) -> tuple[list[tuple[Key, str]], dict[str, Places]]:
    """Every slot's role, and each input's readings (one per place it is written)."""
    outputs = {name for m in matched for name in m.claim.outputs}
    roles: list[tuple[Key, str]] = []
    readings: dict[str, Places] = {}
    for m in matched:
        for occurrence in m.occurrences:
            for slot in occurrence.slots:
                kind = (
                    "output"
                    if slot.name in outputs
                    else ("negative" if slot.name in m.claim.negatives else "input")
                )
                roles.extend((mention.key, f"{kind} {slot.name}") for mention in slot.mentions)
                if kind == "input":
                    anchor = slot.mentions[0] if slot.mentions else _first(occurrence)
                    where = tuple(x.key for x in slot.mentions) or (anchor.key, slot.word)
                    readings.setdefault(slot.name, {}).setdefault(where, (slot, anchor))
    return roles, readings


def _two_roles(matched: tuple[Matched, ...]) -> Iterator[Problem]:
    """RLKL423 at a claim that reads a number another claim reads in another role (a
    catch-all template such as ``says: "{x}"``): which one is right is a guess, so the
    lesson is reported and ``--fix`` leaves it. One report per pair of claims."""
    outputs = {name for m in matched for name in m.claim.outputs}
    first: dict[Key, tuple[str, Matched]] = {}
    reported: set[tuple[str, str]] = set()
    for m in matched:
        for occurrence in m.occurrences:
            for slot in occurrence.slots:
                kind = "output" if slot.name in outputs else "input"
                role = f"{kind} {slot.name}"
                for mention in slot.mentions:
                    earlier = first.setdefault(mention.key, (role, m))
                    pair = (earlier[1].claim.id, m.claim.id)
                    if earlier[0] == role or pair in reported or pair[0] == pair[1]:
                        continue
                    reported.add(pair)
                    yield Problem(
                        "RLKL423",
                        f"claim {m.claim.id} reads {mention.text} at {mention.pointer} as "
                        f"{role}, but claim {earlier[1].claim.id} reads it as {earlier[0]}; a "
                        "number has one role: narrow the template (or its `in:`) so that one "
                        "claim reads it. `regen --fix` does not rewrite this lesson meanwhile",
                        at=m.claim.where,
                    )


def read_inputs(matched: tuple[Matched, ...]) -> tuple[dict[str, Any], Found]:
    """Give every slot its role; read each input, the value most places state.

    An input written differently in different places is reported at each place that
    disagrees with the majority (the first reading wins a tie).
    """
    roles, readings = _slot_roles(matched)
    values: dict[str, Any] = {}
    problems: list[Problem] = list(_two_roles(matched))
    for name, places in readings.items():
        seen = [_reading(slot) for slot, _ in places.values()]
        canonical = max(seen, key=lambda v: (seen.count(v), -seen.index(v)))
        chosen, at = next(p for p, v in zip(places.values(), seen, strict=True) if v == canonical)
        values[name] = _value(chosen)
        for (slot, anchor), value in zip(places.values(), seen, strict=True):
            if value != canonical and slot.kind != "unit":  # a unit belongs to its mention
                problems.append(
                    Problem(
                        "RLKL420",
                        f"quantity {name} is {_said(slot)} here but {_said(chosen)} at "
                        f"{at.pointer} ({seen.count(canonical)} of {len(seen)} places); "
                        "a named quantity must agree everywhere in the lesson",
                        anchor,
                    )
                )
    return values, Found(problems=tuple(problems), roles=tuple(roles))


def _first_seen(matched: tuple[Matched, ...]) -> dict[str, Mention]:
    return {
        slot.name: slot.mentions[0]
        for m in reversed(matched)
        for occurrence in reversed(m.occurrences)
        for slot in reversed(occurrence.slots)
        if slot.mentions
    }


def expr_code(error: expr.ExprError) -> str:
    """RLKL422 when the lesson's evaluation budget is spent, else RLKL421."""
    return "RLKL422" if isinstance(error, expr.BudgetExceeded) else "RLKL421"


def _compute_one(
    name: str, source: str, at: Located, values: dict[str, Any], seen: dict[str, Mention]
) -> Problem | None:
    """Compute one output into ``values``; the problem when it cannot be computed."""
    try:
        values[name] = expr.evaluate(expr.parse(source), values)
        return None
    except expr.ExprError as exc:
        env = Env(values)
        message = (
            f"cannot compute {name} = {source} with {shown.inputs(env.inputs_of(source))}: {exc}"
        )
        if name in seen:
            return Problem(expr_code(exc), message, seen[name])
        return Problem(expr_code(exc), message, at=at)


def compute_outputs(
    matched: tuple[Matched, ...], inputs: Mapping[str, Any]
) -> tuple[Env, tuple[Problem, ...]]:
    """Compute every output in dependency order.

    An output that cannot be computed is reported once, at its first number in the
    lesson (the prose is usually what broke it); everything that depends on it is skipped.
    """
    pending = {n: (src, at) for m in matched for n, (src, at) in m.claim.outputs.items()}
    sources = {name: source for name, (source, _) in pending.items()}
    seen = _first_seen(matched)
    values: dict[str, Any] = dict(inputs)
    failed: set[str] = set()
    problems: list[Problem] = []
    while pending:
        progress = False
        for name, (source, at) in list(pending.items()):
            needs = expr.names(expr.parse(source))
            unknown = needs - set(values) - set(pending) - failed
            if unknown or needs & failed:
                if unknown:
                    problems.append(
                        Problem(
                            "RLKL608",
                            f"{name} = {source} uses {', '.join(sorted(unknown))}, "
                            "which no sentence of this lesson states or computes",
                            at=at,
                        )
                    )
                failed.add(name)
            elif not needs & set(pending):
                problem = _compute_one(name, source, at, values, seen)
                if problem is not None:
                    failed.add(name)
                    problems.append(problem)
            else:
                continue
            del pending[name]
            progress = True
        if not progress:
            names = ", ".join(sorted(pending))
            problems.extend(
                Problem("RLKL608", f"these quantities depend on each other: {names}", at=at)
                for _, at in pending.values()
            )
            failed.update(pending)
            break
    return Env(values, frozenset(failed), sources), tuple(problems)


def _judge_slot(
    claim: Claim, occurrence: matching.Occurrence, slot: matching.SlotMatch, env: Env, quote: str
) -> Found:
    """Judge the output and/or negative a slot states."""
    found = Found()
    checks = []
    if slot.name in env.sources:  # an output, wherever the sentence defining it is
        checks.append(("output", env.sources[slot.name]))
    if slot.name in claim.negatives:
        checks.append(("negative", claim.negatives[slot.name][0]))
    for kind, source in checks:
        if kind == "output":
            value = env.values.get(slot.name)  # None: reported once already
        else:
            value, problems = env.authored(source, claim.negatives[slot.name][1])
            found += Found(problems=problems)
        if value is None:
            continue
        values = np.atleast_1d(np.asarray(value, dtype=np.float64))
        expected = len(slot.mentions) if slot.is_list else 1
        if values.ndim != 1 or len(values) != expected:
            found += Found(
                problems=(
                    Problem(
                        "RLKL401",
                        f'claim "{quote}": {slot.name} has {expected} '
                        f"number(s) but {source} computes {values.size}",
                        slot.mentions[0],
                    ),
                )
            )
            continue
        for index, mention in enumerate(slot.mentions):
            label = slot.name + (f"[{index}]" if slot.is_list else "")
            computed = float(values[index if slot.is_list else 0])
            judged = judge(
                kind,
                mention,
                f"{claim.id}.{label}@{occurrence.pointer}",
                f"{label} = {source}" if kind == "output" else source,
                env.inputs_of(source),
                computed,
                quote,
                negative=kind == "negative",
            )
            found += Found(roles=((mention.key, kind),)) + judged
            if kind == "output" and not judged.verdicts[-1].ok:
                found += Found(rewrites=((mention.key, computed),))
    return found


def _conditions(claim: Claim, occurrence: matching.Occurrence, env: Env, quote: str) -> Found:
    """Judge the ``holds`` conditions of a claim at one occurrence of its sentence."""
    found = Found()
    anchor = _first(occurrence)
    for index, (source, at) in enumerate(claim.holds):
        outcome, problems = env.authored(source, at)
        found += Found(problems=problems)
        if outcome is None:
            continue
        if not isinstance(outcome, (bool, np.bool_)):
            found += Found(
                problems=(
                    Problem(
                        "RLKL421",
                        f"condition {source} must be true or false, "
                        f"but it computes {plain(outcome)}",
                        at=at,
                    ),
                )
            )
            continue
        result = bool(outcome)
        inputs = env.inputs_of(source)
        reason = "" if result else f"condition {source} is false with {shown.inputs(inputs)}"
        found += verdict(
            "condition",
            anchor,
            f"{claim.id}.holds.{index}@{occurrence.pointer}",
            source,
            inputs,
            result,
            result,
            reason,
            quote,
        )
    return found


def check_claims(prose: Prose, matched: tuple[Matched, ...], env: Env) -> Found:
    """Check every output, negative and condition of each binding where its sentence is."""
    found = Found()
    for m in matched:
        for occurrence in m.occurrences:
            quote = occurrence.quote(prose.texts[occurrence.pointer])
            local = _with_own_units(matched, occurrence, env)
            for slot in occurrence.slots:
                found += _judge_slot(m.claim, occurrence, slot, local, quote)
            if m.claim.holds:
                found += _conditions(m.claim, occurrence, local, quote)
    return found


def _with_own_units(matched: tuple[Matched, ...], occurrence: matching.Occurrence, env: Env) -> Env:
    """``env`` recomputed with the units this occurrence states, where they differ from the
    lesson's (``0.118709 bits`` here, ``0.082283 nats`` there: both true)."""
    own = {
        s.name: s.base
        for s in occurrence.slots
        if s.kind == "unit" and env.values.get(s.name) != s.base
    }
    if not own:
        return env
    local, _ = compute_outputs(matched, {**env.values, **own})  # problems: reported once above
    return local
