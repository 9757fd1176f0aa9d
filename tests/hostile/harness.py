"""Build a hostile case's corpus in a scratch folder, run the real ``rlkl`` on it in a
subprocess with a time bound, and snapshot the tree to prove what was (not) written.

A case is a folder under ``cases/`` holding ``case.json`` (see ``cases/README.md``) and,
optionally, ``files/``: files copied over the base corpus as they are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# RLKL_HOSTILE_CONTENT: run the cases on another checkout's content (to show a case fails there)
CONTENT = Path(os.environ.get("RLKL_HOSTILE_CONTENT", REPO / "content"))
CASES = Path(__file__).resolve().parent / "cases"
DEFAULT_TIMEOUT = 60.0


class Unprivileged(Exception):
    """The case needs file permissions to apply, and this machine cannot arrange that."""


@dataclass(frozen=True)
class Entry:
    """One file system entry as a snapshot records it."""

    kind: str  # file, dir, link, fifo, other
    content: bytes | str | None  # bytes of a file, target of a link
    mode: int


def snapshot(root: Path) -> dict[str, Entry]:
    """Every entry below ``root`` (relative posix path -> kind, content, permission bits)."""
    found: dict[str, Entry] = {}
    for folder, subfolders, files in os.walk(root, followlinks=False):
        here = Path(folder)
        for name in [*subfolders, *files]:
            path = here / name
            key = path.relative_to(root).as_posix()
            info = path.lstat()
            mode = info.st_mode & 0o7777
            if path.is_symlink():
                found[key] = Entry("link", os.readlink(path), mode)
            elif path.is_dir():
                found[key] = Entry("dir", None, mode)
            elif path.is_file():
                try:
                    found[key] = Entry("file", path.read_bytes(), mode)
                except OSError:
                    found[key] = Entry("file", None, mode)
            elif path.is_fifo():
                found[key] = Entry("fifo", None, mode)
            else:
                found[key] = Entry("other", None, mode)
    return found


def _base(root: Path, lessons: list[str]) -> None:
    content = root / "content"
    content.mkdir(parents=True)
    catalog = json.loads((CONTENT / "catalog.json").read_text(encoding="utf-8"))
    # lessons not copied stay known to the corpus, as planned ones (no file expected)
    catalog["lessons"] = [
        e if e["id"] in lessons else {**e, "status": "planned"} for e in catalog["lessons"]
    ]
    (content / "catalog.json").write_text(json.dumps(catalog, indent=2) + "\n", encoding="utf-8")
    for lesson in lessons:
        shutil.copytree(CONTENT / lesson, content / lesson)


def _edit(root: Path, edit: dict[str, Any]) -> None:
    path = root / edit["file"]
    text = path.read_text(encoding="utf-8")
    old = edit["old"]
    new = edit.get("prefix", "") + edit["new"] * edit.get("times", 1) + edit.get("suffix", "")
    assert old in text, f"case edit: {old!r} is not in {edit['file']}"
    path.write_text(text.replace(old, new, edit.get("count", 1)), encoding="utf-8")


def _json_at(data: Any, pointer: str) -> tuple[Any, str | int]:
    """The container holding ``pointer``'s value, and its key (simple pointers only)."""
    tokens: list[str] = pointer.split("/")[1:]
    for token in tokens[:-1]:
        data = data[int(token)] if isinstance(data, list) else data[token]
    last = tokens[-1]
    return data, int(last) if isinstance(data, list) else last


