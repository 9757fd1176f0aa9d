"""rlkl.core — the exact numeric core every lesson claim is recomputed with.

One module per concept (rlax style): :mod:`~rlkl.core.distributions` (softmax, entropy,
categorical KL), :mod:`~rlkl.core.ppo` (ratio, clipped objective and gradient, clip
fraction, approximate KL, adaptive β), :mod:`~rlkl.core.policy_gradient` (exact and
score-function gradients of a softmax policy, KL gradient, KL-regularised update) and
:mod:`~rlkl.core.advantages` (GAE), :mod:`~rlkl.core.group` (RLOO and GRPO group
baselines), :mod:`~rlkl.core.dpo` (DPO's implicit reward and loss),
:mod:`~rlkl.core.output_head` (logits and tempered token log-probabilities),
:mod:`~rlkl.core.preference` (the Bradley–Terry reward model), :mod:`~rlkl.core.token_loss`
(SFT's masked loss, per token or per sequence), :mod:`~rlkl.core.sampling` (pass@k),
:mod:`~rlkl.core.overoptimization` (best-of-n KL, gold-reward forms) and
:mod:`~rlkl.core.value` (PPO's value loss and value clipping).

Conventions for the whole package: float64 numpy; inputs broadcast with numpy rules;
categories on the last axis; a 0-d result is a ``numpy.float64`` (a subclass of Python
``float``), anything else a float64 ``numpy.ndarray`` (:data:`FloatOrArray`). Functions are
pure: they never print, never mutate their inputs and keep no state.
"""

from rlkl.core._arrays import PROB_SUM_ATOL, FloatArray, FloatOrArray
from rlkl.core.advantages import gae
from rlkl.core.distributions import entropy, kl_divergence, log_softmax, softmax
from rlkl.core.dpo import dpo_implicit_reward, dpo_loss
from rlkl.core.group import (
    GroupBaseline,
    expected_group_grad,
    group_grad_variance,
    group_reinforce_grad,
    grpo_advantages,
    rloo_advantages,
)
from rlkl.core.output_head import head_logits, token_log_prob
from rlkl.core.overoptimization import best_of_n_kl, gold_reward_bon, gold_reward_rl
from rlkl.core.policy_gradient import (
    Baseline,
    expected_reinforce_grad,
    kl_grad,
    kl_regularized_policy,
    policy_gradient,
    reinforce_grad,
    reinforce_grad_variance,
    reinforce_step,
)
from rlkl.core.ppo import (
    ClipFractionDefinition,
    KLEstimator,
    adaptive_kl_beta,
    approx_kl,
    clip_fraction,
    kl_controller_proportional,
    ppo_clip_grad,
    ppo_clip_objective,
    ppo_ratio,
    ppo_ratio_from_probs,
)
from rlkl.core.preference import bradley_terry_grad, bradley_terry_loss, bradley_terry_prob
from rlkl.core.sampling import pass_at_k
from rlkl.core.token_loss import LossAverage, masked_token_loss
from rlkl.core.value import ValueClipDefinition, ppo_value_loss
from rlkl.core.version import CORE_VERSION

__all__ = [
    "CORE_VERSION",
    "PROB_SUM_ATOL",
    "Baseline",
    "ClipFractionDefinition",
    "FloatArray",
    "FloatOrArray",
    "GroupBaseline",
    "KLEstimator",
    "LossAverage",
    "ValueClipDefinition",
    "adaptive_kl_beta",
    "approx_kl",
    "best_of_n_kl",
    "bradley_terry_grad",
    "bradley_terry_loss",
    "bradley_terry_prob",
    "clip_fraction",
    "dpo_implicit_reward",
    "dpo_loss",
    "entropy",
    "expected_group_grad",
    "expected_reinforce_grad",
    "gae",
    "gold_reward_bon",
    "gold_reward_rl",
    "group_grad_variance",
    "group_reinforce_grad",
    "grpo_advantages",
    "head_logits",
    "kl_controller_proportional",
    "kl_divergence",
    "kl_grad",
    "kl_regularized_policy",
    "log_softmax",
    "masked_token_loss",
    "pass_at_k",
    "policy_gradient",
    "ppo_clip_grad",
    "ppo_clip_objective",
    "ppo_ratio",
    "ppo_ratio_from_probs",
    "ppo_value_loss",
    "reinforce_grad",
    "reinforce_grad_variance",
    "reinforce_step",
    "rloo_advantages",
    "softmax",
    "token_log_prob",
]
