"""Turn one lesson's prose into verified claims.

Stages (each a small function): scan every prose field for numeric mentions; match the
authored templates (:mod:`rlkl.claims.bindings`); resolve named quantities (inputs read
from the prose, outputs computed with :mod:`rlkl.core` in dependency order); recognise the
self-describing forms (literal arithmetic, KL/entropy of literal distributions); check the
quiz key, distractors and misconception; apply exemptions; and account for every mention.

The result is data (:class:`LessonClaims`); the caller renders it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from rlkl.claims import expr, forms, matching, quiz
from rlkl.claims.bindings import Bindings, Located
from rlkl.claims.equations import EquationRecord, check_equations
from rlkl.claims.fields import prose_strings
from rlkl.claims.precision import agrees, describe, show
from rlkl.claims.scanner import Mention, scan
from rlkl.claims.source import line_column, mention_range
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document
from rlkl.scaffold import placeholders


@dataclass(frozen=True)
class Verdict:
    """One checked number: what was computed, from what, and whether the prose agrees."""

    id: str
    # output | negative | condition | arithmetic | core | quiz-key | distractor | misconception
    kind: str
    mention: Mention
    expression: str
    inputs: dict[str, Any]
    computed: Any
    ok: bool
    reason: str  # why it fails ("" when ok)
    quote: str


@dataclass(frozen=True)
class Exempt:
    """An exempt number, the reason, and the words around it."""

    mention: Mention
    reason: str
    quote: str


@dataclass
class LessonClaims:
    """Everything rlkl found and checked in one lesson."""

    lesson_id: str
    mentions: list[Mention]
    verdicts: list[Verdict] = field(default_factory=list)
    exempt: list[Exempt] = field(default_factory=list)
    roles: dict[tuple[str, int], str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # output mention -> computed value, for ``regen --fix``
    rewrites: dict[tuple[str, int], float] = field(default_factory=dict)
    # one record per relation of every science[].equation (rlkl.claims.equations)
    equations: list[EquationRecord] = field(default_factory=list)


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


def _first(occurrence: matching.Occurrence) -> Mention:
    """The first number of a matched sentence (where its sentence-level problems point)."""
    return next(m for slot in occurrence.slots for m in slot.mentions)


def _plain(value: Any) -> Any:
    """A JSON-ready copy of a computed value (floats, lists, bools, 'inf')."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str):
        return value
    if np.ndim(value) > 0:
        return [_plain(v) for v in np.asarray(value).tolist()]
    number = float(value)
    return number if math.isfinite(number) else repr(number)


def _fmt_inputs(inputs: dict[str, Any]) -> str:
    parts = []
    for name, value in inputs.items():
        plain = _plain(value)
        if isinstance(plain, list):
            shown = (
                "[" + ", ".join(show(v) if isinstance(v, float) else str(v) for v in plain) + "]"
            )
        else:
            shown = show(plain) if isinstance(plain, float) else str(plain)
        parts.append(f"{name} = {shown}")
    return ", ".join(parts)


