"""The one diagnostic type every pipeline stage produces, and the table of stable codes.

Library code returns :class:`Diagnostic` objects; only the CLI renders them and picks exit
codes. Codes are stable: a code, once published, keeps its meaning. Ranges:

* ``RLKL1xx`` — reading and parsing a file (encoding, JSON syntax, limits).
* ``RLKL2xx`` — schema and model rules of one document.
* ``RLKL3xx`` — corpus rules (ids, references, catalog).
* ``RLKL4xx`` — numeric claims (coverage, verification).
* ``RLKL5xx`` — fixtures (missing, stale, orphaned, drift).
* ``RLKL6xx`` — authored claim bindings (``claims.yaml``).
* ``RLKL7xx`` — the published site (what a page cannot show safely).
* ``RLKL8xx`` — the configuration (``rlkl.toml``, or ``[tool.rlkl]`` in ``pyproject.toml``).
* ``RLKL9xx`` — the run itself (a stage that failed on a lesson, a write refused).

``RLKL43x`` are equations (:mod:`rlkl.claims.equations.equations`), ``RLKL44x`` placeholders left by
``rlkl new`` (:mod:`rlkl.scaffold`).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any

from rlkl.numerals import SUPERSCRIPT_MINUS, SUPERSCRIPT_RUNS

_SUPERSCRIPT_MARKS = "".join(SUPERSCRIPT_RUNS) + SUPERSCRIPT_MINUS  # superscript digits and ⁻
# A run of 100 or more characters a number is written with (digits and superscript digits,
# ".", "e", signs, "%"), from a digit. Shorter runs are shown whole: a long decimal or a sum
# such as 0.1+0.2+0.3 may be the very point of a message.
_LONG_NUMBER = re.compile(rf"[\d{_SUPERSCRIPT_MARKS}][\d{_SUPERSCRIPT_MARKS}.eE%+\-\u2212]{{99,}}")


def brief(message: str) -> str:
    """``message`` with every run of 100 or more number characters (see ``_LONG_NUMBER``)
    shown by its first and last ten characters and its length, so a message never holds a
    lesson's run of 500,000 digits. What is recorded (fixtures, the JSON report's other
    fields, ``rlkl claims --format json``) keeps the text as written."""
    return _LONG_NUMBER.sub(
        lambda m: f"{m[0][:10]}…{m[0][-10:]} ({len(m[0]):,} characters)", message
    )


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One located problem: where (file, RFC 6901 pointer, 1-based line/column) and what."""

    file: str
    line: int
    column: int
    pointer: str
    code: str
    message: str
    severity: Severity = Severity.ERROR

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", brief(self.message))  # every message, one rule
        entry = CODES.get(self.code)
        if entry is not None:  # a code's severity is the table's, wherever it is reported
            object.__setattr__(self, "severity", entry.severity)

    def as_error(self) -> Diagnostic:
        """This diagnostic as an error: a preview rule's warning under ``preview = true``
        (:mod:`rlkl.rules`); the table's severity holds everywhere else."""
        raised = replace(self)
        object.__setattr__(raised, "severity", Severity.ERROR)
        return raised

    def to_json(self) -> dict[str, Any]:
        """The public JSON shape (key order as documented in "Validating lessons")."""
        data = asdict(self)
        return {
            "file": data["file"],
            "pointer": data["pointer"],
            "line": data["line"],
            "column": data["column"],
            "code": data["code"],
            "severity": self.severity.value,
            "message": data["message"],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Diagnostic:
        """The inverse of :meth:`to_json`; raises ``KeyError``/``ValueError`` on other data."""
        return cls(data["file"], int(data["line"]), int(data["column"]), data["pointer"],
                   data["code"], data["message"], Severity(data["severity"]))


@dataclass(frozen=True)
class Code:
    """One entry of the codes table: a kebab-case name (as ruff names its rules), a one-line
    meaning, an example that triggers it, how to fix it (``rlkl explain``), and its severity
    (every diagnostic of the code has it)."""

    name: str
    meaning: str
    example: str
    fix: str
    severity: Severity = Severity.ERROR
    kind: str = ""  # the kind of claim whose failing verdict reports this code (RLKL401-408)
    preview: str = ""  # a new rule's release as an error: a warning until then (see rlkl.rules)

    def __str__(self) -> str:
        return self.meaning


# The single table of codes. Diagnostics take their severity from it, ``rlkl explain`` its
# text, and the site's rules reference is generated from it when the site is built
# (``python -m rlkl.diagnostics`` prints the table). A code, or a name, is never given
# another meaning.
CODES: dict[str, Code] = {
    # RLKL1xx: reading and parsing a file.
    "RLKL101": Code(
        "not-utf8",
        "file is not valid UTF-8",
        "a lesson saved as Latin-1, so é is the single byte 0xE9",
        "save the file as UTF-8 (your editor's encoding menu), without a byte-order mark",
    ),
    "RLKL102": Code(
        "byte-order-mark",
        "file starts with a byte-order mark",
        "a file saved by an editor that writes EF BB BF before the first {",
        "save as UTF-8 without BOM",
    ),
    "RLKL103": Code(
        "empty-file",
        "file is empty",
        "lesson.json with zero bytes, e.g. after an interrupted copy",
        "write the lesson (`rlkl new ID` creates a valid skeleton)",
    ),
    "RLKL104": Code(
        "file-too-large",
        "file is larger than the size limit",
        "a lesson larger than 1 MiB, e.g. with an embedded base64 image",
        "keep lessons to prose and numbers; link large assets instead",
    ),
    "RLKL105": Code(
        "invalid-json",
        "invalid JSON syntax",
        "a missing comma or quote: {\"id\": \"x\" \"name\": \"y\"}",
        "fix the JSON at the line and column shown (the message says what was expected)",
    ),
    "RLKL106": Code(
        "data-after-json",
        "data after the end of the JSON document",
        "two objects in one file, or text after the closing }",
        "keep exactly one JSON object per lesson file",
    ),
    "RLKL107": Code(
        "trailing-comma",
        "trailing comma before a closing bracket",
        "[\"a\", \"b\",] or {\"id\": \"x\",}",
        "delete the comma before the closing bracket",
    ),
    "RLKL108": Code(
        "duplicate-key",
        "duplicate key in an object",
        "an object with \"name\" written twice",
        "keep one of the two members (the second would silently win elsewhere)",
    ),
    "RLKL109": Code(
        "nan-or-infinity",
        "NaN or Infinity is not a JSON number",
        "\"value\": NaN or Infinity",
        "write a real number, or the value as prose",
    ),
    "RLKL110": Code(
        "nesting-too-deep",
        "nesting deeper than the depth limit",
        "lists nested more than 64 deep",
        "flatten the structure; lessons never need that depth",
    ),
    "RLKL111": Code(
        "unreadable-file",
        "file cannot be read",
        "a lesson path that is a broken link or unreadable",
        "check the file's permissions and that it exists",
    ),
    "RLKL112": Code(
        "not-a-regular-file",
        "not a regular file (a folder, FIFO, device or socket): not read",
        "content/x/lesson.json is a folder, or a named pipe left by a tool",
        "replace it with a regular file (a symlink to a regular file is fine)",
    ),
    "RLKL113": Code(
        "unreadable-folder",
        "folder cannot be read, so the lessons in it were not found",
        "a content folder without read or execute permission",
        "give the folder read and execute permission (chmod u+rx) or leave it out of the paths",
    ),
    # RLKL2xx: schema and model rules of one document.
    "RLKL201": Code(
        "missing-field",
        "required field is missing",
        "a lesson without \"learningObjective\"",
        "add the field (the message names it; `rlkl new` shows every required field)",
    ),
    "RLKL202": Code(
        "unknown-field",
        "unknown field (misspelt or not part of the format)",
        "\"engineeringExampel\" instead of \"engineeringExample\"",
        "fix the spelling, or remove a field the format does not have",
    ),
    "RLKL203": Code(
        "wrong-type",
        "value has the wrong type",
        "\"mechanism\": \"one step\" where a list of strings is expected",
        "write the value with the type the message names",
    ),
    "RLKL204": Code(
        "not-a-slug",
        "id or reference is not a slug",
        "\"prerequisites\": [\"PPO Basics\"]",
        "use the lesson's id: lowercase words joined by single hyphens (ppo-basics)",
    ),
    "RLKL205": Code(
        "non-http-url",
        "URL is not http(s)",
        "\"url\": \"ftp://example.org/paper.pdf\"",
        "link the source over http(s)",
    ),
    "RLKL206": Code(
        "not-an-allowed-value",
        "value is not one of the allowed values",
        "an interface with \"direction\": \"input\"",
        "use one of the values the message lists (here: in, out)",
    ),
    "RLKL207": Code(
        "constraint-broken",
        "value breaks a constraint (length, range, pattern, count)",
        "\"options\": [\"only one\"] (at least two are required)",
        "meet the constraint the message states",
    ),
    "RLKL208": Code(
        "answer-out-of-range",
        "check.answer does not index an option",
        "\"answer\": 3 with three options (numbered 0 to 2)",
        "set answer to the 0-based index of the correct option",
    ),
    "RLKL209": Code(
        "duplicate-option",
        "duplicate option in a check question",
        "two options that differ only in spacing or case",
        "make every option a different answer",
    ),
    "RLKL210": Code(
        "duplicate-id-in-list",
        "duplicate entry in a list of ids",
        "\"related\": [\"kl-basics\", \"kl-basics\"]",
        "list each id once",
    ),
    "RLKL211": Code(
        "invalid-date",
        "date is not a real calendar date",
        "\"date\": \"2026-02-30\"",
        "write a real date, YYYY-MM-DD",
    ),
    # RLKL3xx: corpus rules (ids, references, catalog).
    "RLKL301": Code(
        "duplicate-lesson-id",
        "two lessons share one id",
        "two lesson folders whose lesson.json both say \"id\": \"ppo\"",
        "give each lesson its own id (and folder)",
    ),
    "RLKL302": Code(
        "id-not-folder-name",
        "lesson id differs from its folder name",
        "content/ppo-basics/lesson.json with \"id\": \"ppo-basic\"",
        "make the id equal the folder name (or rename the folder)",
    ),
    "RLKL303": Code(
        "unknown-reference",
        "reference names no lesson and no catalog entry",
        "\"prerequisites\": [\"gae\"] with no lesson or catalog entry gae",
        "fix the id, or add the lesson to content/catalog.json as planned",
    ),
    "RLKL304": Code(
        "self-reference",
        "lesson references itself",
        "a lesson listing its own id under related",
        "remove the self-reference",
    ),
    "RLKL305": Code(
        "prerequisite-cycle",
        "prerequisite cycle",
        "a requires b, b requires a",
        "break the cycle: one of the two is not a prerequisite",
    ),
    "RLKL306": Code(
        "published-lesson-missing",
        "catalog lists a published lesson that has no lesson file",
        "catalog entry \"status\": \"published\" with no content/<id>/lesson.json",
        "add the lesson, or mark the entry planned",
        severity=Severity.WARNING,
    ),
    "RLKL307": Code(
        "lesson-not-in-catalog",
        "lesson is not listed in the catalog",
        "a new lesson folder without a catalog entry",
        "add {\"id\", \"title\", \"status\": \"published\"} to content/catalog.json "
        "(`rlkl new` does it)",
        severity=Severity.WARNING,
    ),
    "RLKL308": Code(
        "duplicate-catalog-id",
        "duplicate id in the catalog",
        "the catalog lists the same id twice",
        "keep one entry per id",
    ),
    "RLKL309": Code(
        "planned-lesson-exists",
        "catalog says planned but the lesson file exists",
        "catalog says planned, but content/<id>/lesson.json exists",
        "set the entry's status to published",
        severity=Severity.WARNING,
    ),
    # RLKL4xx: numeric claims in the prose.
    "RLKL401": Code(
        "computed-number-wrong",
        "a computed number (binding output) does not hold at its written precision",
        "claims.yaml computes ratio: ppo_ratio_from_probs(p_new, p_old) and the prose says \"ratio"
        " is 1.5\" for 0.7 / 0.5",
        "correct the number (or run `rlkl regen --fix` after a deliberate input change)",
        kind="output",
    ),
    "RLKL402": Code(
        "kl-or-entropy-wrong",
        "a KL or entropy of literal distributions does not hold (or is infinite)",
        "\"KL([0.7,0.3] || [0.5,0.5]) is 0.087 nats\" (it is 0.082283)",
        "write the value rlkl computed, or fix the distributions",
        kind="core",
    ),
    "RLKL403": Code(
        "arithmetic-wrong",
        "literal arithmetic (left side = number) does not hold",
        "\"min(1.4×2,1.2×2)=2.8\" (the minimum is 2.4)",
        "correct the right-hand side or the arithmetic",
        kind="arithmetic",
    ),
    "RLKL404": Code(
        "negative-claim-false",
        "a negative claim is false: the number equals what it says it is not",
        "\"... is 0.082283 nats, not 0.08\" (0.08 equals the value at 2 decimals)",
        "write a number that really differs, or more decimals",
        kind="negative",
    ),
    "RLKL405": Code(
        "condition-false",
        "a binding's condition (holds) is false",
        "holds: [kl_value < ratio] when the KL is larger",
        "fix the prose numbers or the condition",
        kind="condition",
    ),
    "RLKL406": Code(
        "quiz-key-wrong",
        "the quiz key (keyed option or explanation) is not the computed answer",
        "check.answer points at \"−2.4, ...\" but quiz.answer computes −2.8",
        "key the right option, or correct its first number and the explanation's",
        kind="quiz-key",
    ),
    "RLKL407": Code(
        "distractor-not-its-mistake",
        "a distractor equals the answer, or not the mistake it encodes",
        "a distractor whose first number equals the answer",
        "make every distractor's number differ from the answer (and equal its mistake)",
        kind="distractor",
    ),
    "RLKL408": Code(
        "misconception-not-a-distractor",
        "the misconception's value is the answer or no distractor's value",
        "misconception \"It is a mistake to conclude: −2.8 ...\" where −2.8 is the answer",
        "state a wrong value that one distractor also gives",
        kind="misconception",
    ),
    "RLKL410": Code(
        "number-unaccounted",
        "a number in the prose is neither checked nor exempt",
        "\"the t-th step, t = 3\" with no binding or exemption for 3",
        "bind the number in claims.yaml (claims:) or exempt it with a reason (exempt:)",
    ),
    "RLKL411": Code(
        "exempt-and-checked",
        "a number is both exempt and checked",
        "a number matched by a claim template and by an exemption",
        "remove it from one of the two",
    ),
    "RLKL412": Code(
        "exempt-value-differs",
        "an exempt number differs from the value its exemption expects",
        "exempt with equals: {one: 1}, and the prose writes r − 2",
        "fix the prose, or the expected value",
    ),
    "RLKL420": Code(
        "conflicting-input",
        "a named quantity has different values in different places",
        "\"advantage +2\" in one field and \"advantage 3\" in another, both slot {A}",
        "write the same value everywhere, or use two slot names",
    ),
    "RLKL421": Code(
        "expression-not-computable",
        "an expression cannot be computed",
        "kl_divergence(p, q) with q = [0.5, 0.6] (does not sum to 1)",
        "fix the inputs in the prose so the function accepts them",
    ),
    "RLKL422": Code(
        "evaluation-budget-spent",
        "the lesson's evaluation budget is spent (too many samples drawn in all)",
        "claims that call an estimator with millions of samples, many times in one lesson",
        "use fewer samples in the claims (a lesson's numbers need few), or split the lesson",
    ),
    "RLKL423": Code(
        "number-read-two-ways",
        "two claims read one number in different roles (regen --fix refuses the lesson)",
        "one claim reads \"0.7\" as an input while another computes it as an output",
        "bind the number once (one claim reads the other's quantity) or narrow one template",
    ),
    # RLKL43x: equations (science[].equation) checked against the core.
    "RLKL430": Code(
        "equation-unaccounted",
        "an equation's relation is neither checked nor exempt",
        "science[0].equation is \"k_1=-\\\\log r\" and claims.yaml has no equations: entry for it",
        "bind the relation (in, relation, is, grid) under equations:, or exempt it with a reason",
    ),
    "RLKL431": Code(
        "equation-disagrees",
        "an equation does not agree with the core function its binding names",
        "J_{clip}=\\\\max(rA, ...) bound to ppo_clip_objective(r, A, epsilon)",
        "fix the equation (the message shows the first grid point where it differs), or the "
        "binding",
    ),
    "RLKL432": Code(
        "equation-unreadable",
        "an equation cannot be read (outside the supported LaTeX subset)",
        "an equation with \\\\begin{cases}, or a symbol rlkl cannot read",
        "rewrite it in the supported subset (the authoring guide), or exempt it with a reason",
    ),
    "RLKL433": Code(
        "equation-binding-invalid",
        "an equations binding names no relation, or its grid misses a symbol",
        "equations: relation: J names no relation, or grid misses a symbol of the equation",
        "name the relation's left side as written, and give every symbol a grid",
    ),
    "RLKL434": Code(
        "equation-not-computable",
        "an equation or its binding cannot be computed on the grid",
        "is: kl_divergence(p, q) on a grid where q is not a distribution",
        "choose grid values the core function accepts",
    ),
    # RLKL44x: placeholders left by `rlkl new`.
    "RLKL440": Code(
        "placeholder-left",
        "a placeholder from `rlkl new` is still in the lesson",
        "\"description\": \"TODO(rlkl new): ...\" left from the scaffold",
        "write what the placeholder asks for",
    ),
    "RLKL441": Code(
        "placeholder-link-left",
        "a placeholder link from `rlkl new` is still in the lesson",
        "\"url\": \"https://example.org/TODO-rlkl-new\" left from the scaffold",
        "write the http(s) link to the primary source",
    ),
    # RLKL5xx: fixtures.
    "RLKL501": Code(
        "fixtures-missing",
        "the lesson has claims but no fixtures file",
        "a lesson with claims and no content/<id>/fixtures.json",
        "run `rlkl regen` and commit fixtures.json",
    ),
    "RLKL502": Code(
        "fixtures-stale",
        "stale fixtures: the prose or a claim changed since regen",
        "the prose changed after the last regen",
        "review the change, run `rlkl regen`, commit the fixture diff",
    ),
    "RLKL503": Code(
        "fixture-orphaned",
        "orphaned fixture: the claim is no longer in the lesson",
        "a claim was removed from claims.yaml but is still in fixtures.json",
        "run `rlkl regen`",
    ),
    "RLKL504": Code(
        "fixtures-drift",
        "drift: the core now computes a different value (or is another version)",
        "rlkl.core now computes 2.39 where the fixture recorded 2.4",
        "find out why the core changed; regen only if the new value is right",
    ),
    "RLKL505": Code(
        "fixtures-schema",
        "fixtures file does not match its schema",
        "fixtures.json edited by hand, or damaged",
        "never edit fixtures; run `rlkl regen`",
    ),
    "RLKL510": Code(
        "fixtures-of-another-lesson",
        "fixtures file records another lesson (its lesson id differs)",
        "a fixtures.json copied from another lesson folder",
        "run `rlkl regen` on this lesson to write its own fixtures",
    ),
    "RLKL511": Code(
        "fixture-recorded-twice",
        "fixtures file records a claim or exempt number twice",
        "a hand-edited or badly merged fixtures.json with one claim id twice",
        "run `rlkl regen` (fixtures are generated, never edited by hand)",
    ),
    "RLKL512": Code(
        "fixtures-shared",
        "two lesson files would share one fixtures file",
        "two lesson JSON files in one folder, or a fixtures.json that links to another lesson's",
        "keep one lesson per folder (content/ID/lesson.json)",
    ),
    # RLKL6xx: authored claim bindings (claims.yaml).
    "RLKL601": Code(
        "bindings-invalid",
        "bindings file is not valid YAML or does not match its schema",
        "claims.yaml with a tab indent, an unknown key \"were:\", or a YAML alias",
        "fix the YAML at the line shown; the schema's hover docs list every key",
    ),
    "RLKL602": Code(
        "number-outside-slot",
        "a sentence template has a number outside a {slot}",
        "says: \"ratio is 1.{digits}\" or \"k1 = {k}\" with a literal digit",
        "replace every number of the sentence by a {slot}",
    ),
    "RLKL603": Code(
        "duplicate-claim-id",
        "two claims share one id",
        "two claims with id: ratio",
        "give every claim its own id",
    ),
    "RLKL604": Code(
        "unknown-slot-in-where",
        "where/not names something that is not a slot of the sentence",
        "where: {ratoi: ...} for the slot {ratio}",
        "name a slot of the claim's own sentence",
    ),
    "RLKL605": Code(
        "quantity-computed-twice",
        "a quantity is computed by two claims",
        "two claims each with where: {ratio: ...}",
        "compute each quantity once; other sentences just mention the slot",
    ),
    "RLKL606": Code(
        "expression-invalid",
        "an expression is not valid or uses something not allowed",
        "where: {ratio: __import__('os')} or a syntax error",
        "use arithmetic, slot names and the functions the authoring guide lists",
    ),
    "RLKL607": Code(
        "template-not-found",
        "a sentence template is not found in the lesson (or a slot is not a number)",
        "says: \"ratio is {ratio}\" while the prose says \"the ratio is 1.4\" only inside another "
        "field than `in`",
        "quote the sentence exactly as written (spaces, dashes, punctuation), or fix `in`",
    ),
    "RLKL608": Code(
        "unknown-or-cyclic-quantity",
        "an expression uses an unknown quantity, or quantities depend on each other",
        "where: {a: b + 1, b: a - 1}, or a name no sentence reads",
        "read every name from a sentence, and break the cycle",
    ),
    "RLKL609": Code(
        "bindings-for-another-lesson",
        "bindings name a different lesson",
        "lesson: ppo-basics in the claims.yaml of another lesson",
        "set lesson: to the folder's lesson id",
    ),
    "RLKL610": Code(
        "slot-shadows-function",
        "a slot has the name of a function or constant",
        "a slot named {min} or {pi}",
        "rename the slot",
    ),
    "RLKL611": Code(
        "constant-expression",
        "an output or quiz expression uses no quantity from the prose (a constant)",
        "where: {ratio: \"1.4\"}",
        "compute the value from the sentence's inputs",
    ),
    "RLKL612": Code(
        "unused-input",
        "an input slot is read but no expression uses it",
        "says: \"with epsilon {eps}\" and no expression uses eps",
        "use the input in an expression, or exempt the number with a reason",
    ),
    "RLKL613": Code(
        "distractor-names-key",
        "quiz.distractors names the key or an option that does not exist (or quiz.mistakes "
        "an option without a distractor expression)",
        "quiz.distractors: {\"0\": ...} when option 0 is the key, or index 5 of 3 options",
        "name only the indexes of other, existing options (in quiz.mistakes, of distractors)",
    ),
    "RLKL614": Code(
        "template-without-number",
        "a sentence template has no number slot (only units, or none)",
        "says: \"in {unit:unit}\" or a sentence without any {slot}",
        "quote a sentence with at least one number slot ({name} or {name:list})",
    ),
    "RLKL615": Code(
        "explore-not-an-input",
        "explore: names a quantity that is not an input a page can change",
        "explore: {ratio: ...} where ratio is computed, or a name no sentence reads",
        "name an input slot read from the prose (one number, or a two-action distribution)",
    ),
    "RLKL616": Code(
        "explore-range-misses-value",
        "an explore: range is empty, has too many points, or misses the authored value",
        "explore: {eps: {from: 0.05, to: 0.5, step: 0.1}} when the lesson writes ε = 0.2",
        "choose from and step so that the authored value is a point, with at most 41 points",
    ),
    "RLKL617": Code(
        "plot-not-drawable",
        "the plot: cannot be drawn: x is not an input a page can change, or y is not one "
        "number computed from x",
        "plot: {x: ratio, y: obj} where ratio is computed, or y does not read x",
        "plot an output (one number) against an input it is computed from",
    ),
    "RLKL620": Code(
        "invalid-slot-kind",
        "a sentence template has a {slot} with an unknown kind or a format spec",
        "says: \"ratio is {ratio:d}\" or {ratio!r}",
        "write plain {name} slots; the number is read at its written precision",
    ),
    "RLKL621": Code(
        "adjacent-slots",
        "a sentence template has two number slots with no text between them",
        "says: \"ratio {r}{A}\" (where does r end and A begin in 1.42?)",
        "write the text between the two numbers, as the lesson does",
    ),
    # RLKL7xx: the published site.
    "RLKL701": Code(
        "equation-not-renderable",
        "an equation cannot be rendered to MathML for the site (or holds markup)",
        "science[0].equation = \"\\text{<script>}\" or \"\\href{javascript:...}{x}\"",
        "write the equation as plain LaTeX math; the site renders MathML elements only",
    ),
    # RLKL8xx: the configuration. 801-808 stop a command before it reads a lesson (exit 2).
    "RLKL801": Code(
        "invalid-config-file",
        "the configuration file is not valid TOML (or cannot be read)",
        "rlkl.toml with `select = [\"RLKL4\"` (the list is never closed)",
        "fix the TOML at the line and column shown",
    ),
    "RLKL802": Code(
        "unknown-config-key",
        "unknown configuration key (misspelt, or not one rlkl has)",
        "`selct = [\"RLKL4\"]` in [tool.rlkl]",
        "fix the spelling; `rlkl init` writes a file with every key, and the documentation "
        "lists them",
    ),
    "RLKL803": Code(
        "invalid-config-value",
        "a configuration value has the wrong type or is out of range",
        "`jobs = \"two\"`, or `preview = 1` instead of `preview = true`",
        "write a value of the type the key's documentation gives",
    ),
    "RLKL804": Code(
        "unknown-code-selector",
        "a rule selector names no code, code name or code prefix",
        "`ignore = [\"RLKL499\"]`, or `ignore = [\"equation-unaccountd\"]` (a name misspelt)",
        "name a code of `rlkl explain`'s table (RLKL430), its name (equation-"
        "unaccounted), a prefix (RLKL43) or ALL",
    ),
    "RLKL805": Code(
        "rule-cannot-be-ignored",
        "this code cannot be ignored: a lesson it stops is never checked",
        "`ignore = [\"RLKL105\"]`: a lesson that is not JSON has no numbers to check",
        "fix the file instead; only rules about a lesson that was read (RLKL3xx-7xx) can be "
        "ignored",
    ),
    "RLKL806": Code(
        "content-folder-missing",
        "a content folder named in the configuration does not exist",
        "`content = [\"lessons\"]` in a repository whose lessons are in content/",
        "name the folder that holds <id>/lesson.json (relative to the configuration file)",
    ),
    "RLKL807": Code(
        "function-module-unusable",
        "a module of your own functions cannot be used (import, __all__ or version)",
        "`functions = [\"lesson_functions\"]` whose module raises on import, lists no "
        "__all__, or has no version",
        "fix the module: it must import, list its functions in __all__ and set "
        "RLKL_FUNCTIONS_VERSION (or __version__, or be an installed package)",
    ),
    "RLKL808": Code(
        "function-name-taken",
        "a function of your own takes a name rlkl or another module already gives meaning to",
        "a module of your own that defines `ppo_clip_objective` or `exp`",
        "rename your function (a binding could not tell the two apart)",
    ),
    "RLKL810": Code(
        "unused-per-path-ignore",
        "a per-path ignore matched checked files but suppressed nothing: the rule holds there",
        "`per-path-ignores = {\"content/legacy/**\" = [\"RLKL430\"]}` after every "
        "equation of content/legacy/ was bound",
        "remove the code from the pattern (the lessons it covers now pass the rule)",
        severity=Severity.WARNING,
        preview="0.2.0",
    ),
    # RLKL9xx: the run itself.
    "RLKL901": Code(
        "internal-error",
        "rlkl failed on this lesson (an internal error); the other lessons were checked",
        "a bug in rlkl met by an unusual lesson",
        "report it with the lesson attached; meanwhile the other lessons' results stand",
    ),
    "RLKL902": Code(
        "write-outside-corpus",
        "regen refused to write outside the corpus (a symlink leads out of it)",
        "content/x/fixtures.json is a symbolic link to a file outside content/",
        "replace the link by a regular file (or remove it) and run regen again",
    ),
    "RLKL903": Code(
        "usage-error",
        "usage error: an option or path given on the command line is not usable",
        "rlkl check --format yaml, or a path that does not exist",
        "run the command with --help for its options; give a path that exists",
    ),
    "RLKL904": Code(
        "no-lesson-found",
        "no lesson found under the paths given",
        "rlkl check docs/, a folder with no lesson.json below it",
        "point rlkl at the content folder (or a lesson folder in it)",
    ),
    "RLKL905": Code(
        "write-failed",
        "regen could not write or remove a file (permissions, a dangling symlink)",
        "regen in a folder the user may not write, or a fixtures.json that is a symlink to nothing",
        "make the folder writable, or replace the dangling symlink by a file",
    ),
    "RLKL906": Code(
        "read-only-file",
        "regen does not replace a read-only file",
        "a fixtures.json made read-only with chmod a-w",
        "make it writable (chmod u+w) if it should be regenerated",
    ),
    # RLKL907 (a lesson changed between regen's validation and its worker) is retired:
    # regen's workers validate what they write. Its number is never given to another meaning.
    "RLKL908": Code(
        "file-too-large-to-write",
        "regen did not write a file larger than rlkl reads (1 MiB)",
        "the fixtures of a lesson that exempts 16,000 numbers, one entry each",
        "state fewer numbers in the lesson, or split it into two lessons",
    ),
}


def lookup(text: str) -> str | None:
    """The code ``text`` names: a code (``RLKL401``, ``rlkl401``, ``401``) or its name
    (``computed-number-wrong``); None when it names none."""
    key = text.strip()
    if key.lower() in _BY_NAME:
        return _BY_NAME[key.lower()]
    key = key.upper()
    key = key if key.startswith("RLKL") else f"RLKL{key}"
    return key if key in CODES else None


def code(name: str) -> str:
    """The code of the table entry named ``name`` (``code("conflicting-input")`` is
    ``"RLKL420"``): how logic elsewhere names a code. Raises ``KeyError`` for no name."""
    return _BY_NAME[name]


def explain(text: str) -> str | None:
    """What a code means, an example that triggers it and how to fix it (None: unknown).

    The code may be written ``RLKL401``, ``rlkl401``, ``401`` or by its name.
    """
    key = lookup(text)
    if key is None:
        return None
    entry = CODES[key]
    lines = [f"{key} {entry.name} ({severity_text(entry)}): {entry.meaning}",
             "", "Example:", f"  {entry.example}", "", "How to fix:", f"  {entry.fix}"]
    if entry.preview:
        lines += ["", "Preview rule:", f"  a warning until rlkl {entry.preview}, then an error; "
                  "`preview = true` in the configuration (or --preview) makes it one now"]
    return "\n".join(lines) + "\n"


def severity_text(entry: Code) -> str:
    """A code's severity as the table and ``rlkl explain`` show it (a preview rule's names
    the release that makes it an error)."""
    if entry.preview:
        return f"{entry.severity.value}; preview, an error from {entry.preview}"
    return entry.severity.value


def codes_table() -> str:
    """The Markdown table of every code, as the rules reference shows it."""
    rows = ["| code | name | severity | meaning |", "|---|---|---|---|"]
    rows += [f"| `{key}` | `{entry.name}` | {severity_text(entry)} | {entry.meaning} |"
             for key, entry in sorted(CODES.items())]
    return "\n".join(rows) + "\n"


_BY_NAME = {entry.name: key for key, entry in CODES.items()}
FAILING = {entry.kind: key for key, entry in CODES.items() if entry.kind}
"""Claim kind -> the code a failing verdict of that kind reports."""


if __name__ == "__main__":
    print(codes_table(), end="")
