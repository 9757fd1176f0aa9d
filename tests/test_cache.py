"""The check cache: keyed on exactly the bytes and versions a result depends on."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl import cache
from rlkl.cache import Cache, lesson_key
from rlkl.check import check_paths
from rlkl.claims.equations import latex_cache
from rlkl.cli import main
from rlkl.loader import display_path
from rlkl.render import render
from tests.claims.helpers import SEED, Workspace, checked_here


def _json(paths: list[Path], cache: Cache | None) -> str:
    result = check_paths(paths, cache=cache)
    return render(result.diagnostics, result.summary(), "json")


@pytest.mark.parametrize("name", ["lesson.json", "claims.yaml", "fixtures.json"])
def test_any_byte_change_in_a_lessons_files_changes_its_key(name: str, tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    lesson = space.path()
    before = lesson_key(lesson, "x")
    path = space.path(name=name)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    assert lesson_key(lesson, "x") != before
    path.unlink()
    assert lesson_key(lesson, "x") != before


def test_a_lesson_file_named_for_its_id_is_keyed_by_its_own_bytes(tmp_path: Path) -> None:
    """``<id>.json`` is a lesson too: an edit of it is never answered by the cache."""
    space = Workspace.copy(tmp_path)
    named = space.path(name=f"{SEED}.json")
    space.path().rename(named)
    cache = Cache(tmp_path / "cache")
    assert _json([named], cache) == _json([named], None)
    named.write_text(named.read_text(encoding="utf-8").replace(
        "ratio is 1.4", "ratio is 1.5", 1), encoding="utf-8")
    assert _json([named], cache) == _json([named], None)
    assert '"errors": 0' not in _json([named], None)


def test_a_core_version_change_changes_the_key(tmp_path: Path) -> None:
    lesson = Workspace.copy(tmp_path).path()
    assert lesson_key(lesson, "x", "1") != lesson_key(lesson, "x", "2")


def test_a_new_equation_reader_library_changes_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Equation results depend on sympy and lark, not only on rlkl's code: a new version of
    either may read a relation differently, so it is a new key (and a new readings file)."""
    lesson = Workspace.copy(tmp_path).path()
    before = lesson_key(lesson, "x")
    monkeypatch.setattr(cache, "reader_versions", lambda: "sympy99.0-lark1.2.2")
    assert lesson_key(lesson, "x") != before


