"""A synthetic corpus of N lessons made from the shipped ones (used by ``bench_check.py``).

Lesson ``i`` is a copy of shipped lesson ``i % 9`` (the nine, sorted) with a new id
(``<id>-<i>``), its bindings pointed at that id, its exempt numbers varied (a count the core
cannot recompute, so any value is consistent), and — for two copies in three — one input
varied everywhere it is written, with the dependent outputs rewritten by ``rlkl regen --fix``.
Fixtures are made by ``rlkl regen``, as an author would.

The copies share their sentence templates, so a run compiles each once. With ``distinct``, six
common words (``the``, ``is``, ...) get a suffix of the lesson's own in its prose and in its
templates alike (95 of the 109 templates hold one), as in a corpus of lessons written apart.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

CONTENT = Path(__file__).resolve().parents[1] / "content"
SHIPPED = sorted(p.name for p in CONTENT.iterdir() if (p / "lesson.json").is_file())
# (lesson, text written, text varied): an input changed everywhere it is written.
VARIED_INPUTS = {
    "policy-gradient-kl-control": ("old probability 0.5", "old probability {}"),
}
_DECODER = re.compile(r"decoder has \d+ parameters")
_WORDS = re.compile(r"\b(the|is|and|of|with|gives)\b")
_SAYS = re.compile(r'^(\s*says: ")(.*)(")$', re.MULTILINE)  # templates: one quoted line each


def _suffix(index: int) -> str:
    """Letters of a lesson's own (``a``, ``b``, ... ``ba``): no digit, so no new number."""
    letters = ""
    while True:
        index, rest = divmod(index, 26)
        letters = chr(ord("a") + rest) + letters
        if not index:
            return letters


def _own_words(text: str, index: int) -> str:
    return _WORDS.sub(lambda m: m.group(1) + _suffix(index), text)


def _copy(source: str, target: Path, index: int, distinct: bool) -> None:
    lesson_id = f"{source}-{index}"
    folder = target / lesson_id
    shutil.copytree(CONTENT / source, folder)
    (folder / "fixtures.json").unlink(missing_ok=True)
    lesson = (folder / "lesson.json").read_text(encoding="utf-8")
    lesson = lesson.replace(f'"id":"{source}"', f'"id":"{lesson_id}"', 1)
    lesson = lesson.replace(f'"id": "{source}"', f'"id": "{lesson_id}"', 1)
    lesson = _DECODER.sub(f"decoder has {400 + index} parameters", lesson)
    if source in VARIED_INPUTS and index // 4 % 3:
        written, varied = VARIED_INPUTS[source]
        lesson = lesson.replace(written, varied.format(("0.4", "0.6")[index // 4 % 2]))
    (folder / "lesson.json").write_text(_own_words(lesson, index) if distinct else lesson,
                                        encoding="utf-8")
    bindings = folder / "claims.yaml"
    if bindings.is_file():
        text = bindings.read_text(encoding="utf-8")
        text = text.replace(f"lesson: {source}", f"lesson: {lesson_id}")
        if distinct:
            text = _SAYS.sub(lambda m: m.group(1) + _own_words(m.group(2), index) + m.group(3),
                             text)
        bindings.write_text(text, "utf-8")


def make_corpus(target: Path, n: int, *, distinct: bool = False,
                sources: list[str] | None = None) -> list[Path]:
    """Write ``n`` lessons and a catalog into ``target``; return the lesson folders. The
    lessons copy ``sources`` in turn (default: the nine shipped ones)."""
    target.mkdir(parents=True, exist_ok=True)
    catalog = json.loads((CONTENT / "catalog.json").read_text(encoding="utf-8"))
    planned = [e for e in catalog["lessons"] if e["status"] != "published"]
    published = []
    for index in range(n):
        source = (sources or SHIPPED)[index % len(sources or SHIPPED)]
        _copy(source, target, index, distinct)
        published.append({"id": f"{source}-{index}", "title": f"{source} {index}",
                          "status": "published"})
    referenced = [{"id": name, "title": name, "status": "planned"} for name in SHIPPED]
    catalog["lessons"] = published + planned + referenced
    (target / "catalog.json").write_text(json.dumps(catalog, indent=2) + "\n", "utf-8")
    return [target / e["id"] for e in published]
