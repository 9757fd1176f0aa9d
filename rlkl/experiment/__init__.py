"""The matched-budget PPO experiment (issue 3, item 3), as a library.

PPO-clip, the same surrogate without clipping, and an adaptive-β KL penalty are trained
on the same small episodic environment (a bandit or a short chain) with a tabular softmax
policy, many seeds at once, and identical budgets. Pure API::

    from rlkl.experiment import ExperimentConfig, run_experiment, write_run

    results = run_experiment(ExperimentConfig(env="chain", n_seeds=64))
    write_run(results, "runs/chain")      # config.json, updates.csv, summary.*, plot.png

Library code never prints; ``rlkl experiment`` is the command-line shell.
"""

from __future__ import annotations

from rlkl.experiment.arms import ARMS, ArmName
from rlkl.experiment.envs import Bandit, Chain, Env, Transition, make_env
from rlkl.experiment.report import (
    INTERVAL_METHOD,
    RunFolderExistsError,
    summarize,
    write_run,
)
from rlkl.experiment.runner import (
    ADVANTAGE_CONVENTION,
    METRICS,
    ExperimentConfig,
    Results,
    run_experiment,
    seed_sequences,
)
from rlkl.experiment.stats import Interval, t_interval, t_quantile

__all__ = [
    "ADVANTAGE_CONVENTION",
    "ARMS",
    "INTERVAL_METHOD",
    "METRICS",
    "ArmName",
    "Bandit",
    "Chain",
    "Env",
    "ExperimentConfig",
    "Interval",
    "Results",
    "RunFolderExistsError",
    "Transition",
    "make_env",
    "run_experiment",
    "seed_sequences",
    "summarize",
    "t_interval",
    "t_quantile",
    "write_run",
]
