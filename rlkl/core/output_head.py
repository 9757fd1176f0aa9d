"""The output head of a language model: hidden state → logits → (tempered) log-probabilities.

A decoder's last layer is a linear map, the *unembedding* or LM head, from the final hidden
state h ∈ R^d of a position to one logit per vocabulary token, z = W·h + b with W of shape
(V, d) (``torch.nn.Linear(d, V)`` stores its weight this way). A softmax over z at
temperature T gives the next-token distribution; its log at the sampled token is the
log-probability that PPO's ratio, the KL penalty and DPO's loss consume.

Source: Vaswani et al., "Attention Is All You Need" (2017), §3.4,
https://arxiv.org/abs/1706.03762 (the linear layer and softmax after the decoder); Radford
et al., "Language Models are Unsupervised Multitask Learners" (2019, GPT-2),
https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf
(a head tied to the token embedding, no bias).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatArray, FloatOrArray, anywhere, as_float, finite, out
from rlkl.core.distributions import log_softmax

__all__ = ["head_logits", "token_log_prob"]


def head_logits(hidden: ArrayLike, weight: ArrayLike, bias: ArrayLike | None = None) -> FloatArray:
    r"""Logits of the output head: z = W·h + b, one per vocabulary token.

    Equation (Vaswani et al. 2017, §3.4)::

        z_v = Σ_j W[v, j] · h_j + b_v,     v = 1..V

    ``W`` has shape (V, d), as ``torch.nn.Linear(d, V).weight`` stores it; the head holds
    V·d weights and, with a bias, V more.

    Source: https://arxiv.org/abs/1706.03762 (§3.4).

    Args:
        hidden: h, shape (..., d): one final hidden state per position.
        weight: W, shape (V, d).
        bias: b, shape (V,), or None for a head without bias (GPT-2's tied head).

    Returns:
        the logits, float64 array of shape (..., V).
    """
    h = finite(hidden, "hidden")
    w = finite(weight, "weight")
    if h.ndim == 0 or w.ndim != 2 or w.shape[1] != h.shape[-1]:
        raise ValueError(
            f"weight must have shape (V, d) with d = hidden's last axis; got hidden "
            f"{h.shape} and weight {w.shape}"
        )
    if anywhere(np.isinf(h)) or anywhere(np.isinf(w)):
        raise ValueError("hidden and weight must be finite")
    z = h @ w.T
    if bias is not None:
        b = finite(bias, "bias")
        if b.shape != (w.shape[0],):
            raise ValueError(f"bias must have shape ({w.shape[0]},), got {b.shape}")
        z = z + b
    return np.asarray(z, dtype=np.float64)


def token_log_prob(
    logits: ArrayLike, token: ArrayLike, *, temperature: float = 1.0
) -> FloatOrArray:
    r"""log π(token) under the softmax of the logits at temperature T, in nats.

    Equation::

        log π_T(v) = z_v / T − log Σ_u exp(z_u / T)        (log_softmax(z / T)_v)

    T = 1 is the model's own distribution, the one whose log-probabilities a PPO ratio or a
    DPO loss must use; T < 1 sharpens it toward the arg-max, T > 1 flattens it toward
    uniform. Computed with :func:`rlkl.core.log_softmax` (stable for large logits).

    Source: Hinton, Vinyals & Dean, "Distilling the Knowledge in a Neural Network" (2015),
    https://arxiv.org/abs/1503.02531 (§2, the softmax at temperature T).

    Args:
        logits: z, shape (..., V).
        token: the token index, an integer (or integer array broadcast with ``logits``'s
            leading axes) in [0, V).
        temperature: T > 0.

    Returns:
        the log-probability, shape of the leading axes; ``numpy.float64`` for one position.
    """
    t = float(temperature)
    if not (np.isfinite(t) and t > 0):
        raise ValueError(f"temperature must be a finite number > 0, got {temperature!r}")
    z = as_float(logits, "logits")
    if z.ndim == 0:
        raise ValueError("logits must have at least one axis (the vocabulary)")
    index = np.asarray(token)
    if index.dtype.kind == "f" and np.all(index == np.round(index)):
        index = index.astype(np.int64)  # a binding's 2 arrives as 2.0
    if index.dtype.kind not in "iu":
        raise ValueError(f"token must be an integer index, got {token!r}")
    vocab = z.shape[-1]
    if anywhere((index < 0) | (index >= vocab)):
        raise ValueError(f"token must lie in [0, {vocab}), got {token!r}")
    logp = log_softmax(z / t)
    index = np.broadcast_to(index, logp.shape[:-1])
    return out(np.take_along_axis(logp, index[..., None], axis=-1)[..., 0])
