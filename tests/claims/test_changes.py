"""A claim recorded exactly as it is now takes a shortcut in :func:`changes.compare`; the
shortcut must give the change the field-by-field comparison gives, passing or failing."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from rlkl.check import run_lesson
from rlkl.claims.fixtures import changes, fixtures
from rlkl.validate import load_lesson
from tests.claims.helpers import SEED, Workspace


class _Unequal(Mapping[str, Any]):
    """The same entries, but never ``==`` a dict: the field-by-field path is taken."""

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = dict(data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


@pytest.mark.parametrize("wrong", [False, True])
def test_a_claim_recorded_as_it_is_gets_the_change_the_fields_give(
    tmp_path: Path, wrong: bool
) -> None:
    space = Workspace.copy(tmp_path)
    if wrong:
        space.edit("ratio is 1.4. With", "ratio is 1.5. With")  # a failing claim
    run = run_lesson(load_lesson(space.root / SEED / "lesson.json")[0])
    assert run is not None
    fresh = fixtures.build(run.claims)
    by_id = {v.id: v for v in run.claims.verdicts}
    seen = set()
    for entry in fresh["claims"]:
        verdict = by_id[entry["id"]]
        fast = changes._claim(verdict, entry, dict(entry))
        assert fast == changes._claim(verdict, entry, _Unequal(entry))
        seen.add(fast.status)
    assert seen == ({changes.Status.VERIFIED, changes.Status.FAILED} if wrong
                    else {changes.Status.VERIFIED})
