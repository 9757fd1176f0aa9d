"""Benchmarks for issue 3 item 4 — run as a script, not a test.

    python benchmarks/bench_core.py            # 10^7 samples, the default experiment
    python benchmarks/bench_core.py --n 1e6 --repeats 3 --skip-experiment

Part 1 times the batched PPO numerics of ``rlkl.core`` on ``n`` float64 samples against a
plain torch-CPU implementation of the same formulas (float64 tensors sharing the numpy
memory, no autograd) and prints the ratio rlkl/torch (goal ≤ 1.0). Each entry is the best of
``--repeats`` runs (``time.perf_counter``). A third column, "numpy inline", is the same formula
written directly in numpy without rlkl's input validation, to separate the cost of the
formula from the cost of checking the inputs.

Part 2 times the default ``rlkl experiment`` configuration (all arms, all seeds vectorised)
and the same work as a Python loop over seeds (``run_experiment(config, seed_indices=[i])``),
and prints the speed-up (goal: the default run ≤ 10 s on a 2-core machine).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rlkl import core
from rlkl.experiment import ExperimentConfig, run_experiment

EPS = 0.2


def best_of(fn: Callable[[], Any], repeats: int) -> float:
    """Smallest wall time of ``repeats`` calls (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def torch_cases(r: Any, a: Any, lnew: Any, lold: Any) -> dict[str, Callable[[], Any]]:
    import torch

    def objective() -> Any:
        return torch.min(r * a, torch.clamp(r, 1 - EPS, 1 + EPS) * a)

    def binding() -> Any:
        return ((a > 0) & (r > 1 + EPS)) | ((a < 0) & (r < 1 - EPS))

    def grad() -> Any:
        return torch.where(binding(), torch.zeros((), dtype=r.dtype), r * a)

    def k3() -> Any:
        log_r = lnew - lold
        return torch.clamp_min(torch.expm1(log_r) - log_r, 0.0)

    return {
        "ppo_ratio": lambda: torch.exp(lnew - lold),
        "ppo_clip_objective": objective,
        "ppo_clip_grad": grad,
        "approx_kl k1": lambda: -(lnew - lold),
        "approx_kl k3": k3,
        "clip_fraction outside": lambda: ((r - 1).abs() > EPS).double().mean(),
        "clip_fraction binding": lambda: binding().double().mean(),
    }


def numpy_cases(
    r: np.ndarray, a: np.ndarray, lnew: np.ndarray, lold: np.ndarray
) -> dict[str, Callable[[], Any]]:
    def binding() -> np.ndarray:
        return ((a > 0) & (r > 1 + EPS)) | ((a < 0) & (r < 1 - EPS))

    def k3() -> np.ndarray:
        log_r = lnew - lold
        k3_values: np.ndarray = np.maximum(np.expm1(log_r) - log_r, 0.0)
        return k3_values

    return {
        "ppo_ratio": lambda: np.exp(lnew - lold),
        "ppo_clip_objective": lambda: np.minimum(r * a, np.clip(r, 1 - EPS, 1 + EPS) * a),
        "ppo_clip_grad": lambda: np.where(binding(), 0.0, r * a),
        "approx_kl k1": lambda: -(lnew - lold),
        "approx_kl k3": k3,
        "clip_fraction outside": lambda: np.mean(np.abs(r - 1) > EPS),
        "clip_fraction binding": lambda: np.mean(binding()),
    }


def rlkl_cases(
    r: np.ndarray, a: np.ndarray, lnew: np.ndarray, lold: np.ndarray
) -> dict[str, Callable[[], Any]]:
    return {
        "ppo_ratio": lambda: core.ppo_ratio(lnew, lold),
        "ppo_clip_objective": lambda: core.ppo_clip_objective(r, a, EPS),
        "ppo_clip_grad": lambda: core.ppo_clip_grad(r, a, EPS),
        "approx_kl k1": lambda: core.approx_kl(lnew, lold, estimator="k1"),
        "approx_kl k3": lambda: core.approx_kl(lnew, lold, estimator="k3"),
        "clip_fraction outside": lambda: core.clip_fraction(r, a, EPS, definition="outside"),
        "clip_fraction binding": lambda: core.clip_fraction(r, a, EPS, definition="binding"),
    }


def bench_core(n: int, repeats: int) -> None:
    import torch

    rng = np.random.default_rng(0)
    lold = np.log(rng.uniform(0.05, 1.0, n))
    lnew = lold + rng.normal(0.0, 0.2, n)
    r = np.exp(lnew - lold)
    a = rng.normal(0.0, 1.0, n)
    tensors = [torch.from_numpy(x) for x in (r, a, lnew, lold)]

    # the formulas agree before anything is timed
    ours, theirs = rlkl_cases(r, a, lnew, lold), torch_cases(*tensors)
    for name in ours:
        np.testing.assert_allclose(
            np.asarray(ours[name]()), np.asarray(theirs[name]().numpy()), rtol=1e-12, atol=1e-15
        )

    threads = torch.get_num_threads()
    print(f"## rlkl.core vs torch-CPU on n = {n:.0e} float64 samples (best of {repeats})")
    print(
        f"numpy {np.__version__}, torch {torch.__version__} ({threads} intra-op threads), "
        f"{os.cpu_count()} CPUs, {platform.python_implementation()} {platform.python_version()}"
    )
    header = (
        f"{'function':<24}{'rlkl ms':>9}{'torch ms':>10}{'torch-1t ms':>13}"
        f"{'numpy ms':>10}{'rlkl/torch':>12}{'rlkl/torch-1t':>15}{'rlkl/numpy':>12}"
    )
    print(header)
    print("-" * len(header))
    plain = numpy_cases(r, a, lnew, lold)
    for name in ours:
        t_rlkl = best_of(ours[name], repeats)
        torch.set_num_threads(threads)
        t_torch = best_of(theirs[name], repeats)
        torch.set_num_threads(1)
        t_torch1 = best_of(theirs[name], repeats)
        torch.set_num_threads(threads)
        t_np = best_of(plain[name], repeats)
        print(
            f"{name:<24}{t_rlkl * 1e3:>9.1f}{t_torch * 1e3:>10.1f}{t_torch1 * 1e3:>13.1f}"
            f"{t_np * 1e3:>10.1f}{t_rlkl / t_torch:>12.2f}{t_rlkl / t_torch1:>15.2f}"
            f"{t_rlkl / t_np:>12.2f}"
        )


def bench_experiment(repeats: int) -> None:
    config = ExperimentConfig()
    print()
    print(
        f"## default experiment: env {config.env}, {len(config.arms)} arms × "
        f"{config.n_seeds} seeds × {config.n_updates} updates (best of {repeats})"
    )
    t_vec = best_of(lambda: run_experiment(config), repeats)
    seeds = range(config.n_seeds)
    t_loop = best_of(lambda: [run_experiment(config, seed_indices=[i]) for i in seeds], 1)
    print(f"vectorised over seeds : {t_vec:8.3f} s   (goal ≤ 10 s)")
    print(f"per-seed Python loop  : {t_loop:8.3f} s")
    print(f"speed-up              : {t_loop / t_vec:8.1f}×")
    chain = ExperimentConfig(env="chain")
    t_chain = best_of(lambda: run_experiment(chain), repeats)
    t_chain_loop = best_of(
        lambda: [run_experiment(chain, seed_indices=[i]) for i in range(chain.n_seeds)], 1
    )
    print(
        f"chain (same sizes)    : {t_chain:8.3f} s vectorised, {t_chain_loop:.3f} s per-seed "
        f"loop, speed-up {t_chain_loop / t_chain:.1f}×"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7, help="samples (default 1e7)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per entry")
    parser.add_argument("--skip-core", action="store_true")
    parser.add_argument("--skip-experiment", action="store_true")
    args = parser.parse_args()
    if not args.skip_core:
        bench_core(int(args.n), args.repeats)
    if not args.skip_experiment:
        bench_experiment(max(1, args.repeats // 2))


if __name__ == "__main__":
    main()