class Extraction:
    """The working state of one lesson while its claims are extracted and checked.

    The stages are its methods, and the functions of :mod:`rlkl.claims.forms` and
    :mod:`rlkl.claims.quiz`; :func:`extract` is the entry point.
    """

    def __init__(self, document: Document, bindings: Bindings | None, coverage: bool) -> None:
        self.want_coverage = coverage
        self.document = document
        self.bindings = bindings
        data = document.data if isinstance(document.data, dict) else {}
        self.data = data
        self.texts = dict(prose_strings(data))
        self.by_pointer = {p: scan(p, t) for p, t in self.texts.items()}
        mentions = [m for ms in self.by_pointer.values() for m in ms]
        self.out = LessonClaims(str(data.get("id", "")), mentions)
        self.env: dict[str, Any] = {}
        self.failed: set[str] = set()
        self.sources: dict[str, str] = {}  # output name -> expression
        self.ids: dict[str, int] = {}

    # -- reporting ----------------------------------------------------------------------
    def at_mention(self, mention: Mention, code: str, message: str) -> None:
        start, _ = mention_range(self.document, mention)
        line, column = line_column(self.document.text, start)
        self.out.diagnostics.append(
            Diagnostic(self.document.display, line, column, mention.pointer, code, message)
        )

    def at_binding(self, at: Located, code: str, message: str) -> None:
        assert self.bindings is not None
        self.out.diagnostics.append(self.bindings.diagnostic(at, code, message))

    def quote(self, mention: Mention) -> str:
        """The words around a mention: back to the clause start, on to the clause end."""
        text = self.texts[mention.pointer]
        before = text[max(0, mention.start - 48) : mention.start]
        cut = max(before.rfind(". "), before.rfind(", "), before.rfind("; "), before.rfind(": "))
        if cut >= 0:
            begin = mention.start - len(before) + cut + 2
        elif mention.start - len(before) == 0:
            begin = 0
        else:
            begin = mention.start - len(before) + before.find(" ") + 1
        after = text[mention.end : mention.end + 48]
        stop = min(
            (i for i in (after.find(". ", 1), after.find(", ", 1), after.find(";", 1)) if i > 0),
            default=-1,
        )
        end = (
            mention.end + stop
            if stop >= 0
            else (len(text) if len(after) < 48 else mention.end + after.rfind(" "))
        )
        return text[begin:end].strip().rstrip(".")

    def unique_id(self, base: str) -> str:
        self.ids[base] = self.ids.get(base, 0) + 1
        return base if self.ids[base] == 1 else f"{base}#{self.ids[base]}"

    def bound(self, mention: Mention) -> bool:
        """Whether a binding computes this number (the self-describing forms then leave it)."""
        return self.out.roles.get(mention.key, "").startswith("output")

    def role(self, mention: Mention, role: str) -> None:
        self.out.roles.setdefault(mention.key, role)

    def verdict(
        self,
        kind: str,
        mention: Mention,
        base_id: str,
        expression: str,
        inputs: dict[str, Any],
        computed: Any,
        ok: bool,
        reason: str,
        quote: str | None = None,
    ) -> None:
        said = quote or self.quote(mention)
        self.out.verdicts.append(
            Verdict(
                self.unique_id(base_id),
                kind,
                mention,
                expression,
                {k: _plain(v) for k, v in inputs.items()},
                _plain(computed),
                ok,
                reason,
                said,
            )
        )
        if not ok:
            self.at_mention(mention, _CODES[kind], f'claim "{said}": {reason}')

    def compare(
        self,
        kind: str,
        mention: Mention,
        base_id: str,
        expression: str,
        inputs: dict[str, Any],
        computed: float,
        *,
        negative: bool = False,
        quote: str | None = None,
        hint: str = "",
    ) -> bool:
        """Record whether ``mention`` states ``computed`` at its written precision (or, when
        ``negative``, that it does not), with a message saying what was computed from what."""
        formula = expression.split(" = ", 1)[-1]
        how = expr.substitute(formula, inputs) if inputs else formula
        if how != formula:
            how = f"{how} (from {expression})"
        if not math.isfinite(computed) and not mention.value.is_infinite():
            ok = negative
            reason = f"computed {how} = {show(computed)}" + (
                "" if negative else f", which no finite number such as {mention.text} states"
            )
        else:
            same = agrees(computed, mention.value, mention.decimals)
            ok = not same if negative else same
            written = describe(mention.decimals - 2 if mention.percent else mention.decimals)
            if mention.decimals == 0 and mention.value == 0:
                written = "a bare 0 claims exactly zero"
            shown = (
                show(computed * 100, mention.decimals - 2) + "%"
                if mention.percent
                else show(computed, mention.decimals)
            )
            if negative:
                reason = f"says {mention.text} is not {how}, but that computes {shown} ({written})"
            else:
                reason = f"computed {how} = {shown} ({written}), not {mention.text}{hint}"
        self.verdict(
            kind, mention, base_id, expression, inputs, computed, ok, "" if ok else reason, quote
        )
        return ok

    # -- templates ----------------------------------------------------------------------
    def occurrences(self, template: Any, at: Located) -> list[matching.Occurrence]:
        pointers = template.pointers or tuple(self.texts)
        found: list[matching.Occurrence] = []
        for pointer in pointers:
            if pointer not in self.texts:
                self.at_binding(at, "RLKL607", f"{pointer} is not a prose field of this lesson")
                continue
            hits = matching.find(
                template.says, pointer, self.texts[pointer], self.by_pointer[pointer]
            )
            if template.pointers and not hits:
                self.at_binding(
                    at, "RLKL607", f"the sentence {template.says!r} is not in {pointer}"
                )
            found.extend(hits)
        if not template.pointers and not found:
            self.at_binding(at, "RLKL607", f"the sentence {template.says!r} is not in the lesson")
        usable = []
        for occurrence in found:
            bad = [
                s.name
                for s in occurrence.slots
                if s.kind != "unit"
                and (not s.mentions or (s.kind == "number" and len(s.mentions) != 1))
            ]
            for name in bad:
                self.at_binding(
                    at,
                    "RLKL607",
                    f"slot {{{name}}} did not match one number in {occurrence.pointer}",
                )
            if not bad:
                usable.append(occurrence)
        return usable

    def run(self) -> LessonClaims:
        """All stages in order; the result is the lesson's claims and diagnostics."""
        claims = self.bindings.claims if self.bindings else []
        matched = [(c, self.occurrences(c.template, c.template.where)) for c in claims]
        self.resolve_inputs(matched)
        self.compute_outputs(matched)
        for claim, occurrences in matched:
            self.check_claim(claim, occurrences)
        forms.check_arithmetic(self)
        forms.check_core_calls(self)
        quiz.check_quiz(self)
        self.apply_exemptions()
        self.out.diagnostics += placeholders(self.document)  # what `rlkl new` left to write
        self.out.equations, found = check_equations(
            self.document, self.bindings, self.env, coverage=self.want_coverage
        )
        self.out.diagnostics += found
        if self.want_coverage:
            self.coverage()
        self.out.diagnostics = list(dict.fromkeys(self.out.diagnostics))  # one report per fact
        return self.out

    def resolve_inputs(self, matched: list[tuple[Any, list[matching.Occurrence]]]) -> None:
        """Give every slot its role; read each input, the value most places state.

        An input written differently in different places is reported at each place that
        disagrees with the majority (the first reading wins a tie).
        """
        outputs = {name for c, _ in matched for name in c.outputs}
        readings: dict[str, dict[Any, tuple[matching.SlotMatch, Mention]]] = {}
        for claim, occurrences in matched:
            for occurrence in occurrences:
                for slot in occurrence.slots:
                    kind = (
                        "output"
                        if slot.name in outputs
                        else ("negative" if slot.name in claim.negatives else "input")
                    )
                    for m in slot.mentions:
                        self.role(m, f"{kind} {slot.name}")
                    if kind == "input":
                        anchor = slot.mentions[0] if slot.mentions else _first(occurrence)
                        where = tuple(m.key for m in slot.mentions) or (anchor.key, slot.word)
                        readings.setdefault(slot.name, {}).setdefault(where, (slot, anchor))
        for name, places in readings.items():
            values = [_reading(slot) for slot, _ in places.values()]
            canonical = max(values, key=lambda v: (values.count(v), -values.index(v)))
            chosen, at = next(
                p for p, v in zip(places.values(), values, strict=True) if v == canonical
            )
            self.env[name] = _value(chosen)
            for (slot, anchor), value in zip(places.values(), values, strict=True):
                if value != canonical:
                    self.at_mention(
                        anchor,
                        "RLKL420",
                        f"quantity {name} is {_said(slot)} here but {_said(chosen)} at "
                        f"{at.pointer} ({values.count(canonical)} of {len(values)} places); "
                        "a named quantity must agree everywhere in the lesson",
                    )

    def compute_outputs(self, matched: list[tuple[Any, list[matching.Occurrence]]]) -> None:
        """Compute every output in dependency order.

        An output that cannot be computed is reported once, at its first number in the
        lesson (the prose is usually what broke it); everything that depends on it is skipped.
        """
        pending = {
            name: (source, at) for c, _ in matched for name, (source, at) in c.outputs.items()
        }
        self.sources = {name: source for name, (source, _) in pending.items()}
        first_seen = {
            slot.name: slot.mentions[0]
            for _, occurrences in reversed(matched)
            for occurrence in reversed(occurrences)
            for slot in reversed(occurrence.slots)
            if slot.mentions
        }
        while pending:
            progress = False
            for name, (source, at) in list(pending.items()):
                needs = expr.names(expr.parse(source))
                unknown = needs - set(self.env) - set(pending) - self.failed
                if unknown or needs & self.failed:
                    if unknown:
                        self.at_binding(
                            at,
                            "RLKL608",
                            f"{name} = {source} uses {', '.join(sorted(unknown))}, "
                            "which no sentence of this lesson states or computes",
                        )
                    self.failed.add(name)
                elif not needs & set(pending):
                    try:
                        self.env[name] = expr.evaluate(expr.parse(source), self.env)
                    except expr.ExprError as exc:
                        self.failed.add(name)
                        message = (
                            f"cannot compute {name} = {source} with "
                            f"{_fmt_inputs(self.inputs_of(source))}: {exc}"
                        )
                        if name in first_seen:
                            self.at_mention(first_seen[name], "RLKL421", message)
                        else:
                            self.at_binding(at, "RLKL421", message)
                else:
                    continue
                del pending[name]
                progress = True
            if not progress:
                names = ", ".join(sorted(pending))
                for _, at in pending.values():
                    self.at_binding(
                        at, "RLKL608", f"these quantities depend on each other: {names}"
                    )
                self.failed.update(pending)
                break

    def authored(self, source: str, at: Located) -> Any:
        """Evaluate an authored expression; on failure report RLKL421 at ``at``, return None.

        None also when it reads an output that could not be computed (reported already).
        """
        if not self.usable(source):
            return None
        try:
            return expr.evaluate(expr.parse(source), self.env)
        except expr.ExprError as exc:
            self.at_binding(at, "RLKL421", f"cannot compute {source}: {exc}")
            return None

    def number(self, source: str, at: Located) -> float | None:
        """:meth:`authored`, which must give one number (else RLKL421 at ``at``)."""
        value = self.authored(source, at)
        if value is not None and np.size(value) != 1:
            self.at_binding(at, "RLKL421", f"{source} must compute one number, not {_plain(value)}")
            return None
        return None if value is None else float(np.asarray(value, dtype=np.float64).reshape(()))

    def usable(self, source: str) -> bool:
        """False when ``source`` reads an output that could not be computed (already reported)."""
        return not expr.names(expr.parse(source)) & self.failed

    def inputs_of(self, source: str) -> dict[str, Any]:
        return {n: self.env[n] for n in sorted(expr.names(expr.parse(source))) if n in self.env}

    def check_claim(self, claim: Any, occurrences: list[matching.Occurrence]) -> None:
        """Check every output, negative and condition of one binding where its sentence is."""
        for occurrence in occurrences:
            quote = occurrence.quote(self.texts[occurrence.pointer])
            for slot in occurrence.slots:
                checks = []
                if slot.name in self.sources:  # an output, wherever the sentence defining it is
                    checks.append(("output", self.sources[slot.name]))
                if slot.name in claim.negatives:
                    checks.append(("negative", claim.negatives[slot.name][0]))
                for kind, source in checks:
                    if kind == "output":
                        value = self.env.get(slot.name)  # None: reported once already
                    else:
                        value = self.authored(source, claim.negatives[slot.name][1])
                    if value is None:
                        continue
                    values = np.atleast_1d(np.asarray(value, dtype=np.float64))
                    expected = len(slot.mentions) if slot.is_list else 1
                    if values.ndim != 1 or len(values) != expected:
                        self.at_mention(
                            slot.mentions[0],
                            "RLKL401",
                            f'claim "{quote}": {slot.name} has {expected} '
                            f"number(s) but {source} computes {values.size}",
                        )
                        continue
                    for index, mention in enumerate(slot.mentions):
                        label = slot.name + (f"[{index}]" if slot.is_list else "")
                        computed = float(values[index if slot.is_list else 0])
                        self.role(mention, kind)
                        ok = self.compare(
                            kind,
                            mention,
                            f"{claim.id}.{label}@{occurrence.pointer}",
                            f"{label} = {source}" if kind == "output" else source,
                            self.inputs_of(source),
                            computed,
                            negative=kind == "negative",
                            quote=quote,
                        )
                        if kind == "output" and not ok:
                            self.out.rewrites[mention.key] = computed
            if claim.holds:
                anchor = _first(occurrence)
                for index, (source, at) in enumerate(claim.holds):
                    outcome = self.authored(source, at)
                    if outcome is None:
                        continue
                    if not isinstance(outcome, (bool, np.bool_)):
                        self.at_binding(
                            at,
                            "RLKL421",
                            f"condition {source} must be true or "
                            f"false, but it computes {_plain(outcome)}",
                        )
                        continue
                    result = bool(outcome)
                    self.verdict(
                        "condition",
                        anchor,
                        f"{claim.id}.holds.{index}@{occurrence.pointer}",
                        source,
                        self.inputs_of(source),
                        result,
                        result,
                        ""
                        if result
                        else f"condition {source} is false with "
                        f"{_fmt_inputs(self.inputs_of(source))}",
                        quote,
                    )

    # -- exemptions and coverage --------------------------------------------------------
    def apply_exemptions(self) -> None:
        """Mark the numbers matched by exemption templates (and check pinned values)."""
        for exemption in self.bindings.exemptions if self.bindings else []:
            for occurrence in self.occurrences(exemption.template, exemption.template.where):
                for slot in occurrence.slots:
                    for mention in slot.mentions:
                        if mention.key in self.out.roles:
                            self.at_mention(
                                mention,
                                "RLKL411",
                                f"{mention.text} is exempt but also {self.out.roles[mention.key]}; "
                                "a number is either checked or exempt",
                            )
                            continue
                        self.out.roles[mention.key] = "exempt"
                        expected = exemption.equals.get(slot.name)
                        if expected is not None and mention.value != Decimal(expected):
                            self.at_mention(
                                mention,
                                "RLKL412",
                                f"{mention.text} is exempt as {{{slot.name}}}, which must be "
                                f"{expected}: {exemption.reason}",
                            )
                        self.out.exempt.append(
                            Exempt(
                                mention,
                                exemption.reason,
                                occurrence.quote(self.texts[occurrence.pointer]),
                            )
                        )

    def coverage(self) -> None:
        """Report every number that is neither checked nor exempt (RLKL410)."""
        for mention in self.out.mentions:
            if mention.key not in self.out.roles:
                self.at_mention(
                    mention,
                    "RLKL410",
                    f'the number {mention.text} in "{self.quote(mention)}" is not accounted '
                    "for: bind it in claims.yaml (checked) or exempt it with a reason",
                )


_CODES = {
    "output": "RLKL401",
    "core": "RLKL402",
    "arithmetic": "RLKL403",
    "negative": "RLKL404",
    "condition": "RLKL405",
    "quiz-key": "RLKL406",
    "distractor": "RLKL407",
    "misconception": "RLKL408",
}


def extract(
    document: Document, bindings: Bindings | None, *, coverage: bool = True
) -> LessonClaims:
    """All claims of one loaded lesson, checked; diagnostics for everything that fails.

    ``coverage=False`` skips the unaccounted-number errors (used when the bindings file
    itself is broken: its own diagnostics say what to fix first).
    """
    return Extraction(document, bindings, coverage).run()
