"""The experiment page: the matched-budget PPO experiment, run at build time on a small budget.

The run is the library call ``rlkl experiment`` makes (:func:`rlkl.experiment.runner.
run_experiment`), with its summary table and plot; the page gives the command that
reproduces it and the one that runs the full default budget.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

SEEDS, UPDATES = 8, 20
LESSONS = frozenset({"policy-gradient-kl-control", "ppo-clipped-objective"})
"""The lessons whose question this experiment answers (does clipping the surrogate pay, at a
matched budget?): only their "Design your experiment" links to it; every other lesson shows
its own experiment alone."""
COMMAND = f"rlkl experiment --seeds {SEEDS} --updates {UPDATES} --out runs/site"


def experiment_page() -> tuple[str, bytes]:
    """The page's Markdown and its plot (PNG bytes), from a run made now."""
    from rlkl.experiment.report import plot_png, summarize, summary_markdown
    from rlkl.experiment.runner import ExperimentConfig, run_experiment

    results = run_experiment(ExperimentConfig(n_seeds=SEEDS, n_updates=UPDATES))
    summary = summary_markdown(results, summarize(results))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "plot.png"
        plot_png(results, path)
        png = path.read_bytes()
    body = summary.split("\n", 1)[1] if summary.startswith("# ") else summary
    markdown = (
        "---\ntitle: Matched-budget experiment\n---\n\n"
        "# The matched-budget PPO experiment\n\n"
        "PPO-clip against the same surrogate without clipping and against an adaptive KL "
        "penalty, with the same environment steps, epochs, minibatches, evaluation episodes "
        f"and seeds. This run was made when the site was built, on a small budget ({SEEDS} "
        f"seeds × {UPDATES} updates); reproduce it exactly with\n\n"
        f"```bash\n{COMMAND}\n```\n\nand run the full default budget with "
        "`rlkl experiment --out runs/experiment`.\n\n"
        "![Evaluation return, exact KL per update and clip fraction of each arm]"
        "(experiment/plot.png)\n\n"
        f"## Summary of this run\n{body}"
    )
    return markdown, png