def test_rlkl_cache_dir_off_turns_both_caches_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = Workspace.copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RLKL_CACHE_DIR", "off")
    assert cache.default_dir() is None and latex_cache.cache_path() is None
    before = sorted(p.name for p in tmp_path.iterdir())
    result = CliRunner().invoke(main, ["check", str(space.root / SEED)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no folder named "off"


def test_a_warm_check_equals_a_cold_one_after_every_kind_of_change(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    cache = Cache(tmp_path / "cache")
    folder = [space.root / SEED]
    assert _json(folder, cache) == _json(folder, None)
    assert check_paths(folder, cache=cache).cached == 1  # the second run is answered from it
    edits = [
        ("lesson.json", "ratio is 1.4", "ratio is 1.5"),
        ("claims.yaml", "ratio: ppo_ratio_from_probs(p_new, p_old)", "ratio: p_new / p_old + 1"),
    ]
    for name, old, new in edits:
        space.edit(old, new, name=name)
        assert _json(folder, cache) == _json(folder, None), name
    fixture = space.path(name="fixtures.json")
    data = json.loads(fixture.read_text(encoding="utf-8"))
    data["claims"][0]["computed"] = 99.0
    fixture.write_text(json.dumps(data), encoding="utf-8")
    assert _json(folder, cache) == _json(folder, None)


def test_a_restored_cache_answers_a_fresh_checkout_of_the_same_lessons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a CI job with a cache step does: the files are new (other inodes and times), their
    bytes the same, so the entries answer; an edited lesson is checked again."""
    space = Workspace.copy(tmp_path, SEED, "ppo-clipped-objective")
    cache = Cache(tmp_path / "cache")
    check_paths([space.root], cache=cache)
    pristine = tmp_path / "pristine"
    shutil.copytree(space.root, pristine)
    shutil.rmtree(space.root)
    shutil.copytree(pristine, space.root)
    space.edit("ratio is 1.4", "ratio is 1.5")
    here = checked_here(monkeypatch)
    result = check_paths([space.root], cache=cache)
    assert here == [SEED]
    assert result.cached == 1
    assert _json([space.root], cache) == _json([space.root], None)


def test_the_cache_is_safe_to_delete_or_damage(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    cache = Cache(tmp_path / "cache")
    folder = [space.root / SEED]
    cold = _json(folder, None)
    _json(folder, cache)
    for entry in (tmp_path / "cache").iterdir():
        entry.write_text("{not json", encoding="utf-8")
    assert _json(folder, cache) == cold
    for entry in (tmp_path / "cache").iterdir():
        entry.unlink()
    assert _json(folder, cache) == cold


def test_lessons_checked_in_processes_report_what_the_serial_loop_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rlkl import pool

    space = Workspace.copy(tmp_path, SEED, "ppo-clipped-objective", "kl-direction-estimators")
    space.edit("ratio is 1.4", "ratio is 1.5")  # one failing claim, one stale fixture
    monkeypatch.setattr(pool, "POOL_MIN_LESSONS", 1)
    serial = check_paths([space.root])
    here = checked_here(monkeypatch)
    pooled = check_paths([space.root], jobs=2)
    assert here == [] and len(pooled.reports) == 3  # it did use the pool
    assert render(pooled.diagnostics, pooled.summary(), "json") == render(
        serial.diagnostics, serial.summary(), "json"
    )


def test_corpus_rules_over_cached_lessons_report_what_a_cold_check_reports(
    tmp_path: Path,
) -> None:
    """A warm check validates unchanged lessons from their cached facts, without parsing
    them: a change elsewhere in the corpus (a lesson removed, an id taken twice) must still
    be reported at the unchanged lessons, at the same line and column as a cold check says."""
    space = Workspace.copy(tmp_path, SEED, "ppo-clipped-objective", "kl-direction-estimators")
    cache = Cache(tmp_path / "cache")
    folder = [space.root]
    assert _json(folder, cache) == _json(folder, None)
    assert check_paths(folder, cache=cache).cached == 3  # all answered from the cache
    text = space.read("kl-direction-estimators")
    space.path("kl-direction-estimators").write_text(
        text.replace('"id": "kl-direction-estimators"', '"id": "ppo-clipped-objective"', 1),
        encoding="utf-8")
    warm = _json(folder, cache)
    assert warm == _json(folder, None)
    assert '"RLKL301"' in warm and '"RLKL302"' in warm
    shutil.rmtree(space.root / "kl-direction-estimators")
    warm = _json(folder, cache)
    assert warm == _json(folder, None)
    assert '"RLKL303"' in warm or '"RLKL306"' in warm


def _edits(space: Workspace) -> list[tuple[str, Callable[[], None]]]:
    """Every way a file can change: its bytes at the same size, a new size, a file put in
    its place by rename (the old times set back), removed, created."""
    lesson = space.path()
    fixtures = space.path(name="fixtures.json")
    bindings = space.path(name="claims.yaml")

    def same_size() -> None:
        data = bytearray(fixtures.read_bytes())
        data[len(data) // 2] ^= 1
        fixtures.write_bytes(bytes(data))

    def renamed_in_place() -> None:
        before = lesson.stat()
        swap = lesson.with_name("swap.json")
        swap.write_bytes(lesson.read_bytes().replace(b"ratio is 1.4", b"ratio is 1.5"))
        os.utime(swap, ns=(before.st_atime_ns, before.st_mtime_ns))
        os.replace(swap, lesson)

    saved = bindings.read_bytes()
    return [
        ("same size", same_size),
        ("renamed in place, old times", renamed_in_place),
        ("new size", lambda: space.edit("ratio is 1.5", "ratio is 1.50")),
        ("removed", bindings.unlink),
        ("created", lambda: bindings.write_bytes(saved)),
    ]


def test_a_lookup_gives_the_key_of_the_files_as_they_are_after_every_kind_of_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statuses an entry keeps stand in for reading the files only while no file
    changed: after each change the key is the one the bytes give, and the entry is
    answered only for its own key. (Every file counts as settled here, so that the kept
    statuses are used at once; the real rule keeps a file written 2 s ago or less unread.)"""
    monkeypatch.setattr(cache, "SETTLED_NS", -(10**18))
    space = Workspace.copy(tmp_path)
    store = Cache(tmp_path / "cache")
    lesson = space.path()
    for label, change in _edits(space):
        check_paths([space.root], cache=store)  # stores the entry with the statuses
        key, entry = store.lookup(lesson, display_path(lesson))
        assert entry is not None and key.content == lesson_key(lesson, display_path(lesson))
        old = [os.stat(p).st_ctime_ns for p in cache._files(lesson) if os.path.exists(p)]
        time.sleep(0.05)  # past the file system's timestamp tick
        change()
        now = [os.stat(p).st_ctime_ns for p in cache._files(lesson) if os.path.exists(p)]
        assert old != now, label  # the premise: the change is seen in the statuses
        key, entry = store.lookup(lesson, display_path(lesson))
        assert key.content == lesson_key(lesson, display_path(lesson)), label
        assert entry is None, label


def test_unchanged_settled_files_are_not_read_and_fresh_ones_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = Workspace.copy(tmp_path)
    store = Cache(tmp_path / "cache")
    lesson = space.path()
    reads = []
    key_of = cache._key
    monkeypatch.setattr(cache, "_key", lambda *a: reads.append(a) or key_of(*a))
    check_paths([space.root], cache=store)
    del reads[:]
    assert store.lookup(lesson, display_path(lesson))[1] is not None
    assert reads  # just written: a status is kept only once it is 2 s old
    monkeypatch.setattr(cache, "SETTLED_NS", -(10**18))
    assert store.lookup(lesson, display_path(lesson))[1] is not None  # keeps the statuses
    del reads[:]
    assert store.lookup(lesson, display_path(lesson))[1] is not None
    assert not reads
    monkeypatch.setattr(cache, "_TRUST_STATUS", False)  # as on Windows
    assert store.lookup(lesson, display_path(lesson))[1] is not None
    assert reads


@pytest.mark.parametrize("status", ["x", None, [], [[1, 2, 3, 4, 5]], [None, None, None], {}])
def test_a_damaged_status_is_only_a_slower_lookup(
    status: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "SETTLED_NS", -(10**18))
    space = Workspace.copy(tmp_path)
    store = Cache(tmp_path / "cache")
    folder = [space.root / SEED]
    cold = _json(folder, None)
    _json(folder, store)
    (entry,) = (p for p in (tmp_path / "cache").glob("*.json")
                if not p.name.endswith(".rows.json"))
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["status"] = status
    entry.write_text(json.dumps(data), encoding="utf-8")
    space.edit("ratio is 1.4", "ratio is 1.5")
    assert _json(folder, store) == _json(folder, None) != cold


def test_a_summary_cache_reads_no_rows_and_a_rows_cache_never_mixes_keys(tmp_path: Path) -> None:
    """``rlkl check`` and ``regen`` read an entry's summary only (its counts are the whole
    report's); ``rlkl claims``, the site and the plugin read its rows too, and rows written
    for another key are a miss, never shown with this key's summary."""
    space = Workspace.copy(tmp_path)
    folder = tmp_path / "cache"
    whole = check_paths([space.root / SEED], cache=Cache(folder))
    [report] = whole.reports
    assert not report.summary and report.claims > 20
    rows = sorted(folder.glob("*.rows.json"))
    assert len(rows) == 1
    kept = rows[0].read_text(encoding="utf-8")
    rows[0].unlink()  # a summary needs none
    summary = check_paths([space.root / SEED], cache=Cache(folder, rows=False))
    [short] = summary.reports
    assert short.summary and short.checks == () and summary.cached == 1
    assert summary.summary() == whole.summary() and summary.diagnostics == whole.diagnostics
    other = json.loads(kept)
    other["key"] = "0" * 64  # the rows of another key
    rows[0].write_text(json.dumps(other), encoding="utf-8")
    again = check_paths([space.root / SEED], cache=Cache(folder))
    assert again.cached == 0 and again.reports[0].checks == report.checks


def _aged(folder: Path, names: list[str], start: float) -> None:
    """Give the entries ``names`` last uses one minute apart, the first the oldest."""
    for minute, name in enumerate(names):
        os.utime(folder / f"{name}.json", (start + 60 * minute, start + 60 * minute))


def test_the_folder_is_pruned_to_its_limit_least_recently_used_first(tmp_path: Path) -> None:
    """Over its limit, the folder keeps the entries used last (reading one counts as a use)
    down to 80% of the limit; under it, nothing is removed."""
    from rlkl.cache_dir import prune

    folder = tmp_path / "cache"
    store = Cache(folder)
    names = [f"{n:064x}" for n in range(6)]
    for name in names:
        store.put_derived("site-page", name, "x" * 100_000)
    _aged(folder, [f"site-page-{n}" for n in names], time.time() - 3600)
    assert store.derived("site-page", names[0]) == "x" * 100_000  # the oldest, used now
    size = sum(p.stat().st_size for p in folder.iterdir())
    assert prune(folder, size) == 0
    assert prune(folder, 400_000) > 0
    left = {p.name.removeprefix("site-page-").removesuffix(".json")
            for p in folder.glob("site-page-*")}
    assert left == {names[0], names[4], names[5]}
    assert sum(p.stat().st_size for p in folder.iterdir()) <= 0.8 * 400_000


def test_a_write_prunes_the_folder_at_most_every_ten_minutes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``RLKL_CACHE_SIZE`` (MiB) is the limit a write keeps the folder under; the folder is
    looked at once, then not again until its stamp is ten minutes old."""
    from rlkl import cache_dir

    monkeypatch.setenv("RLKL_CACHE_SIZE", "1")
    folder = tmp_path / "cache"
    store = Cache(folder)
    store.put_derived("site-page", "0" * 64, "first")  # looks at the folder: nothing to do
    old, theirs = folder / f"{'f' * 64}.rows.json", folder / "thesis.pdf"
    for path in (old, theirs):  # an old entry of rlkl's, and a file that is not rlkl's
        path.write_bytes(b"x" * (2 << 20))
        os.utime(path, (time.time() - 86400,) * 2)
    store.put_derived("site-page", "1" * 64, "second")
    assert old.exists(), "looked at again within ten minutes"
    stamp = folder / ".pruned"
    os.utime(stamp, (time.time() - cache_dir.PRUNE_EVERY_S - 1,) * 2)
    store.put_derived("site-page", "2" * 64, "third")
    assert not old.exists() and theirs.exists()
    assert store.derived("site-page", "1" * 64) == "second"
    old.write_bytes(b"x" * (2 << 20))
    os.utime(stamp, (time.time() + 86400,) * 2)  # a stamp from the future: looked at now
    store.put_derived("site-page", "3" * 64, "fourth")
    assert not old.exists() and theirs.exists()
    for value, limit in [("", 1024), ("0", 1024), ("x", 1024), ("-5", 1024), ("64", 64)]:
        monkeypatch.setenv("RLKL_CACHE_SIZE", value)
        assert cache_dir.size_limit() == limit << 20


def test_the_configured_cache_size_limits_rlkl_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cache-size`` in rlkl.toml is the limit of the run (the environment wins): a folder
    grown past it by older entries is pruned by the check's writes, its own entries kept."""
    Workspace.copy(tmp_path)
    folder = tmp_path / "cache"
    folder.mkdir()
    for n in range(3):
        junk = folder / f"{n:064x}.json"
        junk.write_bytes(b"x" * (1 << 20))
        os.utime(junk, (time.time() - 86400,) * 2)
    (tmp_path / "rlkl.toml").write_text('cache-dir = "cache"\ncache-size = 2\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    for name in ("RLKL_CACHE_DIR", "RLKL_CACHE_SIZE"):  # restored after the run sets them
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    result = CliRunner().invoke(main, ["check", "content"])
    assert result.exit_code == 0, result.output
    assert os.environ["RLKL_CACHE_SIZE"] == "2"
    assert sum(p.stat().st_size for p in folder.iterdir()) <= 0.8 * (2 << 20)
    assert CliRunner().invoke(main, ["check", "content", "--format", "json"]).exit_code == 0
    assert len(list(folder.glob("*.rows.json"))) == 1, "the check's own entry was pruned"


def test_a_summary_read_marks_its_rows_used_too(tmp_path: Path) -> None:
    """``rlkl check`` reads summaries only (``rows=False``); the rows the site and the
    plugin read are as used as their summary, so they are not pruned first."""
    space = Workspace.copy(tmp_path)
    folder = tmp_path / "cache"
    _json([space.root / SEED], Cache(folder))
    day_ago = time.time() - 86400
    for entry in folder.glob("*.json"):
        os.utime(entry, (day_ago, day_ago))
    key, hit = Cache(folder, rows=False).lookup(space.path(), display_path(space.path()))
    assert hit is not None and hit.summary
    for name in (f"{key.name}.json", f"{key.name}.rows.json"):
        assert (folder / name).stat().st_mtime > day_ago + 3600, name
