"""``rlkl experiment`` — run the matched-budget PPO experiment and write a run folder.

A thin shell over :mod:`rlkl.experiment`: it parses options, builds the configuration,
shows a progress bar when stderr is a terminal, and prints where the results went.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from typing import Any

import click

from rlkl.cli.options import require_extra
from rlkl.experiment import ARMS, ExperimentConfig, RunFolderExistsError, run_experiment, write_run

_DEFAULT = ExperimentConfig()


class _Float(click.FloatRange):
    """A float range that also refuses NaN (and ±inf unless ``allow_inf``).

    ``click.FloatRange`` alone accepts ``nan``, because every comparison with NaN is false.
    """

    def __init__(self, *args: Any, allow_inf: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.allow_inf = allow_inf

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        rv = super().convert(value, param, ctx)
        if math.isnan(rv) or (math.isinf(rv) and not self.allow_inf):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return rv


@click.command("experiment")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("runs/experiment"),
    show_default=True,
    help="Run folder to create (refused if it exists and is not empty, unless --force).",
)
@click.option("--force", is_flag=True, help="Replace a non-empty run folder.")
@click.option(
    "--env",
    type=click.Choice(["bandit", "chain"]),
    default=_DEFAULT.env,
    show_default=True,
    help="Environment: a 5-armed Gaussian bandit or a 5-state chain with a time limit.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=_DEFAULT.seed,
    show_default=True,
    help="Root seed (a non-negative integer).",
)
@click.option(
    "--seeds",
    "n_seeds",
    type=click.IntRange(min=1),
    default=_DEFAULT.n_seeds,
    show_default=True,
    help="Number of seeds, run at once (vectorised).",
)
@click.option(
    "--updates",
    "n_updates",
    type=click.IntRange(min=1),
    default=_DEFAULT.n_updates,
    show_default=True,
    help="Policy updates per arm.",
)
@click.option(
    "--epsilon",
    type=_Float(min=0.0),
    default=_DEFAULT.epsilon,
    show_default=True,
    help="PPO clip range ε (also the threshold of the logged clip fractions).",
)
@click.option(
    "--lr",
    type=_Float(min=0.0, min_open=True),
    default=_DEFAULT.lr,
    show_default=True,
    help="Learning rate (plain gradient ascent on the logits).",
)
@click.option(
    "--epochs",
    "n_epochs",
    type=click.IntRange(min=1),
    default=_DEFAULT.n_epochs,
    show_default=True,
    help="Epochs over each rollout batch.",
)
@click.option(
    "--minibatches",
    "n_minibatches",
    type=click.IntRange(min=1),
    default=_DEFAULT.n_minibatches,
    show_default=True,
    help="Minibatches per epoch.",
)
@click.option(
    "--envs",
    "n_envs",
    type=click.IntRange(min=1),
    default=_DEFAULT.n_envs,
    show_default=True,
    help="Parallel environment copies per seed.",
)
@click.option(
    "--steps",
    "n_steps",
    type=click.IntRange(min=1),
    default=_DEFAULT.n_steps,
    show_default=True,
    help="Steps per copy per update (batch = envs × steps).",
)
@click.option(
    "--eval-episodes",
    "n_eval_episodes",
    type=click.IntRange(min=1),
    default=_DEFAULT.n_eval_episodes,
    show_default=True,
    help="Evaluation episodes per update and seed.",
)
@click.option(
    "--kl-target",
    type=_Float(min=0.0, min_open=True),
    default=_DEFAULT.kl_target,
    show_default=True,
    help="Target KL of the adaptive-β arm.",
)
@click.option(
    "--kl-beta-max",
    type=_Float(min=0.0, min_open=True, allow_inf=True),
    default=None,
    help="Cap on β of the adaptive-β arm ('inf': no cap).  [default: 2/lr]",
)
@click.option(
    "--arm",
    "arms",
    multiple=True,
    type=click.Choice(list(ARMS)),
    help="Arms to run (repeatable; default: all three).",
)
@click.option("--no-progress", is_flag=True, help="Never show the progress bar.")
def experiment(
    out_dir: Path,
    force: bool,
    env: str,
    seed: int,
    n_seeds: int,
    n_updates: int,
    epsilon: float,
    lr: float,
    n_epochs: int,
    n_minibatches: int,
    n_envs: int,
    n_steps: int,
    n_eval_episodes: int,
    kl_target: float,
    kl_beta_max: float | None,
    arms: tuple[str, ...],
    no_progress: bool,
) -> None:
    """Matched-budget PPO experiment: PPO-clip vs no clipping vs adaptive KL penalty.

    Every arm gets the same environment steps, epochs, minibatches, evaluation episodes
    and seeds. Writes config.json, updates.csv, summary.json, summary.md and plot.png.

    \b
    Examples:
      rlkl experiment --out runs/demo
      rlkl experiment --env chain --seeds 64 --updates 100 --epsilon 0.1 --out runs/chain
    """
    require_extra("experiment", "rlkl experiment")
    try:
        config = ExperimentConfig(
            env=env,
            seed=seed,
            n_seeds=n_seeds,
            n_updates=n_updates,
            epsilon=epsilon,
            lr=lr,
            n_epochs=n_epochs,
            n_minibatches=n_minibatches,
            n_envs=n_envs,
            n_steps=n_steps,
            n_eval_episodes=n_eval_episodes,
            kl_target=kl_target,
            kl_beta_max=kl_beta_max,
            arms=tuple(arms) if arms else ARMS,
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())) and not force:
        raise click.UsageError(f"{out_dir} exists and is not empty; pass --force to replace it")

    show_bar = not no_progress and sys.stderr.isatty()
    start = time.perf_counter()
    if show_bar:
        from tqdm import tqdm

        total = len(config.arms) * config.n_updates
        with tqdm(total=total, desc="updates (all arms)", unit="upd", file=sys.stderr) as bar:
            results = run_experiment(config, progress=bar.update)
    else:
        results = run_experiment(config)
    elapsed = time.perf_counter() - start
    try:
        path = write_run(results, out_dir, force=force)
    except (RunFolderExistsError, NotADirectoryError) as exc:
        raise click.UsageError(str(exc)) from exc
    click.echo(
        f"{len(config.arms)} arms × {config.n_seeds} seeds × {config.n_updates} updates "
        f"in {elapsed:.2f} s -> {path}/ (summary.md, summary.json, updates.csv, plot.png)"
    )
