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
* ``RLKL9xx`` — the run itself (a stage that failed on a lesson, a write refused).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any


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

    def to_json(self) -> dict[str, Any]:
        """The public JSON shape (key order as documented in the README)."""
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


# The single table of codes (code -> one-line meaning). The README's code table is generated
# from it (``python -m rlkl.diagnostics``) and a test keeps the two in step.
CODES: dict[str, str] = {
    # RLKL1xx: reading and parsing a file.
    "RLKL101": "file is not valid UTF-8",
    "RLKL102": "file starts with a byte-order mark",
    "RLKL103": "file is empty",
    "RLKL104": "file is larger than the size limit",
    "RLKL105": "invalid JSON syntax",
    "RLKL106": "data after the end of the JSON document",
    "RLKL107": "trailing comma before a closing bracket",
    "RLKL108": "duplicate key in an object",
    "RLKL109": "NaN or Infinity is not a JSON number",
    "RLKL110": "nesting deeper than the depth limit",
    "RLKL111": "file cannot be read",
    "RLKL112": "not a regular file (a folder, FIFO, device or socket): not read",
    "RLKL113": "folder cannot be read, so the lessons in it were not found",
    # RLKL2xx: schema and model rules of one document.
    "RLKL201": "required field is missing",
    "RLKL202": "unknown field (misspelt or not part of the format)",
    "RLKL203": "value has the wrong type",
    "RLKL204": "id or reference is not a slug",
    "RLKL205": "URL is not http(s)",
    "RLKL206": "value is not one of the allowed values",
    "RLKL207": "value breaks a constraint (length, range, pattern, count)",
    "RLKL208": "check.answer does not index an option",
    "RLKL209": "duplicate option in a check question",
    "RLKL210": "duplicate entry in a list of ids",
    "RLKL211": "date is not a real calendar date",
    # RLKL3xx: corpus rules (ids, references, catalog).
    "RLKL301": "two lessons share one id",
    "RLKL302": "lesson id differs from its folder name",
    "RLKL303": "reference names no lesson and no catalog entry",
    "RLKL304": "lesson references itself",
    "RLKL305": "prerequisite cycle",
    "RLKL306": "catalog lists a published lesson that has no lesson file",
    "RLKL307": "lesson is not listed in the catalog",
    "RLKL308": "duplicate id in the catalog",
    "RLKL309": "catalog says planned but the lesson file exists",
    # RLKL4xx: numeric claims in the prose.
    "RLKL401": "a computed number (binding output) does not hold at its written precision",
    "RLKL402": "a KL or entropy of literal distributions does not hold (or is infinite)",
    "RLKL403": "literal arithmetic (left side = number) does not hold",
    "RLKL404": "a negative claim is false: the number equals what it says it is not",
    "RLKL405": "a binding's condition (holds) is false",
    "RLKL406": "the quiz key (keyed option or explanation) is not the computed answer",
    "RLKL407": "a distractor equals the answer, or not the mistake it encodes",
    "RLKL408": "the misconception's value is the answer or no distractor's value",
    "RLKL410": "a number in the prose is neither checked nor exempt",
    "RLKL411": "a number is both exempt and checked",
    "RLKL412": "an exempt number differs from the value its exemption expects",
    "RLKL420": "a named quantity has different values in different places",
    "RLKL421": "an expression cannot be computed",
    "RLKL422": "the lesson's evaluation budget is spent (too many samples drawn in all)",
    "RLKL423": "two claims read one number in different roles (regen --fix refuses the lesson)",
    # RLKL5xx: fixtures.
    "RLKL501": "the lesson has claims but no fixtures file",
    "RLKL502": "stale fixtures: the prose or a claim changed since regen",
    "RLKL503": "orphaned fixture: the claim is no longer in the lesson",
    "RLKL504": "drift: the core now computes a different value (or is another version)",
    "RLKL505": "fixtures file does not match its schema",
    "RLKL510": "fixtures file records another lesson (its lesson id differs)",
    "RLKL511": "fixtures file records a claim or exempt number twice",
    "RLKL512": "two lesson files would share one fixtures file",
    # RLKL6xx: authored claim bindings (claims.yaml).
    "RLKL601": "bindings file is not valid YAML or does not match its schema",
    "RLKL602": "a sentence template has a number outside a {slot}",
    "RLKL603": "two claims share one id",
    "RLKL604": "where/not names something that is not a slot of the sentence",
    "RLKL605": "a quantity is computed by two claims",
    "RLKL606": "an expression is not valid or uses something not allowed",
    "RLKL607": "a sentence template is not found in the lesson (or a slot is not a number)",
    "RLKL608": "an expression uses an unknown quantity, or quantities depend on each other",
    "RLKL609": "bindings name a different lesson",
    "RLKL610": "a slot has the name of a function or constant",
    "RLKL611": "an output or quiz expression uses no quantity from the prose (a constant)",
    "RLKL612": "an input slot is read but no expression uses it",
    "RLKL613": "quiz.distractors names the key or an option that does not exist",
    "RLKL614": "a sentence template has no number slot (only units, or none)",
    "RLKL620": "a sentence template has a {slot} with an unknown kind or a format spec",
    # RLKL7xx: the published site.
    "RLKL701": "an equation cannot be rendered to MathML for the site (or holds markup)",
    # RLKL9xx: the run itself.
    "RLKL901": "rlkl failed on this lesson (an internal error); the other lessons were checked",
    "RLKL902": "regen refused to write outside the corpus (a symlink leads out of it)",
    "RLKL903": "usage error: an option or path given on the command line is not usable",
    "RLKL904": "no lesson found under the paths given",
    "RLKL905": "regen could not write or remove a file (permissions, a dangling symlink)",
    "RLKL906": "regen does not replace a read-only file",
}


def codes_table() -> str:
    """The Markdown table of every code, as the README shows it."""
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| `{code}` | {meaning} |" for code, meaning in sorted(CODES.items())]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(codes_table(), end="")
