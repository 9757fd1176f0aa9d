"""The one vocabulary of how a claim, a number or an equation stands.

Every consumer — ``rlkl check``, ``regen``, ``rlkl claims``, the pytest plugin and the site —
shows these values and no other; the rule that gives a number its status is
:func:`rlkl.claims.report.number_status`, defined once.

Against the committed fixtures (:class:`rlkl.claims.fixtures.changes.Change`): ``verified``,
``failed``, ``new``, ``stale``, ``drift``, ``orphaned``, ``missing``. A number besides
those: ``input`` (read from the prose, or an intermediate of worked arithmetic), ``exempt``
(its exemption is recorded), ``unaccounted`` (neither checked nor exempt). An equation's
relation: ``verified``, ``failed``, ``exempt``, ``unreadable`` (the reader could not parse
it) or ``unbound`` (neither bound nor exempt).
"""

from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    """How a claim, number or equation stands (see the module docstring)."""

    VERIFIED = "verified"
    FAILED = "failed"
    NEW = "new"
    STALE = "stale"
    DRIFT = "drift"
    ORPHANED = "orphaned"
    MISSING = "missing"
    INPUT = "input"
    EXEMPT = "exempt"
    UNACCOUNTED = "unaccounted"
    UNREADABLE = "unreadable"
    UNBOUND = "unbound"

    @property
    def settled(self) -> bool:
        """Nothing for an author to do: the number is checked, exempt or an input."""
        return self in _SETTLED

    @property
    def shown(self) -> str:
        """The value as listings print it: upper case where an author has to act."""
        return self.value if self.settled else self.value.upper()


_SETTLED = frozenset({Status.VERIFIED, Status.INPUT, Status.EXEMPT})