def _setup(root: Path, step: dict[str, Any]) -> None:
    """One file-system action; paths are relative to the case root."""
    op = step["op"]
    path = root / step["path"]
    if op in ("mkfifo", "mkdir", "symlink", "write", "write_hex", "rm"):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
    if op == "mkfifo":
        os.mkfifo(path)
    elif op == "mkdir":  # a folder where a file belongs
        path.mkdir()
        (path / "keep").write_text("a folder where a file belongs\n", encoding="utf-8")
    elif op == "symlink":
        path.symlink_to(step["target"])
    elif op in ("write", "append"):  # "times" copies of text between prefix and suffix
        body = step.get("prefix", "") + step["text"] * step.get("times", 1) + step.get("suffix", "")
        with path.open("ab" if op == "append" else "wb") as stream:
            stream.write(body.encode("utf-8"))
    elif op == "write_hex":
        path.write_bytes(bytes.fromhex(step["hex"]))
    elif op == "prepend_hex":
        path.write_bytes(bytes.fromhex(step["hex"]) + path.read_bytes())
    elif op == "append_hex":
        path.write_bytes(path.read_bytes() + bytes.fromhex(step["hex"]))
    elif op == "chmod":
        path.chmod(int(step["mode"], 8))
    elif op == "copy":
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / step["from"], path)
    elif op == "move":
        target = root / step["to"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(path, target)
    elif op in ("json_set", "json_dup"):  # rewrite a JSON file with one value set/duplicated
        data = json.loads(path.read_text(encoding="utf-8"))
        holder, key = _json_at(data, step["pointer"])
        if op == "json_set":
            holder[key] = int(step["digits"]) if "digits" in step else step["value"]
        else:
            holder.insert(key + 1, json.loads(json.dumps(holder[key])))  # a copy right after
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")
    elif op != "rm":
        raise AssertionError(f"unknown setup op {op!r}")


@dataclass
class Outcome:
    """What one run of rlkl on a case did."""

    status: int | None  # None: it did not finish within the time bound
    stdout: str
    stderr: str
    before: dict[str, Entry]
    after: dict[str, Entry]
    payload: dict[str, Any] | None


def unprivileged() -> list[str] | None:
    """A command prefix under which file permissions apply (None: this machine cannot).

    Not root: nothing to do. Root: ``setpriv`` drops the capabilities that bypass file
    permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER) for the child.
    """
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    drop = "-dac_override,-dac_read_search,-fowner"
    return [setpriv, "--bounding-set", drop, "--inh-caps=-all"]


def build(case: dict[str, Any], folder: Path, scratch: Path) -> Path:
    """The case's corpus, built in ``scratch``; returns the root the command runs in."""
    root = scratch / "case"
    _base(root, case.get("base", ["policy-gradient-kl-control"]))
    overlay = folder / "files"
    if overlay.is_dir():
        shutil.copytree(overlay, root, dirs_exist_ok=True)
    for edit in case.get("edits", []):
        _edit(root, edit)
    for step in case.get("setup", []):
        if step["op"] != "chmod":
            _setup(root, step)
    return root


def run(case: dict[str, Any], folder: Path) -> Outcome:
    """Build the case, run ``rlkl`` on it under the time bound, and snapshot before/after."""
    scratch = Path(tempfile.mkdtemp(prefix="rlkl-hostile-"))
    try:
        root = build(case, folder, scratch)
        prefix = unprivileged() if case.get("unprivileged") else []
        if prefix is None:
            raise Unprivileged("needs setpriv to drop root's file-permission override")
        for step in case.get("setup", []):  # permissions last: after copying and chown
            if step["op"] == "chmod":
                _setup(root, step)
        before = snapshot(root)
        command = [*prefix, sys.executable, "-c", "from rlkl.cli import main; main()", *case["run"]]
        env = {**os.environ, "HOME": str(scratch), "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            done = subprocess.run(
                command,
                cwd=root,
                capture_output=True,
                timeout=case.get("timeout", DEFAULT_TIMEOUT),
                env=env,
                check=False,
            )
            status: int | None = done.returncode
            stdout = done.stdout.decode("utf-8", "replace")
            stderr = done.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as expired:
            status = None
            stdout = (expired.stdout or b"").decode("utf-8", "replace")
            stderr = (expired.stderr or b"").decode("utf-8", "replace")
        after = snapshot(root)
        try:
            payload = json.loads(stdout) if "--format" in case["run"] else None
        except ValueError:
            payload = None
        return Outcome(status, stdout, stderr, before, after, payload)
    finally:
        _open_up(scratch)
        shutil.rmtree(scratch, ignore_errors=True)


def _open_up(path: Path) -> None:
    """Give the owner full access to ``path`` and, a folder, to everything below it."""
    if path.is_symlink() or not path.exists():
        return
    path.chmod(path.lstat().st_mode | 0o700)
    if path.is_dir():
        for child in path.iterdir():
            _open_up(child)


def load_cases() -> list[tuple[str, dict[str, Any], Path]]:
    """Every case under ``cases/``, sorted by name."""
    found = []
    for folder in sorted(p for p in CASES.iterdir() if (p / "case.json").is_file()):
        case = json.loads((folder / "case.json").read_text(encoding="utf-8"))
        found.append((folder.name, case, folder))
    return found
