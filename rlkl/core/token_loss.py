"""The supervised fine-tuning loss over a loss mask, averaged per token or per sequence.

In SFT on chat data the loss is the negative log-likelihood of the tokens the model should
learn to write, usually the assistant's, and the mask m_{b,t} ∈ {0, 1} says which those are
(template and user tokens get label −100 in Hugging Face's convention, so
``torch.nn.functional.cross_entropy`` ignores them). Two averages are in use, and they give
different losses, and different weights per sequence, on the same batch:

* **per token**: Σ_{b,t} m·ℓ / Σ_{b,t} m — every unmasked token of the batch counts the same,
  so a long answer weighs more (``cross_entropy(..., ignore_index=-100)`` over the batch);
* **per sequence**: (1/B) Σ_b [Σ_t m·ℓ / Σ_t m] — each sequence's mean first, then the mean of
  the sequences, so every answer counts the same.

Source: Ouyang et al. (2022), https://arxiv.org/abs/2203.02155 (SFT on labeller
demonstrations); Hugging Face Transformers' label −100 convention and TRL's
``DataCollatorForCompletionOnlyLM`` / ``assistant_only_loss`` mask the prompt;
``torch.nn.functional.cross_entropy(ignore_index=-100, reduction="mean")`` is the per-token
average, https://pytorch.org/docs/stable/generated/torch.nn.functional.cross_entropy.html
"""

from __future__ import annotations

from typing import Literal, cast

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatOrArray, anywhere, finite, out

__all__ = ["LossAverage", "masked_token_loss"]

LossAverage = Literal["token", "sequence"]
"""How a masked loss is averaged: over every unmasked token of the batch, or per sequence."""


def masked_token_loss(
    token_nll: ArrayLike, mask: ArrayLike, *, average: LossAverage
) -> FloatOrArray:
    r"""The masked negative log-likelihood of a batch, averaged per token or per sequence.

    Equation (ℓ_{b,t} = −log π(x_{b,t} | x_{b,<t}), m_{b,t} ∈ {0, 1})::

        token:     L = Σ_b Σ_t m_{b,t} ℓ_{b,t} / Σ_b Σ_t m_{b,t}
        sequence:  L = (1/B) Σ_b ( Σ_t m_{b,t} ℓ_{b,t} / Σ_t m_{b,t} )

    The two agree when every sequence has the same number of unmasked tokens. Masked
    positions never contribute, whatever ℓ holds there (even inf).

    Source: https://arxiv.org/abs/2203.02155;
    https://pytorch.org/docs/stable/generated/torch.nn.functional.cross_entropy.html
    (``ignore_index=-100``, ``reduction="mean"`` is the per-token average).

    Args:
        token_nll: ℓ ≥ 0 per token, shape (B, T) (or (T,) for one sequence).
        mask: 1 where the token is trained on, 0 elsewhere; same shape.
        average: ``"token"`` or ``"sequence"``.

    Returns:
        the loss, ``numpy.float64``.
    """
    if average not in ("token", "sequence"):
        raise ValueError(f"average must be 'token' or 'sequence', got {average!r}")
    nll = np.atleast_2d(finite(token_nll, "token_nll"))
    m = np.atleast_2d(finite(mask, "mask"))
    if nll.ndim != 2 or nll.shape != m.shape:
        raise ValueError(
            f"token_nll and mask must have the same shape (B, T); got {nll.shape} and {m.shape}"
        )
    if anywhere((m != 0) & (m != 1)):
        raise ValueError("mask must hold only 0 and 1")
    kept = m == 1
    if anywhere(kept & ((nll < 0) | np.isinf(nll))):
        raise ValueError("token_nll must be finite and >= 0 where the mask is 1")
    losses = np.where(kept, nll, 0.0)
    counts = kept.sum(axis=-1)
    if cast(str, average) == "token":
        if counts.sum() == 0:
            raise ValueError("the mask keeps no token: the loss is undefined")
        return out(losses.sum() / counts.sum())
    if anywhere(counts == 0):
        raise ValueError("a sequence keeps no token: its per-sequence mean is undefined")
    return out(np.mean(losses.sum(axis=-1) / counts))
