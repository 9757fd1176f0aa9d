"""The claim engine: every number in a lesson's prose, accounted for and checked.

A folder per stage, each of modules of functions from records to records (no module imports
one above it; ``tests/test_architecture.py`` holds the layers):

1. ``prose/`` — the prose strings (:mod:`~rlkl.claims.prose.fields`, from the models) and
   the numbers in them (:func:`rlkl.claims.prose.scanner.scan`): :class:`Mention`
2. ``bindings/`` — ``claims.yaml`` read (:mod:`~rlkl.claims.bindings.reader`) into its
   :mod:`~rlkl.claims.bindings.model`, checked by :mod:`~rlkl.claims.bindings.rules`
3. ``templates/`` — each ``says`` sentence found in the prose and its numbers read
   (:func:`rlkl.claims.templates.bind.match_claims`)
4. ``evaluation/`` and ``forms/`` — every claim computed and judged at its written precision
   (:mod:`~rlkl.claims.evaluation.evaluate`, :mod:`~rlkl.claims.evaluation.quiz`), literal
   arithmetic and KL too (:mod:`~rlkl.claims.forms.forms`); ``equations/`` checks the
   equations against the same quantities; :mod:`~rlkl.claims.coverage` accounts for every
   number: :class:`Verdict`, :class:`Exempt`
5. ``fixtures/`` — the committed record, and what a difference from it means
   (:mod:`~rlkl.claims.fixtures.changes`)
6. :mod:`~rlkl.claims.report` — one :class:`~rlkl.claims.report.LessonReport` per lesson,
   which every consumer reads (:mod:`~rlkl.claims.listing` for ``rlkl claims``)

:func:`extract` runs stages 1–4 for one lesson and returns :class:`LessonClaims`.
The orchestration over paths (``rlkl check``) is :mod:`rlkl.check`; ``rlkl regen`` is
:mod:`rlkl.regen`.
"""

from __future__ import annotations

from rlkl.claims.bindings.model import FILENAME as BINDINGS_FILE
from rlkl.claims.bindings.model import Bindings, BindingsError
from rlkl.claims.bindings.reader import load_bindings
from rlkl.claims.extract import extract, read_prose
from rlkl.claims.fixtures.fixtures import FILENAME as FIXTURES_FILE
from rlkl.claims.prose.scanner import Mention, scan
from rlkl.claims.prose.source import locate
from rlkl.claims.records import Exempt, LessonClaims, Located, Problem, Prose, Verdict

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
