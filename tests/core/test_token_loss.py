"""SFT's masked loss: the per-token and per-sequence averages, by hand and by property."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rlkl.core import masked_token_loss

TOL = 1e-12
NLL = [[2.0, 0.5, 1.0, 0.0], [3.0, 1.5, 0.0, 0.0]]
MASK = [[0, 1, 1, 1], [0, 1, 0, 0]]


def test_by_hand() -> None:
    # kept: 0.5, 1.0, 0.0 in the first sequence and 1.5 in the second
    assert masked_token_loss(NLL, MASK, average="token") == pytest.approx(3.0 / 4, abs=TOL)
    assert masked_token_loss(NLL, MASK, average="sequence") == pytest.approx(
        (1.5 / 3 + 1.5 / 1) / 2, abs=TOL
    )
    assert masked_token_loss([1.0, 3.0], [1, 1], average="token") == 2.0


def test_masked_positions_never_count_even_infinite() -> None:
    nll = [[np.inf, 0.5, 1.0, 0.0], [3.0, 1.5, np.inf, 7.0]]
    assert masked_token_loss(nll, MASK, average="token") == 0.75


@pytest.mark.parametrize(
    ("nll", "mask", "average", "match"),
    [
        (NLL, MASK, "batch", "average"),
        (NLL, [[0, 1], [1, 0]], "token", "shape"),
        (NLL, [[0, 2, 1, 1], [0, 1, 0, 0]], "token", "0 and 1"),
        ([[1.0, -0.5]], [[1, 1]], "token", ">= 0"),
        ([[1.0, 0.5]], [[0, 0]], "token", "no token"),
        ([[1.0, 0.5], [1.0, 2.0]], [[1, 1], [0, 0]], "sequence", "a sequence keeps no token"),
    ],
)
def test_bad_input_is_a_value_error(nll: object, mask: object, average: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        masked_token_loss(nll, mask, average=average)  # type: ignore[arg-type]


batches = st.tuples(st.integers(1, 4), st.integers(1, 6)).flatmap(
    lambda shape: st.tuples(
        arrays(np.float64, shape, elements=st.floats(0, 20)),
        arrays(np.int64, shape, elements=st.integers(0, 1)),
    )
)


@given(batches)
def test_the_per_token_mean_weighs_sequences_by_their_kept_tokens(
    batch: tuple[np.ndarray, np.ndarray],
) -> None:
    nll, mask = batch
    mask[:, 0] = 1  # every sequence keeps a token
    counts = mask.sum(axis=1)
    means = (nll * mask).sum(axis=1) / counts
    assert masked_token_loss(nll, mask, average="sequence") == pytest.approx(
        means.mean(), rel=1e-12, abs=1e-12
    )
    assert masked_token_loss(nll, mask, average="token") == pytest.approx(
        (means * counts).sum() / counts.sum(), rel=1e-9, abs=1e-12
    )


@given(batches)
def test_equal_lengths_make_the_two_averages_agree(batch: tuple[np.ndarray, np.ndarray]) -> None:
    nll, _ = batch
    mask = np.ones_like(nll, dtype=np.int64)
    mask[:, -1] = 0 if nll.shape[1] > 1 else 1
    assert masked_token_loss(nll, mask, average="token") == pytest.approx(
        masked_token_loss(nll, mask, average="sequence"), rel=1e-9, abs=1e-12
    )
