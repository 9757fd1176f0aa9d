"""Turn :class:`~rlkl.experiment.runner.Results` into a run folder.

``write_run(results, out_dir)`` writes, atomically (everything goes to a temporary sibling
folder that is renamed into place at the end):

* ``config.json`` — the configuration, the environment, the conventions and versions;
* ``updates.csv`` — raw results, one row per (arm, seed, update) with every metric;
* ``summary.json`` — per arm and metric: the final value and the mean over updates, each
  as the across-seed mean with a 95% Student-t interval, plus paired differences against
  the ``no_clip`` arm and the budget each arm consumed;
* ``summary.md`` — the same as a human-readable table, with the hypothesis it tests;
* ``plot.png`` — learning curves (mean and 95% band across seeds) per arm.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from rlkl.experiment.runner import ADVANTAGE_CONVENTION, METRICS, Results
from rlkl.experiment.stats import t_interval, t_quantile

FloatArray = NDArray[np.float64]

INTERVAL_METHOD = (
    "two-sided 95% Student-t interval across seeds: mean ± t_{0.975, n−1} · s / √n, "
    "s the sample standard deviation (ddof = 1), seeds as independent replicates, "
    "NaN values dropped (n is reported)"
)
HYPOTHESIS = (
    "With matched environment interactions, epochs, minibatches and evaluation episodes, "
    "PPO-clip keeps the per-update policy change (exact KL(π_old‖π_new) on the batch's "
    "states) smaller than the same surrogate without clipping."
)
COMPETING_EXPLANATION = (
    "A smaller policy change could come from a smaller effective step size rather than "
    "from clipping itself (clipping removes gradient from some samples, which also shrinks "
    "the step). The three arms do not rule that out: its control is the no-clip arm at a "
    "lower learning rate, a fourth run this report does not include (rlkl experiment --arm "
    "no_clip --lr with a smaller rate, the other options as here). Clipping is also not a "
    "KL limit: check kl_exact and ratio_max, not only clip fractions."
)
PAIRED_REFERENCE = "no_clip"
PAIRED_METRICS = ("eval_return", "kl_exact", "kl_k3", "ratio_max", "entropy")
SUMMARY_TABLE = (
    ("eval_return", "final", "eval return (final)"),
    ("eval_return", "mean", "eval return (mean over updates)"),
    ("kl_exact", "mean", "exact KL / update"),
    ("kl_k3", "mean", "k3 KL / update"),
    ("clip_frac_outside", "mean", "clip frac (outside)"),
    ("clip_frac_binding", "mean", "clip frac (binding)"),
    ("ratio_max", "mean", "ratio max"),
    ("entropy", "final", "entropy (final)"),
)


class RunFolderExistsError(FileExistsError):
    """The output folder exists and is not empty (pass ``force=True`` to replace it)."""


def _clean(x: Any) -> Any:
    """JSON-safe: NaN/inf become ``None`` (JSON has no NaN)."""
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, (float, np.floating)):
        f = float(x)
        return f if math.isfinite(f) else None
    if isinstance(x, np.integer):
        return int(x)
    return x


def _json(obj: Any) -> str:
    return json.dumps(_clean(obj), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def summarize(results: Results) -> dict[str, Any]:
    """The ``summary.json`` content (a plain, JSON-ready dict)."""
    arms: dict[str, Any] = {}
    for arm, metrics in results.metrics.items():
        arms[arm] = {}
        for name in METRICS:
            values = metrics[name]
            if np.isnan(values).all():
                continue
            final = values[:, -1]
            with np.errstate(all="ignore"):
                per_seed_mean = np.array(
                    [np.nan if np.isnan(row).all() else np.nanmean(row) for row in values]
                )
            arms[arm][name] = {
                "final": t_interval(final).as_dict(),
                "mean": t_interval(per_seed_mean).as_dict(),
            }
    paired: dict[str, Any] = {}
    if PAIRED_REFERENCE in results.metrics:
        ref = results.metrics[PAIRED_REFERENCE]
        for arm, metrics in results.metrics.items():
            if arm == PAIRED_REFERENCE:
                continue
            paired[arm] = {
                name: t_interval(
                    np.nanmean(metrics[name], axis=1) - np.nanmean(ref[name], axis=1)
                ).as_dict()
                for name in PAIRED_METRICS
            }
    return {
        "interval_method": INTERVAL_METHOD,
        "statistics": {
            "final": "per-seed value at the last update",
            "mean": "per-seed mean over all updates (area under the learning curve / n)",
        },
        "n_seeds": len(results.seed_indices),
        "n_updates": results.config.n_updates,
        "hypothesis": HYPOTHESIS,
        "competing_explanation": COMPETING_EXPLANATION,
        "arms": arms,
        "paired_differences": {
            "reference": PAIRED_REFERENCE,
            "statistic": "per-seed (arm − reference) of the mean over updates, same seeds",
            "arms": paired,
        },
        "budget_per_seed": results.budget,
    }


def _cell(d: dict[str, Any] | None, digits: int = 4) -> str:
    if not d or d.get("mean") is None:
        return "—"
    mean, low, high = d["mean"], d.get("ci95_low"), d.get("ci95_high")
    if low is None or high is None:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def summary_markdown(results: Results, summary: dict[str, Any]) -> str:
    """The ``summary.md`` content."""
    c = results.config
    lines = [
        f"# Matched-budget PPO experiment — {c.env}",
        "",
        f"{summary['n_seeds']} seeds × {c.n_updates} updates per arm; per update and seed: "
        f"{c.batch_size} environment steps ({c.n_envs} envs × {c.n_steps} steps), "
        f"{c.n_epochs} epochs × {c.n_minibatches} minibatches of {c.minibatch_size}, "
        f"{c.n_eval_episodes} evaluation episodes; lr {c.lr}, ε {c.epsilon}, "
        f"γ {c.gamma}, λ {c.gae_lambda}, KL target {c.kl_target}, β ≤ {c.beta_cap:g}.",
        "",
        f"**Hypothesis.** {HYPOTHESIS}",
        "",
        f"**Competing explanation.** {COMPETING_EXPLANATION}",
        "",
        f"Cells: mean across seeds [95% interval]; {INTERVAL_METHOD}.",
        "",
        "| arm | " + " | ".join(label for _, _, label in SUMMARY_TABLE) + " |",
        "|---|" + "---|" * len(SUMMARY_TABLE),
    ]
    for arm, metrics in summary["arms"].items():
        cells = [_cell(metrics.get(name, {}).get(stat)) for name, stat, _ in SUMMARY_TABLE]
        lines.append(f"| {arm} | " + " | ".join(cells) + " |")
    paired = summary["paired_differences"]["arms"]
    if paired:
        lines += [
            "",
            f"Paired differences against `{PAIRED_REFERENCE}` (same seeds; per-seed mean over "
            "updates, arm − reference). An interval that excludes 0 is a supported difference "
            "for this environment and configuration only.",
            "",
            "| arm | " + " | ".join(PAIRED_METRICS) + " |",
            "|---|" + "---|" * len(PAIRED_METRICS),
        ]
        for arm, diffs in paired.items():
            lines.append(
                f"| {arm} − {PAIRED_REFERENCE} | "
                + " | ".join(_cell(diffs[m]) for m in PAIRED_METRICS)
                + " |"
            )
    lines += ["", "Budget per seed (every arm must match):", ""]
    lines += ["| arm | " + " | ".join(next(iter(results.budget.values()))) + " |"]
    lines += ["|---|" + "---|" * len(next(iter(results.budget.values())))]
    for arm, b in results.budget.items():
        lines.append(f"| {arm} | " + " | ".join(str(v) for v in b.values()) + " |")
    return "\n".join(lines) + "\n"


def updates_csv(results: Results) -> str:
    """The ``updates.csv`` content: ``arm, seed, update`` then every metric (``repr`` floats)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["arm", "seed", "update", *METRICS])
    for arm, metrics in results.metrics.items():
        stacked = np.stack([metrics[m] for m in METRICS], axis=-1)  # (S, U, M)
        for row, seed in enumerate(results.seed_indices):
            for u in range(results.config.n_updates):
                cells = ("" if math.isnan(x) else repr(float(x)) for x in stacked[row, u])
                writer.writerow([arm, seed, u, *cells])
    return buf.getvalue()


