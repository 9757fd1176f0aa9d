"""The shipped catalog is a learning path: every entry sits in a branch and sub-branch, a
published lesson's sub-branch is the one its own file names, sub-branches are contiguous,
and every lesson comes after all of its prerequisites (so the order can be followed and has
no cycle)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.claims.helpers import CONTENT

CATALOG = json.loads((CONTENT / "catalog.json").read_text(encoding="utf-8"))["lessons"]
ORDER = [entry["id"] for entry in CATALOG]
NEW = [
    "gae-termination-truncation",
    "rloo-leave-one-out",
    "grpo-group-advantages",
    "adaptive-kl-controllers",
    "direct-preference-objective",
]


def _lesson(lesson_id: str) -> dict[str, object]:
    path: Path = CONTENT / lesson_id / "lesson.json"
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_entry_has_a_branch_and_sub_branch() -> None:
    assert all(entry.get("branch") and entry.get("subbranch") for entry in CATALOG)


def test_published_entries_agree_with_their_lesson_files() -> None:
    published = [entry for entry in CATALOG if entry["status"] == "published"]
    assert sorted(e["id"] for e in published) == sorted(
        p.parent.name for p in CONTENT.glob("*/lesson.json")
    )
    for entry in published:
        lesson = _lesson(entry["id"])
        assert (lesson["branch"], lesson["subbranch"]) == (entry["branch"], entry["subbranch"])


def test_sub_branches_are_contiguous_steps() -> None:
    steps = [entry["subbranch"] for entry in CATALOG]
    seen: list[str] = []
    for step in steps:
        if not seen or seen[-1] != step:
            assert step not in seen, f"sub-branch {step!r} is split in the catalog order"
            seen.append(step)


def test_every_lesson_comes_after_its_prerequisites() -> None:
    for entry in CATALOG:
        if entry["status"] != "published":
            continue
        prerequisites = _lesson(entry["id"])["prerequisites"]
        assert isinstance(prerequisites, list)
        for prerequisite in prerequisites:
            assert ORDER.index(prerequisite) < ORDER.index(entry["id"]), (
                f"{entry['id']} is listed before its prerequisite {prerequisite}"
            )


def test_the_new_lessons_build_only_on_published_lessons() -> None:
    status = {entry["id"]: entry["status"] for entry in CATALOG}
    for lesson_id in NEW:
        prerequisites = _lesson(lesson_id)["prerequisites"]
        assert isinstance(prerequisites, list) and prerequisites
        assert all(status[p] == "published" for p in prerequisites), lesson_id


def test_no_published_lesson_names_a_prerequisite_that_is_only_planned() -> None:
    """A learner who follows a prerequisite link finds a page: the seed's own prerequisites,
    output-head and preference-reward-model, are published."""
    status = {entry["id"]: entry["status"] for entry in CATALOG}
    for entry in CATALOG:
        if entry["status"] == "published":
            prerequisites = _lesson(entry["id"])["prerequisites"]
            assert isinstance(prerequisites, list)
            planned = [p for p in prerequisites if status[p] != "published"]
            assert not planned, f"{entry['id']} requires {planned}, which are only planned"


def test_planned_lessons_remain_beyond_the_published_ones() -> None:
    planned = [entry for entry in CATALOG if entry["status"] == "planned"]
    assert len(planned) >= 4
    assert all(not (CONTENT / entry["id"]).exists() for entry in planned)
