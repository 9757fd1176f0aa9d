"""Every number of the five new lessons, recomputed without rlkl.

Each quantity is computed here from its definition — exact fractions and plain loops where
the arithmetic is rational, torch (float64) for logs, exponentials and standard deviations —
and compared with the number written in the lesson at the precision it is written with. No
rlkl code is involved: neither the numeric core nor the claim engine, which find the same
numbers through ``claims.yaml``. A disagreement means one of the two sides is wrong.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

CONTENT = Path(__file__).resolve().parents[2] / "content"
NUMBER = r"([−-]?\d+(?:\.\d+)?)"


def written(lesson: str, template: str, values: list[float]) -> None:
    """The lesson states ``template`` (``{}`` = a number) with these values at written precision."""
    text = (CONTENT / lesson / "lesson.json").read_text(encoding="utf-8")
    pattern = re.escape(template).replace(r"\{\}", NUMBER)
    match = re.search(pattern, text)
    assert match, f"{template!r} is not in {lesson}"
    assert len(match.groups()) == len(values)
    for raw, value in zip(match.groups(), values, strict=True):
        number = raw.replace("−", "-")
        decimals = len(number.split(".")[1]) if "." in number else 0
        tolerance = 0.5 * 10.0**-decimals if decimals or number.strip("-") != "0" else 1e-12
        assert abs(float(value) - float(number)) <= tolerance + 1e-15, (template, raw, value)


# --- GAE ------------------------------------------------------------------------------------


def gae_by_hand(r, v, v_next, gamma, lam, *, terminated: bool):  # type: ignore[no-untyped-def]
    """Backward GAE over one episode; the last step terminated or was truncated."""
    deltas = [r[t] + gamma * v_next[t] - v[t] for t in range(len(r))]
    if terminated:
        deltas[-1] = r[-1] - v[-1]
    adv, carry = [F(0)] * len(r), F(0)
    for t in reversed(range(len(r))):
        carry = deltas[t] + gamma * lam * carry
        adv[t] = carry
    return deltas, adv


def test_gae_numbers() -> None:
    lesson = "gae-termination-truncation"
    r, v, gamma, v_cut = [F(0), F(0), F(1)], [F(1, 2), F(3, 5), F(4, 5)], F(9, 10), F(7, 10)
    nxt = [v[1], v[2], v_cut]
    delta, adv0 = gae_by_hand(r, v, nxt, gamma, F(0), terminated=True)
    _, adv_half = gae_by_hand(r, v, nxt, gamma, F(1, 2), terminated=True)
    _, adv_one = gae_by_hand(r, v, nxt, gamma, F(1), terminated=True)
    returns = [gamma**2, gamma, F(1)]  # discounted Monte-Carlo returns of r = [0, 0, 1]
    written(lesson, "The TD errors are δ = [{},{},{}]", delta)  # type: ignore[arg-type]
    written(lesson, "themselves, A = [{},{},{}]", adv0)  # type: ignore[arg-type]
    written(lesson, "With λ = 0.5 they are A = [{},{},{}]", adv_half)  # type: ignore[arg-type]
    written(lesson, "they are A = [{},{},{}], the discounted returns [{},{},{}]",
            [*adv_one, *returns])  # fmt: skip
    assert [a + b for a, b in zip(adv_one, v, strict=True)] == returns
    cut_delta, cut_half = gae_by_hand(r, v, nxt, gamma, F(1, 2), terminated=False)
    written(lesson, "−0.8 = {}, and with λ = 0.5 the advantages become A = [{},{},{}]",
            [cut_delta[2], *cut_half])  # fmt: skip
    _, cut_one = gae_by_hand(r, v, nxt, gamma, F(1), terminated=False)
    undiscounted = sum(cut_delta)  # the distractor: decay λ instead of γλ
    written(lesson, '"{}, because with λ = 1 the advantage', [cut_one[0]])
    written(lesson, '"{}, because the time limit ends', [adv_one[0]])
    written(lesson, '"{}, because the TD errors are summed', [undiscounted])
    written(lesson, "the TD errors [{},{},{}] are summed with weights {}, {} and {}",
            [*cut_delta, 1, gamma, gamma**2])  # fmt: skip


# --- RLOO -----------------------------------------------------------------------------------


def group_estimate(pi, reward, group, baseline):  # type: ignore[no-untyped-def]
    k = len(group)
    g = [F(0), F(0)]
    for i, a in enumerate(group):
        rs = [reward[b] for b in group]
        b = {
            "rloo": (sum(rs) - rs[i]) / (k - 1),
            "mean": sum(rs) / k,
            "exact": pi[0] * reward[0] + pi[1] * reward[1],
            "none": F(0),
        }[baseline]
        for c in (0, 1):
            g[c] += ((1 if c == a else 0) - pi[c]) * (rs[i] - b) / k
    return g


def moments(pi, reward, k, baseline):  # type: ignore[no-untyped-def]
    mean, second = [F(0), F(0)], F(0)
    for group in itertools.product((0, 1), repeat=k):
        p = math.prod(pi[a] for a in group)
        g = group_estimate(pi, reward, group, baseline)
        mean = [m + p * x for m, x in zip(mean, g, strict=True)]
        second += p * sum(x * x for x in g)
    return mean, second - sum(m * m for m in mean)


def test_rloo_numbers() -> None:
    lesson = "rloo-leave-one-out"
    pi, reward, group = [F(3, 5), F(2, 5)], [F(1), F(0)], (0, 1, 0, 0)
    rs = [reward[a] for a in group]
    adv = [rs[i] - (sum(rs) - rs[i]) / 3 for i in range(4)]
    written(lesson, "A = [{},{},{},{}], which sum to {}", [*adv, sum(adv)])
    true = [pi[0] * (reward[0] - F(3, 5)), pi[1] * (reward[1] - F(3, 5))]
    written(lesson, "The group's estimate of the gradient is [{},{}]",
            group_estimate(pi, reward, group, "rloo"))  # fmt: skip
    written(lesson, "it would be [{},{}], and the true gradient is [{},{}]",
            [*group_estimate(pi, reward, group, "exact"), *true])  # fmt: skip
    e_loo, var_loo = moments(pi, reward, 4, "rloo")
    e_mean, _ = moments(pi, reward, 4, "mean")
    assert e_loo == true and e_mean == [F(3, 4) * t for t in true]
    written(lesson, "the RLOO estimate is exactly [{},{}]. Subtracting the group mean instead "
            "averages to [{},{}]", [*e_loo, *e_mean])  # fmt: skip
    _, var_exact = moments(pi, reward, 4, "exact")
    _, var_none = moments(pi, reward, 4, "none")
    written(lesson, "it is {} for RLOO, {} with the exact baseline and {} with no baseline",
            [var_loo, var_exact, var_none])  # fmt: skip
    _, var_loo8 = moments(pi, reward, 8, "rloo")
    _, var_none8 = moments(pi, reward, 8, "none")
    written(lesson, "With k = 8 RLOO falls to {}, below the no-baseline {}", [var_loo8, var_none8])
    shifted = [x + 1 for x in reward]
    _, var_none_shift = moments(pi, shifted, 4, "none")
    assert moments(pi, shifted, 4, "rloo")[1] == var_loo
    written(lesson, "jumps to {}, while RLOO stays at {}", [var_none_shift, var_loo])
    quiz = [F(1), F(0), F(0), F(0), F(1)]  # the question's group of five; its first sample
    written(lesson, '"{}, because its baseline is the mean reward of the other',
            [quiz[0] - (sum(quiz) - quiz[0]) / 4])  # fmt: skip
    written(lesson, '"{}, because its baseline is the mean reward of the whole',
            [quiz[0] - sum(quiz) / 5])  # fmt: skip
    written(lesson, '"{}, because its baseline is the expected reward', [quiz[0] - F(3, 5)])


# --- GRPO -----------------------------------------------------------------------------------


def t64(x: list[float]) -> torch.Tensor:
    return torch.tensor(x, dtype=torch.float64)


def test_grpo_numbers() -> None:
    lesson = "grpo-group-advantages"
    r = t64([1.0, 0.0, 0.0, 0.0])
    std = r.std()  # torch's default: the unbiased (ddof = 1) std, as TRL uses it
    written(lesson, "The group mean is {} and the sample standard deviation is {}",
            [float(r.mean()), float(std)])  # fmt: skip
    written(lesson, "GRPO's advantages are A = [{},{},{},{}]",
            ((r - r.mean()) / (std + 1e-4)).tolist())  # fmt: skip
    written(lesson, "the centred rewards A = [{},{},{},{}]", (r - r.mean()).tolist())
    pop = r.std(correction=0)
    written(lesson, "the population standard deviation, {}, would give the right answer an "
            "advantage of {} instead of TRL's {}",
            [float(pop), float((1 - r.mean()) / (pop + 1e-4)),
             float((1 - r.mean()) / (std + 1e-4))])  # fmt: skip
    q = t64([0.52, 0.48, 0.5, 0.5])
    written(lesson, "Its centred advantages are only [{},{},{},{}], but its standard deviation "
            "is {}, and dividing by it inflates them to [{},{},{},{}]",
            [*(q - q.mean()).tolist(), float(q.std()),
             *((q - q.mean()) / (q.std() + 1e-4)).tolist()])  # fmt: skip
    rho = 0.4 / 0.5  # π_ref / π_θ
    k3 = rho - math.log(rho) - 1
    written(lesson, "Its k3 estimate is {} nats, and with β = 0.04 it adds {}", [k3, 0.04 * k3])
    quiz_rho = 0.6 / 0.8  # the question's token: π_ref / π_θ
    quiz_k3 = quiz_rho - math.log(quiz_rho) - 1
    inverted = 1 / quiz_rho - math.log(1 / quiz_rho) - 1
    written(lesson, '"{}, because with ρ = π_ref/π_θ', [quiz_k3])
    written(lesson, '"{}, because the ratio is π_θ over π_ref', [inverted])
    written(lesson, '"{}, because the per-token KL is log', [-math.log(quiz_rho)])
    written(lesson, "and ρ is {} here. Inverting the ratio gives {},", [quiz_rho, inverted])


# --- adaptive KL control ------------------------------------------------------------------------


def test_adaptive_kl_numbers() -> None:
    lesson = "adaptive-kl-controllers"
    kls, target = [F(5, 100), F(3, 100), F(4, 1000), F(12, 1000)], F(1, 100)
    halve_double, proportional = [], []
    b_hd = b_p = F(1)
    for d in kls:
        b_hd = b_hd * 2 if d > F(3, 2) * target else b_hd / 2 if d < target / F(3, 2) else b_hd
        error = min(max(d / target - 1, F(-1, 5)), F(1, 5))
        b_p = b_p * (1 + F(1, 10) * error)
        halve_double.append(b_hd)
        proportional.append(b_p)
    written(lesson, "above 1.5×0.01 = {} and halves it below 0.01/1.5 = {}",
            [F(3, 2) * target, target / F(3, 2)])  # fmt: skip
    written(lesson, "it gives β = [{},{},{},{}]: a factor", halve_double)  # type: ignore[arg-type]
    written(lesson, "It gives β = [{},{},{},{}].", proportional)  # type: ignore[arg-type]
    written(lesson, "β rose by only {}%, because the error was clipped from {} to {}",
            [100 * (proportional[0] - 1), kls[0] / target - 1, F(1, 5)])  # fmt: skip
    written(lesson, "doubling β takes {} updates", [math.log(2) / math.log(1.02)])
    quiz_kl, quiz_gain = F(3, 100), F(5, 100)  # the question's KL and gain
    quiz_error = quiz_kl / target - 1
    written(lesson, '"{}, because the relative error of 2 is clipped',
            [1 + quiz_gain * min(quiz_error, F(1, 5))])  # fmt: skip
    written(lesson, '"{}, because the relative error of 2 times the gain raises β by {}%',
            [1 + quiz_gain * quiz_error, 100 * quiz_gain * quiz_error])  # fmt: skip
    written(lesson, '"{}, because a KL above 1.5 times', [2 if quiz_kl > F(3, 2) * target else 1])


# --- DPO ------------------------------------------------------------------------------------


def test_dpo_numbers() -> None:
    lesson = "direct-preference-objective"
    ref, r, beta = t64([0.5, 0.3, 0.2]), t64([1.0, 0.0, 0.5]), 0.5
    star = torch.softmax(torch.log(ref) + r / beta, dim=0)  # π* ∝ π_ref·exp(r/β)
    written(lesson, "= [{},{},{}]: reward moves mass", star.tolist())
    objective = float((star * r).sum() - beta * (star * torch.log(star / ref)).sum())
    written(lesson, "π* is worth {}, against {} for π_ref itself", [objective, float(ref @ r)])
    implicit = beta * torch.log(star / ref)
    beta_log_z = beta * float(torch.logsumexp(torch.log(ref) + r / beta, dim=0))
    assert torch.allclose(implicit, r - beta_log_z, atol=1e-12)
    written(lesson, "are [{},{},{}]: each is the true reward minus the same constant β·log Z = {}",
            [*implicit.tolist(), beta_log_z])  # fmt: skip
    written(lesson, "A's implicit reward exceeds B's by {}", [float(implicit[0] - implicit[1])])

    def loss(w: int, lo: int, policy: torch.Tensor, reference: torch.Tensor) -> float:
        log_ratio = torch.log(policy / reference)
        margin = beta * (log_ratio[w] - log_ratio[lo])
        return float(-torch.nn.functional.logsigmoid(margin))

    written(lesson, "the margin is {} and the DPO loss is log 2 = {}", [0.0, loss(0, 1, ref, ref)])
    at_star = loss(0, 1, star, ref)
    written(lesson, "the loss is {}, the Bradley–Terry negative log-likelihood of the preference: "
            "σ({}) = {}", [at_star, 1.0, float(torch.sigmoid(t64([1.0])))])  # fmt: skip
    # the question's pair: A over C
    written(lesson, '"{}, because at π* the implicit reward margin', [loss(0, 2, star, ref)])
    written(lesson, '"{}, because the margin is β·log(π*(A)/π*(C))',
            [loss(0, 2, star, torch.ones(3, dtype=torch.float64))])  # fmt: skip
    written(lesson, '"{}, because the loss is −log σ of C', [loss(2, 0, star, ref)])