def config_json(results: Results) -> dict[str, Any]:
    """The ``config.json`` content."""
    from rlkl import __version__

    env = results.config.make_env()
    return {
        "config": results.config.to_dict(),
        "seed_indices": list(results.seed_indices),
        "seeding": (
            "seed i uses numpy.random.default_rng(SeedSequence(config.seed, spawn_key=(i,))) "
            "— the i-th child of SeedSequence(config.seed).spawn(n); every arm restarts from "
            "the same streams (common random numbers)"
        ),
        "environment": {"name": results.config.env, **_clean(vars(env))},
        "advantage_convention": ADVANTAGE_CONVENTION,
        "interval_method": INTERVAL_METHOD,
        "versions": {"rlkl": __version__, "numpy": np.__version__},
    }


_PLOTS = (
    ("eval_return", "evaluation return", False),
    ("entropy", "policy entropy (nats)", False),
    ("kl_exact", "exact KL(π_old‖π_new) per update", True),
    ("clip_frac_binding", "clip fraction (binding)", False),
    ("ratio_max", "max ratio π_new/π_old", False),
    ("beta", "KL coefficient β", True),
)


_COLORS = {"ppo_clip": "C0", "no_clip": "C1", "kl_penalty": "C2"}


def _band(values: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per-update mean and t-interval across seeds (rows)."""
    with np.errstate(all="ignore"):
        n = np.sum(~np.isnan(values), axis=0)
        mean = np.nanmean(values, axis=0) if values.size else values
        sd = np.nanstd(values, axis=0, ddof=1) if values.shape[0] > 1 else np.zeros_like(mean)
        t = np.array([t_quantile(0.975, int(k) - 1) if k > 1 else np.nan for k in n])
        half = np.nan_to_num(t * sd / np.sqrt(n))
    return mean, mean - half, mean + half


def plot_png(results: Results, path: Path) -> None:
    """Write the learning-curve figure (matplotlib, Agg canvas, no global pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13, 7.5))
    FigureCanvasAgg(fig)
    # fixed margins: constrained layout doubles the rendering time of this small figure
    axes = fig.subplots(
        2,
        3,
        gridspec_kw={
            "left": 0.05,
            "right": 0.99,
            "bottom": 0.07,
            "top": 0.91,
            "wspace": 0.22,
            "hspace": 0.32,
        },
    )
    x = np.arange(1, results.config.n_updates + 1)
    for ax, (name, title, log) in zip(axes.ravel(), _PLOTS, strict=True):
        for arm, metrics in results.metrics.items():
            values = metrics[name]
            if np.isnan(values).all():
                continue
            mean, low, high = _band(values)
            color = _COLORS.get(arm, "C3")
            ax.plot(x, mean, label=arm, lw=1.6, color=color)
            # on a log axis a band reaching 0 or below is drawn only where it is positive
            shown = low > 0 if log else np.ones_like(low, dtype=bool)
            ax.fill_between(x, low, high, where=shown, color=color, alpha=0.2, lw=0)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("update")
        if log:
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=8)
    fig.suptitle(
        f"{results.config.env}: mean and 95% t-band over {len(results.seed_indices)} seeds "
        f"(ε = {results.config.epsilon}, lr = {results.config.lr})",
        fontsize=11,
    )
    fig.savefig(path, dpi=100, format="png")


def write_run(results: Results, out_dir: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write the run folder atomically; refuse to replace a non-empty folder unless ``force``.

    Raises:
        RunFolderExistsError: ``out_dir`` exists, is not empty, and ``force`` is false.
        NotADirectoryError: ``out_dir`` exists and is a file.
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"out_dir: {out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise RunFolderExistsError(
            f"out_dir: {out} exists and is not empty (use force to replace it)"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        summary = summarize(results)
        (tmp / "config.json").write_text(_json(config_json(results)), encoding="utf-8")
        (tmp / "updates.csv").write_text(updates_csv(results), encoding="utf-8")
        (tmp / "summary.json").write_text(_json(summary), encoding="utf-8")
        (tmp / "summary.md").write_text(summary_markdown(results, summary), encoding="utf-8")
        plot_png(results, tmp / "plot.png")
        os.chmod(tmp, 0o755)
        if out.is_dir():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.rmdir(old)
            os.replace(out, old)
            os.replace(tmp, out)
            shutil.rmtree(old)
        else:
            os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
