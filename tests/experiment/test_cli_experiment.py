"""``rlkl experiment`` writes a complete run folder (and refuses to clobber one)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl.cli import main
from rlkl.experiment import ExperimentConfig, RunFolderExistsError, run_experiment, write_run

FILES = {"config.json", "updates.csv", "summary.json", "summary.md", "plot.png"}
ARGS = ["--seeds", "3", "--updates", "4", "--envs", "4", "--steps", "2", "--eval-episodes", "4"]


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["experiment", *ARGS, *args])
    return result.exit_code, result.output


def test_cli_writes_the_run_folder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = _run("--out", str(out), "--env", "chain", "--epsilon", "0.1")
    assert code == 0, output
    assert str(out) in output
    assert {p.name for p in out.iterdir()} == FILES

    config = json.loads((out / "config.json").read_text())
    cfg = ExperimentConfig.from_dict(config["config"])
    assert (cfg.env, cfg.n_seeds, cfg.n_updates, cfg.epsilon) == ("chain", 3, 4, 0.1)
    assert "terminated" in config["advantage_convention"]

    rows = list(csv.DictReader((out / "updates.csv").open()))
    assert len(rows) == 3 * 3 * 4
    assert {r["arm"] for r in rows} == {"ppo_clip", "no_clip", "kl_penalty"}
    assert {"kl_k1", "kl_k3", "clip_frac_outside", "clip_frac_binding", "ratio_std"} <= set(rows[0])

    summary = json.loads((out / "summary.json").read_text())
    cell = summary["arms"]["ppo_clip"]["eval_return"]["final"]
    assert cell["n"] == 3 and cell["ci95_low"] <= cell["mean"] <= cell["ci95_high"]
    assert "t" in summary["interval_method"]
    assert "| ppo_clip |" in (out / "summary.md").read_text()

    png = (out / "plot.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = pytest.importorskip("matplotlib.image").imread(out / "plot.png")
    assert image.ndim == 3 and image.shape[0] > 300 and image.shape[1] > 600


def test_cli_is_deterministic(tmp_path: Path) -> None:
    assert _run("--out", str(tmp_path / "a"), "--seed", "7")[0] == 0
    assert _run("--out", str(tmp_path / "b"), "--seed", "7")[0] == 0
    for name in ("updates.csv", "summary.json", "summary.md", "config.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_cli_refuses_a_non_empty_folder_without_force(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, output = _run("--out", str(out))
    assert code == 2 and "--force" in output
    assert (out / "keep.txt").read_text() == "mine"
    code, output = _run("--out", str(out), "--force")
    assert code == 0, output
    assert {p.name for p in out.iterdir()} == FILES
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # no temporary folders left


def test_write_run_into_an_empty_folder_and_refusal(tmp_path: Path) -> None:
    results = run_experiment(
        ExperimentConfig(
            n_seeds=2,
            n_updates=2,
            n_envs=2,
            n_steps=2,
            n_minibatches=2,
            n_eval_episodes=2,
            arms=("ppo_clip",),
        )
    )
    out = tmp_path / "empty"
    out.mkdir()
    write_run(results, out)
    assert {p.name for p in out.iterdir()} == FILES
    with pytest.raises(RunFolderExistsError):
        write_run(results, out)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["paired_differences"]["arms"] == {}


def test_cli_rejects_bad_options(tmp_path: Path) -> None:
    code, output = _run("--out", str(tmp_path / "x"), "--minibatches", "3")
    assert code == 2 and "n_minibatches" in output
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--seed", "-1"),
        ("--seed", "1.5"),
        ("--seeds", "0"),
        ("--updates", "-3"),
        ("--epsilon", "-0.1"),
        ("--epsilon", "nan"),
        ("--epsilon", "inf"),
        ("--lr", "0"),
        ("--lr", "-1"),
        ("--lr", "nan"),
        ("--lr", "inf"),
        ("--epochs", "0"),
        ("--minibatches", "0"),
        ("--envs", "0"),
        ("--steps", "0"),
        ("--eval-episodes", "0"),
        ("--kl-target", "0"),
        ("--kl-target", "nan"),
        ("--kl-target", "inf"),
        ("--kl-beta-max", "0"),
        ("--kl-beta-max", "nan"),
        ("--kl-beta-max", "x"),
        ("--env", "gridworld"),
        ("--arm", "sac"),
    ],
)
def test_cli_bad_values_are_usage_errors(tmp_path: Path, option: str, value: str) -> None:
    out = tmp_path / "x"
    result = CliRunner().invoke(main, ["experiment", *ARGS, "--out", str(out), option, value])
    assert result.exit_code == 2, result.output
    assert "Invalid value" in result.output and option in result.output
    assert not isinstance(result.exception, (ValueError, TypeError))
    assert not out.exists()


def test_cli_kl_beta_max_accepts_inf(tmp_path: Path) -> None:
    code, output = _run("--out", str(tmp_path / "x"), "--arm", "kl_penalty", "--kl-beta-max", "inf")
    assert code == 0, output
    config = json.loads((tmp_path / "x" / "config.json").read_text())["config"]
    assert config["kl_beta_max"] == "inf"
    assert ExperimentConfig.from_dict(config).beta_cap == float("inf")
