"""The claim engine: every number in a lesson's prose, accounted for and checked.

Stages, each a module of functions from records to records (no stage imports one above it):

1. scan — :func:`rlkl.claims.scanner.scan`, :func:`rlkl.claims.extract.read_prose`:
   prose strings → :class:`Mention`
2. match bindings — :func:`rlkl.claims.bind.match_claims`: ``claims.yaml`` templates found
   in the prose
3. evaluate — :mod:`rlkl.claims.evaluate`, :mod:`~rlkl.claims.forms`,
   :mod:`~rlkl.claims.quiz`, :mod:`~rlkl.claims.coverage`: :class:`Verdict`, :class:`Exempt`
4. compare with fixtures — :mod:`rlkl.claims.fixtures`
5. report — :mod:`rlkl.claims.listing` here; diagnostics in :mod:`rlkl.check`

:func:`extract` runs stages 1–3 for one lesson and returns :class:`LessonClaims`.
The orchestration over paths (``rlkl check``) is :mod:`rlkl.check`; ``rlkl regen`` is
:mod:`rlkl.regen`.
"""

from __future__ import annotations

from rlkl.claims.bindings import FILENAME as BINDINGS_FILE
from rlkl.claims.bindings import Bindings, BindingsError, load_bindings
from rlkl.claims.extract import extract, read_prose
from rlkl.claims.fixtures import FILENAME as FIXTURES_FILE
from rlkl.claims.records import Exempt, LessonClaims, Located, Problem, Prose, Verdict
from rlkl.claims.scanner import Mention, scan
from rlkl.claims.source import locate

__all__ = [
    "BINDINGS_FILE",
    "FIXTURES_FILE",
    "Bindings",
    "BindingsError",
    "Exempt",
    "LessonClaims",
    "Located",
    "Mention",
    "Problem",
    "Prose",
    "Verdict",
    "extract",
    "load_bindings",
    "locate",
    "read_prose",
    "scan",
]
