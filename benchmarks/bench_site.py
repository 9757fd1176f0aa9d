"""Site benchmark (issue 10, item 8) — run as a script, not a test.

    python benchmarks/bench_site.py              # 1,000 lessons
    python benchmarks/bench_site.py --n 200 --keep /tmp/bench

Builds, in one run and on the same machine:

1. **rlkl**: the real site (``site/mkdocs.yml`` with the rlkl plugin) for a synthetic corpus
   of ``n`` lessons — copies of the shipped PPO guide, each with its own id, bindings and
   fixtures, spread over 10 branches × 4 sub-branches. The time includes rlkl's own check of
   every lesson, which is also reported on its own (timed inside the same build).
2. **baseline**: a plain mkdocs-material site of ``n`` pages of similar Markdown (the same
   lesson's text as headings, paragraphs, lists and a table) with a flat navigation.

It prints wall times, output sizes and the ratios rlkl/baseline (goals: time ≤ 1.0×,
size ≤ 0.2×).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import string
import sys
import tempfile
import time
from itertools import product
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASE = "ppo-clipped-objective"
BRANCHES = ["policy-optimization", "kl-control", "reward-modeling", "fine-tuning",
            "evaluation", "distillation", "preference-learning", "exploration",
            "value-estimation", "model-lifecycle-posttraining"]
SUBS = ["Foundations", "Worked examples", "Failure cases", "Implementation notes"]


def _tag(index: int) -> str:
    """A letters-only tag (digits in prose would be numbers to account for)."""
    letters = string.ascii_lowercase
    return "".join(letters[(index // 26**k) % 26] for k in (2, 1, 0))


def synthetic_corpus(root: Path, n: int) -> Path:
    """``n`` copies of the PPO guide with their own ids, bindings and fixtures."""
    source = ROOT / "content" / BASE
    lesson = json.loads((source / "lesson.json").read_text("utf-8"))
    bindings = (source / "claims.yaml").read_text("utf-8")
    fixtures = json.loads((source / "fixtures.json").read_text("utf-8"))
    content = root / "content"
    entries = []
    for index, (branch, sub) in zip(range(n), product(BRANCHES * n, SUBS), strict=False):
        tag = _tag(index)
        lesson_id = f"ppo-copy-{tag}"
        folder = content / lesson_id
        folder.mkdir(parents=True)
        data = {**lesson, "id": lesson_id, "name": f"{lesson['name']} ({tag})",
                "branch": branch, "subbranch": sub}
        (folder / "lesson.json").write_text(json.dumps(data, indent=2, ensure_ascii=False),
                                            "utf-8")
        (folder / "claims.yaml").write_text(bindings.replace(f"lesson: {BASE}",
                                                             f"lesson: {lesson_id}"), "utf-8")
        (folder / "fixtures.json").write_text(
            json.dumps({**fixtures, "lesson": lesson_id}, indent=2, ensure_ascii=False) + "\n",
            "utf-8")
        entries.append({"id": lesson_id, "title": data["name"], "status": "published"})
    referenced = {*lesson["prerequisites"], *lesson["related"]}
    entries += [{"id": i, "title": i.replace("-", " "), "status": "planned"}
                for i in sorted(referenced)]
    (content / "catalog.json").write_text(json.dumps({"lessons": entries}, indent=2), "utf-8")
    return content


def baseline_project(root: Path, n: int) -> Path:
    """A plain mkdocs-material project: ``n`` pages of similar Markdown, flat navigation."""
    lesson = json.loads((ROOT / "content" / BASE / "lesson.json").read_text("utf-8"))
    docs = root / "baseline" / "docs"
    docs.mkdir(parents=True)
    body = [f"{lesson['tagline']}\n", "## What the paper establishes\n", lesson["establishes"],
            lesson["description"], "## The mechanism\n"]
    body += [f"- {step}" for step in lesson["mechanism"]]
    body += ["\n| Symbol | Meaning |", "|---|---|"]
    body += [f"| {s['symbol']} | {s['meaning']} |" for s in lesson["symbols"]]
    body += ["\n## Worked derivation\n"] + [f"1. {step}" for step in lesson["derivation"]]
    body += ["\n## Work through an example\n", lesson["engineeringExample"],
             "## Design your experiment\n", lesson["experiment"]["design"],
             lesson["experiment"]["reporting"], "## Limits\n", lesson["limits"]["caution"]]
    body += [f"**{q['question']}** {q['answer']}" for q in lesson["limits"]["questions"]]
    body += ["## Check\n", lesson["check"]["question"]]
    body += [f"- {o}" for o in lesson["check"]["options"]]
    text = "\n\n".join(body)
    nav = []
    for index in range(n):
        name = f"page-{index:04d}.md"
        (docs / name).write_text(f"# {lesson['name']} {index}\n\n{text}\n", "utf-8")
        nav.append({f"{lesson['name']} {index}": name})
    (docs / "index.md").write_text("# Baseline\n", "utf-8")
    config = {"site_name": "baseline", "theme": {"name": "material"}, "plugins": ["search"],
              "nav": [{"Home": "index.md"}, *nav]}
    path = root / "baseline" / "mkdocs.yml"
    path.write_text(json.dumps(config), "utf-8")  # JSON is YAML
    return path


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def timed(label: str, fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    elapsed = time.perf_counter() - start
    print(f"  {label}: {elapsed:.1f} s", flush=True)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="lessons / pages (default 1000)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    args = parser.parse_args()
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    os.environ["RLKL_CACHE_DIR"] = str(Path(tempfile.mkdtemp(prefix="rlkl-bench-cache-")))
    work = args.keep or Path(tempfile.mkdtemp(prefix="rlkl-bench-site-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        import rlkl.site.plugin as plugin
        from rlkl.site.build import build_site

        print(f"site benchmark: n = {args.n}, python {sys.version.split()[0]}, "
              f"{os.cpu_count()} cpus, work folder {work}", flush=True)
        content = synthetic_corpus(work, args.n)
        baseline = baseline_project(work, args.n)
        check_seconds: list[float] = []
        check_site = plugin.check_site

        def timed_check(folder: Path, **options: Any) -> plugin.SiteCheck:  # timed
            start = time.perf_counter()
            result = check_site(folder, **options)
            check_seconds.append(time.perf_counter() - start)
            assert result.errors == 0, result.report
            return result

        plugin.check_site = timed_check  # type: ignore[assignment]
        t_rlkl = timed("rlkl site build (check included)",
                       lambda: build_site(ROOT / "site" / "mkdocs.yml", work / "out-rlkl", content))
        changed = content / sorted(p.name for p in content.iterdir() if p.is_dir())[0]
        lesson = changed / "lesson.json"
        before = lesson.read_text("utf-8")
        lesson.write_text(before.replace("reuses each batch", "reuses every batch", 1), "utf-8")
        assert lesson.read_text("utf-8") != before, "the benchmark's edit no longer applies"
        checks_before = len(check_seconds)
        t_again = timed("rlkl site build again, one lesson changed",
                        lambda: build_site(ROOT / "site" / "mkdocs.yml", work / "out-rlkl",
                                           content))
        t_check_again = sum(check_seconds[checks_before:])
        del check_seconds[checks_before:]
        t_base = timed("plain mkdocs-material, flat navigation",
                       lambda: build(load_config(config_file=str(baseline),
                                                 site_dir=str(work / "out-baseline"))))
        t_check = sum(check_seconds)
        s_rlkl, s_base = size(work / "out-rlkl"), size(work / "out-baseline")
        print(f"\n{'':34}{'rlkl':>12}{'baseline':>12}{'ratio':>9}  goal")
        print(f"{'build time (s)':34}{t_rlkl:12.1f}{t_base:12.1f}{t_rlkl / t_base:9.2f}  ≤ 1.0")
        print(f"{'output size (MB)':34}{s_rlkl / 1e6:12.1f}{s_base / 1e6:12.1f}"
              f"{s_rlkl / s_base:9.3f}  ≤ 0.2")
        print(f"{'of which the rlkl check (s)':34}{t_check:12.1f}")
        print(f"{'build time without the check (s)':34}{t_rlkl - t_check:12.1f}{t_base:12.1f}"
              f"{(t_rlkl - t_check) / t_base:9.2f}")
        print(f"{'rebuild, one lesson changed (s)':34}{t_again:12.1f}{'':12}"
              f"{t_again / t_rlkl:9.2f}  ≤ 0.2 of the cold build (its check {t_check_again:.1f} s)")
        print("\nlargest parts of the rlkl output (MB):")
        parts = sorted(((size(p) if p.is_dir() else p.stat().st_size, p.name)
                        for p in (work / "out-rlkl").iterdir()), reverse=True)[:5]
        print("  " + ", ".join(f"{name} {bytes_ / 1e6:.1f}" for bytes_, name in parts))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
