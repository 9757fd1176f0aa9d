"""Every file rlkl writes is written whole or not at all, with the permissions a file gets."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from rlkl.atomic import write_atomic
from rlkl.regen import regen_paths
from tests.claims.helpers import SEED, Workspace


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask_022")
def test_fixtures_regen_creates_get_the_usual_permissions(tmp_path: Path) -> None:
    """A fixtures file regen creates is readable by others like any file made under the
    umask (it was 0o600, the temporary file's mode, so a site or a colleague could not read
    it)."""
    space = Workspace.copy(tmp_path)
    fixtures = space.path(name="fixtures.json")
    fixtures.unlink()
    regen_paths([space.root / SEED])
    assert _mode(fixtures) == 0o644


def test_a_file_that_exists_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "fixtures.json"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    write_atomic(path, "new")
    assert (path.read_text(encoding="utf-8"), _mode(path)) == ("new", 0o640)


def test_through_a_symlink_the_target_is_replaced_and_the_link_stays(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "fixtures.json"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "half \ud800 written")  # a lone surrogate cannot be UTF-8
    assert path.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fixtures.json"]


def test_a_cache_replaces_its_own_symlink_not_what_it_points_to(tmp_path: Path) -> None:
    """A cache file planted as a symlink to another file is replaced itself (the other file
    was overwritten with the cache's JSON), and a symlink loop is an OSError the caches
    skip, not a crash."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    entry = tmp_path / "entry.json"
    entry.symlink_to(victim)
    write_atomic(entry, "{}", through_links=False)
    assert not entry.is_symlink() and victim.read_text(encoding="utf-8") == "precious"
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    with pytest.raises(OSError):
        write_atomic(loop, "{}")
