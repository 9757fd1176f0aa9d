"""Stage 4, compare with fixtures: the one definition of verified, stale, orphaned and drift.

:func:`compare` sets the fresh fixture of a lesson (:func:`rlkl.claims.fixtures.build`)
against the committed one and returns one :class:`Change` per claim, per exempt number and
per file-level fact. Every consumer reads these records — ``rlkl check`` (diagnostics),
``rlkl regen`` (what to write), ``rlkl claims`` (row status), the pytest plugin (item
outcomes) and the site (verified badges) — so they cannot disagree.

Record shape (stable; the site relies on it):

``status``
    ``verified`` the claim holds and its fixture says so (numbers up to float noise, as
    :mod:`rlkl.claims.recorded` defines it for every recorded value, and minus glyphs);
    ``failed`` the prose number is wrong (the verdict says why); ``new`` no fixture
    records the claim yet; ``stale`` the fixture records it with different text, inputs or
    expression (``fields`` names them); ``drift`` same claim, but the value computed now
    differs from the recorded one, or the fixtures were computed by another core version;
    ``orphaned`` the fixture records a claim or exempt number the lesson no longer has;
    ``missing`` the lesson has claims but no fixtures file.
``subject``
    ``claim``, ``exempt`` or ``fixtures`` (a fact about the whole file).
``id``
    the claim id; for an exempt number ``exempt:<pointer>@<start>``; for the file ``core``,
    ``lesson``, ``format`` or ``file`` (missing).
``verdict`` / ``exempt``
    the fresh record (None when orphaned or file-level).
``index``
    position in the committed file's ``claims`` / ``exempt`` list (orphaned entries).
``fields``, ``recorded``, ``computed``
    what changed: field names (stale), the recorded and the fresh value (drift, core).
``current``
    the committed entry already says exactly this (``regen`` rewrites only what is not).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rlkl.claims.recorded import kept, same
from rlkl.claims.records import Exempt, LessonClaims, Verdict
from rlkl.claims.scanner import MINUSES
from rlkl.claims.status import Status

__all__ = ["Change", "Status", "compare", "message", "up_to_date"]


@dataclass(frozen=True)
class Change:
    """One claim, exempt number or file-level fact, compared with the committed fixtures."""

    status: Status
    subject: str  # claim | exempt | fixtures
    id: str
    verdict: Verdict | None = None
    exempt: Exempt | None = None
    index: int | None = None
    fields: tuple[str, ...] = ()
    recorded: Any = None
    computed: Any = None
    current: bool = False
    text: str = ""  # the number as written (a claim or an exempt number; from its record)

    def __post_init__(self) -> None:
        fresh = self.verdict or self.exempt
        if fresh is not None and not self.text:
            object.__setattr__(self, "text", fresh.mention.text)

    @property
    def ok(self) -> bool:
        """Whether this is a pass for every consumer."""
        return self.status is Status.VERIFIED

    def to_json(self) -> dict[str, Any]:
        """The record without the fresh verdict or exemption (what a report keeps)."""
        return {"status": self.status.value, "subject": self.subject, "id": self.id,
                "index": self.index, "fields": list(self.fields), "recorded": self.recorded,
                "computed": self.computed, "current": self.current, "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Change:
        return cls(Status(data["status"]), data["subject"], data["id"], index=data["index"],
                   fields=tuple(data["fields"]), recorded=data["recorded"],
                   computed=data["computed"], current=data["current"], text=data["text"])


# Not compared for staleness: results (compared for drift) and where the number sits in its
# string (text inserted earlier in a field moves it without changing the claim).
_VOLATILE = ("computed", "verified", "span")
_MINUS_GLYPHS = str.maketrans(dict.fromkeys(MINUSES, "-"))


def _glyphs(value: Any) -> Any:
    """Text with every minus look-alike as ``-``: writing −2.8 as -2.8 changes no claim."""
    return value.translate(_MINUS_GLYPHS) if isinstance(value, str) else value


def _current(recorded: Mapping[str, Any], fresh: Mapping[str, Any]) -> bool:
    """The recorded entry says exactly what ``regen`` would write for the fresh one: its
    numbers the same up to float noise and canonical (:func:`rlkl.claims.recorded.kept`),
    everything else as it is."""
    return bool(kept(fresh, recorded) == dict(recorded))


def _changed(recorded: Mapping[str, Any], fresh: Mapping[str, Any]) -> list[str]:
    """The fields (other than volatile ones) whose recorded value differs (numbers up to
    float noise, :func:`rlkl.claims.recorded.same`; minus glyphs alike)."""
    return [
        k
        for k in fresh
        if k not in _VOLATILE
        and not same(old := recorded.get(k), fresh[k])  # noise and equal values: skip them
        and _glyphs(old) != _glyphs(fresh[k])
    ]


def _claim(verdict: Verdict, entry: Mapping[str, Any], recorded: Any) -> Change:
    """The change of one fresh claim given its recorded entry (None: not recorded)."""
    if not isinstance(recorded, Mapping):
        return Change(Status.NEW, "claim", verdict.id, verdict, computed=entry["computed"])
    if recorded == entry:  # recorded exactly as it is now (the common case): what follows says
        status = Status.VERIFIED if verdict.ok else Status.FAILED  # so too, field by field
        return Change(status, "claim", verdict.id, verdict, recorded=recorded.get("computed"),
                      computed=entry["computed"], current=True)
    current = _current(recorded, entry)
    base = {"verdict": verdict, "current": current, "computed": entry["computed"]}
    if not verdict.ok:
        return Change(Status.FAILED, "claim", verdict.id, recorded=recorded.get("computed"), **base)
    fields = _changed(recorded, entry)
    if fields:
        return Change(Status.STALE, "claim", verdict.id, fields=tuple(fields), **base)
    if not same(recorded.get("computed"), entry["computed"]):
        return Change(Status.DRIFT, "claim", verdict.id, recorded=recorded.get("computed"), **base)
    return Change(Status.VERIFIED, "claim", verdict.id, recorded=recorded.get("computed"), **base)


def _exempt_id(exempt: Exempt) -> str:
    return f"exempt:{exempt.mention.pointer}@{exempt.mention.start}"


def _settled(entry: Mapping[str, Any]) -> str:
    """What an exempt entry says, as one comparable text: every field but its span, minus
    glyphs as ``-`` (JSON with sorted keys, so entries are looked up, not scanned)."""
    return json.dumps({k: _glyphs(v) for k, v in entry.items() if k != "span"}, sort_keys=True)


def _places(entry: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
    """Where an exempt entry's number is: (field, number, quote) and (field, number), minus
    glyphs as ``-``; None for an entry that is not a mapping."""
    if not isinstance(entry, Mapping):
        return None
    number = (entry.get("pointer"), _glyphs(entry.get("authored")))
    return (*number, _glyphs(entry.get("quote"))), number


_LOOKED_AT = 8  # records of one number compared with a changed one: bounded, so linear


class _Gone:
    """The recorded exempt entries no longer written, found by where their number is (see
    :func:`_places`). Each is taken at most once."""

    def __init__(self, indexes: list[int], recorded: list[Any]) -> None:
        self.recorded = recorded
        self.left = dict.fromkeys(indexes)  # in file order
        self.by: dict[tuple[Any, ...], list[int]] = {}
        for i in indexes:
            for place in _places(recorded[i]) or ():
                self.by.setdefault(place, []).append(i)
        for found in self.by.values():
            found.reverse()  # taken from the end: first in file order first

    def take(self, place: tuple[Any, ...], entry: Mapping[str, Any]) -> int | None:
        """Of the first :data:`_LOOKED_AT` records left at ``place``, the one that differs
        from ``entry`` in the fewest fields (then the first in file order), taken; None if
        there is none."""
        found = self.by.get(place, [])
        while found and found[-1] not in self.left:
            found.pop()  # taken through its other place
        window = [i for i in found[-_LOOKED_AT:] if i in self.left]
        if not window:
            return None
        index = min(window, key=lambda i: (len(_changed(self.recorded[i], entry)), i))
        found.remove(index)
        del self.left[index]
        return index


def _pair(fresh: list[dict[str, Any]], stale: list[int], gone: _Gone) -> dict[int, int]:
    """Fresh stale entry -> the record of the same number: first every one whose quote is
    recorded as it is (only its reason changed), then the rest by field and number alone (its
    sentence changed around it), so that no record is taken by a number not its own."""
    pairs: dict[int, int] = {}
    for which in (0, 1):
        for i in stale:
            places = _places(fresh[i])
            if i in pairs or places is None:
                continue
            found = gone.take(places[which], fresh[i])
            if found is not None:
                pairs[i] = found
    return pairs


def _exempts(
    claims: LessonClaims, fresh: list[dict[str, Any]], recorded: list[Any]
) -> list[Change]:
    """Exempt numbers: verified when recorded (text and reason), else stale; gone: orphaned.

    A stale number recorded in the same field with the same text is that number with a new
    quote or reason: one change naming the fields, not a stale one and an orphaned one."""
    exact = {json.dumps(e, sort_keys=True) for e in recorded if isinstance(e, Mapping)}
    # a multiset: each record stands for one number (the same sentence written twice is
    # recorded twice, and a record more or fewer is a change)
    texts = [_settled(e) if isinstance(e, Mapping) else None for e in recorded]
    written = Counter(t for t in texts if t is not None)
    unmatched = written.copy()
    matched = []
    for entry in fresh:
        said = _settled(entry)
        matched.append(unmatched[said] > 0)
        unmatched[said] -= matched[-1]
    kept = written - unmatched  # how many copies of each record were matched: the first ones
    gone_indexes = []
    for i, text in enumerate(texts):
        if text is not None and kept[text] > 0:
            kept[text] -= 1
        else:
            gone_indexes.append(i)
    gone = _Gone(gone_indexes, recorded)
    pairs = _pair(fresh, [i for i, ok in enumerate(matched) if not ok], gone)
    in_order = sorted(claims.exempt, key=lambda e: e.mention.key)  # as build() wrote them
    changes = []
    for i, (exempt, entry, ok) in enumerate(zip(in_order, fresh, matched, strict=True)):
        if ok:
            changes.append(Change(Status.VERIFIED, "exempt", _exempt_id(exempt), exempt=exempt,
                                  current=json.dumps(entry, sort_keys=True) in exact))
            continue
        same = pairs.get(i)
        fields = () if same is None else tuple(_changed(recorded[same], entry))
        changes.append(Change(Status.STALE, "exempt", _exempt_id(exempt), exempt=exempt,
                              fields=fields))
    for index in gone.left:
        entry = recorded[index]
        authored = entry.get("authored") if isinstance(entry, Mapping) else None
        changes.append(
            Change(Status.ORPHANED, "exempt", f"exempt:{index}", index=index, recorded=authored)
        )
    return changes


def compare(
    claims: LessonClaims, fresh: Mapping[str, Any], committed: Mapping[str, Any] | None
) -> tuple[Change, ...]:
    """Every claim, exempt number and file-level fact of one lesson against its fixtures.

    ``fresh`` is :func:`rlkl.claims.fixtures.build` of ``claims``; ``committed`` the parsed,
    schema-valid committed file, or None when there is none.
    """
    by_id = {v.id: v for v in claims.verdicts}
    if committed is None:
        if not fresh["claims"] and not fresh["exempt"]:
            return ()  # nothing to record: a lesson without numbers needs no fixtures
        count = len(fresh["claims"])
        return (Change(Status.MISSING, "fixtures", "file", computed=count),)
    recorded_claims = list(committed.get("claims", []))
    old = {c["id"]: (i, c) for i, c in enumerate(recorded_claims)}
    changes = [
        _claim(by_id[entry["id"]], entry, old.get(entry["id"], (None, None))[1])
        for entry in fresh["claims"]
    ]
    fresh_ids = {c["id"] for c in fresh["claims"]}
    changes += [
        Change(Status.ORPHANED, "claim", claim_id, index=index)
        for claim_id, (index, _) in old.items()
        if claim_id not in fresh_ids
    ]
    for name in ("core", "lesson", "format"):
        if committed.get(name) != fresh[name]:
            status = Status.DRIFT if name == "core" else Status.STALE
            changes.append(
                Change(status, "fixtures", name, recorded=committed.get(name), computed=fresh[name])
            )
    return (*changes, *_exempts(claims, fresh["exempt"], list(committed.get("exempt", []))))


def up_to_date(changes: Iterable[Change]) -> bool:
    """Whether the committed fixtures already say exactly what a fresh ``regen`` would write."""
    return all(c.current and c.status in (Status.VERIFIED, Status.FAILED) for c in changes)


def message(
    change: Change, regen_hint: str = "rlkl regen", first: str = ""
) -> tuple[str, str] | None:
    """(code, message) a consumer reports for ``change``; None for a pass or a failed claim
    (the failing verdict is its own message). ``first`` is a step to take before ``regen``
    can act (the lesson's claims.yaml has errors), said in every message."""
    run = f"{first}, then run `{regen_hint}`" if first else f"run `{regen_hint}`"
    if change.status in (Status.VERIFIED, Status.FAILED):
        return None
    if change.status is Status.MISSING:
        return "RLKL501", f"no fixtures for this lesson's {change.computed} claims: {run}"
    if change.subject == "exempt":
        if change.status is Status.ORPHANED:
            return "RLKL503", (
                f"orphaned fixture: exempt number {change.recorded} is no longer in the "
                f"lesson; {run}"
            )
        text = change.text or "?"
        how = f"changed ({', '.join(change.fields)})" if change.fields else "is new or changed"
        return "RLKL502", f"stale fixtures: exempt number {text} {how}; review it, then {run}"
    if change.subject == "fixtures":
        if change.id == "core":
            return "RLKL504", (
                f"drift: fixtures were computed by core {change.recorded}, this is "
                f"{change.computed}; {run}"
            )
        return "RLKL502", (
            f"stale fixtures: recorded {change.id} {change.recorded!r}, now "
            f"{change.computed!r}; {run}"
        )
    if change.status is Status.NEW:
        return "RLKL502", f"stale fixtures: claim {change.id} is new; {run}"
    if change.status is Status.STALE:
        fields = ", ".join(change.fields)
        return "RLKL502", f"stale fixtures: claim {change.id} changed ({fields}); {run}"
    if change.status is Status.ORPHANED:
        return "RLKL503", f"orphaned fixture: claim {change.id} is no longer in the lesson; {run}"
    return "RLKL504", (
        f"drift: the core now computes {change.computed} for {change.id}, the fixture "
        f"recorded {change.recorded}; review, then {run}"
    )
