"""The one diagnostic type every pipeline stage produces, and the table of stable codes.

Library code returns :class:`Diagnostic` objects; only the CLI renders them and picks exit
codes. Codes are stable: a code, once published, keeps its meaning. Ranges:

* ``RLKL1xx`` — reading and parsing a file (encoding, JSON syntax, limits).
* ``RLKL2xx`` — schema and model rules of one document.
* ``RLKL3xx`` — corpus rules (ids, references, catalog).
* ``RLKL4xx`` — numeric claims (coverage, verification).
* ``RLKL5xx`` — fixtures (missing, stale, orphaned, drift).
* ``RLKL6xx`` — authored claim bindings.
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
# from it (``rlkl codes``) and a test keeps the two in step.
CODES: dict[str, str] = {}
