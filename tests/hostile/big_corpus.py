"""A corpus of many copies of the seed lesson (ids ``l-000``, ``l-001``, ...), for the
kill and concurrency tests."""

from __future__ import annotations

import json
from pathlib import Path

from .harness import CONTENT

SEED = "policy-gradient-kl-control"
STALE = ("For a sampled action", "For one sampled action")  # fixtures go stale, claims hold
INPUT = ("current probability 0.7", "current probability 0.8")  # --fix rewrites outputs


def build_corpus(root: Path, count: int, edit: tuple[str, str] | None) -> Path:
    """``count`` lessons under ``root/content`` with committed fixtures; ``edit`` is applied
    to every lesson's prose afterwards (so regen has to write)."""
    content = root / "content"
    content.mkdir(parents=True)
    lesson = (CONTENT / SEED / "lesson.json").read_text(encoding="utf-8")
    bindings = (CONTENT / SEED / "claims.yaml").read_text(encoding="utf-8")
    fixtures = (CONTENT / SEED / "fixtures.json").read_text(encoding="utf-8")
    entries = []
    for index in range(count):
        lesson_id = f"l-{index:03d}"
        folder = content / lesson_id
        folder.mkdir()
        text = lesson.replace(f'"id":"{SEED}"', f'"id":"{lesson_id}"', 1)
        text = text.replace('"prerequisites":["preference-reward-model","output-head"]',
                            '"prerequisites":[]', 1)
        if edit is not None:
            text = text.replace(*edit)
        (folder / "lesson.json").write_text(text, encoding="utf-8")
        (folder / "claims.yaml").write_text(
            bindings.replace(f"lesson: {SEED}", f"lesson: {lesson_id}"), encoding="utf-8")
        (folder / "fixtures.json").write_text(
            fixtures.replace(f'"lesson": "{SEED}"', f'"lesson": "{lesson_id}"'), encoding="utf-8")
        entries.append({"id": lesson_id, "title": f"Copy {index}", "status": "published"})
    for ref in ("preference-reward-model", "output-head", "sft-chat-loss-masks",
                "direct-preference-objective", "verifiable-reward-group-updates",
                "reward-proxy-overoptimization", "low-rank-adaptation",
                "teacher-student-distillation"):
        entries.append({"id": ref, "title": ref, "status": "planned"})
    (content / "catalog.json").write_text(json.dumps({"lessons": entries}, indent=2) + "\n",
                                          encoding="utf-8")
    return content


def contents(content: Path) -> dict[str, bytes]:
    """Every file below ``content`` (relative posix path -> bytes)."""
    return {p.relative_to(content).as_posix(): p.read_bytes()
            for p in sorted(content.rglob("*")) if p.is_file()}
