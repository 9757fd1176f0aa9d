"""Golden outputs of the numeric core, recorded with the core version that computed them.

``python -m tests.core.golden --write`` records them (after bumping
``rlkl.core.version.CORE_VERSION`` when a number changed on purpose).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from rlkl import core
from rlkl.claims.evaluation import functions

GOLDEN = Path(__file__).with_name("golden.json")

# function name -> calls (args, kwargs); a name missing from rlkl.core is skipped (the
# group, DPO and controller functions come from the lessons branch; golden.json already holds
# their outputs, recorded on a merge of both branches).
CALLS: dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "softmax": [(([1.0, 2.0, 0.5],), {})],
    "log_softmax": [(([1.0, 2.0, 0.5],), {})],
    "entropy": [(([0.7, 0.3],), {}), (([0.5, 0.5],), {"base": 2})],
    "kl_divergence": [(([0.7, 0.3], [0.5, 0.5]), {}), (([0.5, 0.5], [0.7, 0.3]), {"base": 2})],
    "ppo_ratio": [((np.log(0.7), np.log(0.5)), {})],
    "ppo_ratio_from_probs": [((0.7, 0.5), {})],
    "ppo_clip_objective": [(([0.5, 1.0, 1.4], [2.0, -2.0, -2.0], 0.2), {})],
    "ppo_clip_grad": [(([0.5, 1.0, 1.4], [2.0, -2.0, 2.0], 0.2), {})],
    "clip_fraction": [
        (([0.7, 1.0, 1.3], [1.0, -1.0, 1.0], 0.2), {"definition": d})
        for d in ("outside", "binding")
    ],
    "approx_kl": [
        ((np.log([0.6, 0.4]), np.log([0.5, 0.5])), {"estimator": e}) for e in ("k1", "k2", "k3")
    ],
    "adaptive_kl_beta": [((1.0, 0.03, 0.01), {}), ((1.0, 0.001, 0.01), {})],
    "policy_gradient": [(([0.2, -0.1], [1.0, 0.0]), {})],
    "reinforce_grad": [(([0.2, -0.1], [1.0, 0.0], 0), {})],
    "expected_reinforce_grad": [(([0.2, -0.1], [1.0, 0.0]), {"baseline": 0.5})],
    "reinforce_grad_variance": [
        (([0.2, -0.1], [1.0, 0.0]), {"baseline": b}) for b in ("none", "exact")
    ],
    "kl_grad": [(([0.2, -0.1], [0.5, 0.5]), {})],
    "reinforce_step": [(([0.2, -0.1], [1.0, 0.0], [0.5, 0.5]), {"lr": 0.5, "beta": 0.1})],
    "kl_regularized_policy": [(([1.0, 0.0], [0.5, 0.5]), {"beta": 0.5})],
    "gae": [
        (
            ([1.0, 0.0, 1.0], [0.5, 0.4, 0.3], [0.4, 0.3, 0.2], [0, 0, 1], [0, 0, 0]),
            {"gamma": 0.99, "lam": 0.95},
        )
    ],
    "rloo_advantages": [(([1.0, 0.0, 0.5, 0.25],), {})],
    "grpo_advantages": [(([1.0, 0.0, 0.5, 0.25],), {})],
    "group_reinforce_grad": [(([0.2, -0.1], [1.0, 0.0], [0, 1, 0]), {})],
    "expected_group_grad": [(([0.2, -0.1], [1.0, 0.0], 3), {"baseline": "rloo"})],
    "group_grad_variance": [(([0.2, -0.1], [1.0, 0.0], 3), {"baseline": "mean"})],
    "dpo_implicit_reward": [((-1.0, -1.5), {"beta": 0.1})],
    "dpo_loss": [((-1.0, -2.0, -1.5, -1.5), {"beta": 0.1})],
    "kl_controller_proportional": [((0.1, 0.02, 0.01, 1000.0), {"n_steps": 64.0})],
    "head_logits": [(([1.0, -0.5], [[0.5, 1.0], [-1.0, 0.25], [0.0, 2.0]], [0.1, 0.0, -0.2]), {})],
    "token_log_prob": [(([1.0, 0.5, -0.3], 1), {}), (([1.0, 0.5, -0.3], 0), {"temperature": 0.5})],
    "bradley_terry_prob": [((1.2, 0.4), {})],
    "bradley_terry_loss": [((1.2, 0.4), {}), ((0.4, 1.2), {})],
    "bradley_terry_grad": [((1.2, 0.4), {})],
    "masked_token_loss": [
        (
            ([[2.0, 0.5, 1.0, 0.0], [3.0, 1.5, 0.0, 0.0]], [[0, 1, 1, 1], [0, 1, 0, 0]]),
            {"average": a},
        )
        for a in ("token", "sequence")
    ],
    "pass_at_k": [((10, 3, 1), {}), ((10, 3, 5), {})],
    "best_of_n_kl": [((16,), {})],
    "gold_reward_bon": [(([0.0, 1.0, 3.0],), {"alpha": 1.0, "beta": 0.2})],
    "gold_reward_rl": [(([0.0, 1.0, 3.0],), {"alpha": 1.0, "beta": 0.5})],
    "ppo_value_loss": [
        (([1.5, 0.2], [1.0, 1.0], [1.0, 0.5]), {"clip_range": 0.2, "definition": d})
        for d in ("max", "clipped")
    ],
    # the lesson-level helpers of the binding table
    "clip_boundary": [((2.0, 0.2), {}), ((-2.0, 0.2), {})],
    "signal_probability": [((0.9, 4), {}), ((0.5, 3), {})],
    "gold_peak": [((1.0, 0.5), {}), ((1.0, 0.5), {"form": "rl"})],
    "sampled_counts": [(([0.7, 0.3], 100, 0), {})],
    "sampled_approx_kl": [(([0.7, 0.3], [0.5, 0.5], 100, 0), {"estimator": "k3"})],
}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if np.ndim(value) > 0:
        return [_plain(v) for v in np.asarray(value).tolist()]
    number = float(value)
    return number if math.isfinite(number) else repr(number)


def _function(name: str) -> Any:
    return getattr(core, name, None) or getattr(functions, name, None)


def outputs() -> dict[str, Any]:
    """``name#i`` -> the plain output of the i-th call of each function that exists."""
    found = {}
    for name, calls in CALLS.items():
        function = _function(name)
        if function is None:
            continue
        for index, (args, kwargs) in enumerate(calls):
            found[f"{name}#{index}"] = _plain(function(*args, **kwargs))
    return found


def main() -> None:
    if "--write" not in sys.argv:
        raise SystemExit("usage: python -m tests.core.golden --write")
    record = {"core": core.CORE_VERSION, "outputs": outputs()}
    GOLDEN.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
