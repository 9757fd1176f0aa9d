"""The numeric core's version: what fixtures record as ``core``.

It changes only when a number :mod:`rlkl.core` (or a binding function built on it) computes
changes — not with the package version — so a release that touches no numerics does not
flag every fixture as drift. ``tests/core/test_core_version.py`` compares golden outputs
and fails when they change while this constant does not.
"""

CORE_VERSION = "1"
