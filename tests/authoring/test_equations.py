"""Equations are claims: read from LaTeX, evaluated on a grid, compared with the core."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlkl.check import CheckResult, check_paths
from rlkl.claims.equations import equations
from rlkl.claims.equations.latex import (
    EquationError,
    evaluate,
    parse_relation,
    split_relations,
)

CONTENT = Path(__file__).resolve().parents[2] / "content"
SEED = "policy-gradient-kl-control"
SEED_EQUATION = (
    r"J_{clip}=\min(rA,\operatorname{clip}(r,1-\epsilon,1+\epsilon)A),\quad "
    r"r=\frac{\pi_\theta(a\mid s)}{\pi_{old}(a\mid s)},\quad "
    r"D_{KL}(p\Vert q)=\sum_i p_i\log\frac{p_i}{q_i}"
)


def _copy(tmp_path: Path, lesson: str = SEED) -> Path:
    root = tmp_path / "content"
    root.mkdir()
    shutil.copy(CONTENT / "catalog.json", root / "catalog.json")
    shutil.copytree(CONTENT / lesson, root / lesson)
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (old, text.count(old))
    path.write_text(text.replace(old, new), encoding="utf-8")


def _codes(result: CheckResult) -> list[tuple[str, str]]:
    return [(d.code, d.pointer) for d in result.diagnostics]


# -- reading -----------------------------------------------------------------------------


def test_the_seed_equation_holds_three_relations() -> None:
    relations = split_relations(SEED_EQUATION)
    assert [r.lhs for r in relations] == ["J_{clip}", "r", r"D_{KL}(p\Vert q)"]
    assert [list(parse_relation(r.rhs).identifiers) for r in relations] == [
        ["A", "epsilon", "r"],
        ["pi_old", "pi_theta"],
        ["p", "q"],
    ]


def test_log_is_the_natural_logarithm() -> None:
    assert float(evaluate(parse_relation(r"\log x"), {"x": math.e})) == pytest.approx(1.0)
    assert float(evaluate(parse_relation(r"\ln x"), {"x": math.e**2})) == pytest.approx(2.0)
    assert float(evaluate(parse_relation(r"\log_2 x"), {"x": 8.0})) == pytest.approx(3.0)


def test_clip_policy_and_index_sum_notation() -> None:
    clipped = parse_relation(r"\operatorname{clip}(r,1-\epsilon,1+\epsilon)A")
    assert float(evaluate(clipped, {"r": 1.4, "epsilon": 0.2, "A": 2.0})) == pytest.approx(2.4)
    assert float(evaluate(clipped, {"r": 0.5, "epsilon": 0.2, "A": -2.0})) == pytest.approx(-1.6)
    ratio = parse_relation(r"\frac{\pi_\theta(a\mid s)}{\pi_{old}(a\mid s)}")
    assert float(evaluate(ratio, {"pi_theta": 0.7, "pi_old": 0.5})) == pytest.approx(1.4)
    kl = parse_relation(r"\sum_i p_i\log\frac{p_i}{q_i}")
    value = evaluate(kl, {"p": np.array([0.7, 0.3]), "q": np.array([0.5, 0.5])})
    assert float(value) == pytest.approx(0.082283, abs=5e-7)
    expected = parse_relation(r"\sum_{a'}\pi(a')\,r(a')")
    assert float(evaluate(expected, {"pi": np.array([0.25, 0.75]), "r": np.array([1.0, 3.0])})) == (
        pytest.approx(2.5)
    )


def test_sigma_of_an_argument_is_the_logistic_function_and_a_bare_sigma_a_symbol() -> None:
    logistic = parse_relation(r"\sigma(r_w-r_l)")
    assert float(evaluate(logistic, {"r_w": 1.0, "r_l": 0.0})) == pytest.approx(
        1 / (1 + math.exp(-1))
    )
    assert parse_relation(r"\frac{x-\mu}{\sigma}").identifiers == ("mu", "sigma", "x")
    loss = parse_relation(r"-\log\sigma(\beta x)")
    assert float(evaluate(loss, {"beta": 2.0, "x": 0.0})) == pytest.approx(math.log(2))


@pytest.mark.parametrize(
    ("latex", "values", "expected"),
    [
        # a function applied to a group takes exactly that group
        (r"\exp(a)+\exp(b)", {"a": 0.0, "b": 1.0}, 1 + math.e),
        (r"\exp(\log(a)-\log(b))", {"a": 3.0, "b": 2.0}, 1.5),
        # ... and to one symbol or one fraction: log ρ − 1, not log(ρ − 1)
        (r"\rho-\log\rho-1", {"rho": 2.0}, 1 - math.log(2)),
        (r"\beta\log\frac{a}{b}-\beta\log\frac{c}{d}", {"beta": 2.0, "a": 4.0, "b": 1.0,
         "c": 2.0, "d": 1.0}, 2 * math.log(2)),
    ],
)
def test_a_functions_argument_is_read_as_a_reader_reads_it(
    latex: str, values: dict[str, float], expected: float
) -> None:
    assert float(evaluate(parse_relation(latex), values)) == pytest.approx(expected, abs=1e-12)


def test_a_policy_of_a_named_answer_is_that_answers_probability() -> None:
    margin = parse_relation(
        r"\log\frac{\pi(y_w)}{\pi_{ref}(y_w)}-\log\frac{\pi(y_l)}{\pi_{ref}(y_l)}"
    )
    assert margin.identifiers == ("pi_ref_y_l", "pi_ref_y_w", "pi_y_l", "pi_y_w")
    # a bare letter or a conditional is the sampled action: one symbol, as before
    assert parse_relation(r"\frac{\pi_{new}(a)}{\pi_{old}(a\mid s)}").identifiers == (
        "pi_new", "pi_old")


@pytest.mark.parametrize(
    "latex",
    [
        r"\mathbb{E}_{a\sim\pi}[x]",
        r"\begin{cases}0 & x\end{cases}",
        r"\sum_{i=1}^{n} x_i",
        r"\odot",
        r"\hat{\mathbb{E}}_t x_t",
    ],
)
def test_notation_outside_the_subset_is_refused_with_a_reason(latex: str) -> None:
    with pytest.raises(EquationError) as error:
        parse_relation(latex)
    assert str(error.value)


# -- checking lessons --------------------------------------------------------------------


def test_every_shipped_equation_is_checked_or_exempt() -> None:
    result = check_paths([CONTENT])
    assert not [d for d in result.diagnostics if d.code.startswith("RLKL43")]
    records = [r for report in result.reports for r in report.equations]
    assert {r.status for r in records} <= {"verified", "exempt"}
    verified = {(r.pointer, r.relation) for r in records if r.status == "verified"}
    assert ("/science/0/equation", "J_{clip}") in verified
    assert ("/science/0/equation", r"D_{KL}(p\Vert q)") in verified
    for record in records:
        if record.status == "exempt":
            assert len(record.detail) >= 10  # a written reason


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        (r"\\min(rA,", r"\\max(rA,", "J_{clip}"),
        (r"clip}(r,1-\\epsilon", r"clip}(r,1+\\epsilon", "J_{clip}"),
        (r"\\sum_i p_i\\log\\frac{p_i}{q_i}", r"\\sum_i q_i\\log\\frac{q_i}{p_i}", "D_{KL}"),
        (r"p_i\\log\\frac{p_i}{q_i}", r"p_i\\frac{p_i}{q_i}", "D_{KL}"),
        (
            r"\\frac{\\pi_\\theta(a\\mid s)}{\\pi_{old}",
            r"\\frac{\\pi_{old}(a\\mid s)}{\\pi_\\theta",
            "`r =",
        ),
    ],
    ids=["max-for-min", "1+eps-for-1-eps", "swapped-kl", "dropped-log", "inverted-ratio"],
)
def test_planted_equation_faults_fail_at_the_equation(
    tmp_path: Path, old: str, new: str, relation: str
) -> None:
    root = _copy(tmp_path)
    _edit(root / SEED / "lesson.json", old, new)
    result = check_paths([root])
    failures = [d for d in result.diagnostics if d.code == "RLKL431"]
    assert len(failures) == 1, result.diagnostics
    failure = failures[0]
    assert failure.pointer == "/science/0/equation"
    assert failure.file.endswith(f"{SEED}/lesson.json") and failure.line >= 1
    assert relation in failure.message
    assert result.summary()["errors"] == 1


def test_an_unbound_relation_says_what_to_write(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    claims = root / SEED / "claims.yaml"
    text = claims.read_text(encoding="utf-8")
    claims.write_text(text[: text.index("  - in: /science/0/equation\n    relation: r\n")])
    result = check_paths([root])
    unbound = [d for d in result.diagnostics if d.code == "RLKL430"]
    assert len(unbound) == 2
    assert all(d.pointer == "/science/0/equation" for d in unbound)
    assert "relation: 'r'" in unbound[0].message and "pi_old, pi_theta" in unbound[0].message


def test_an_exemption_with_a_reason_covers_an_unreadable_equation(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / SEED / "lesson.json", r"\\min(rA,", r"\\mathcal{M}(rA,")
    assert ("RLKL432", "/science/0/equation") in _codes(check_paths([root]))
    claims = root / SEED / "claims.yaml"
    _edit(
        claims,
        "    is: ppo_clip_objective(r, A, epsilon)\n"
        "    grid: {r: [0.5, 0.8, 0.9, 1.0, 1.1, 1.2, 1.4, 2.0], A: [-2, -0.5, 0.5, 2], "
        "epsilon: [0.1, 0.2, 0.3]}\n    worked: {r: ratio, A: A, epsilon: eps}\n",
        "    exempt: A test of an exemption for notation rlkl cannot read.\n",
    )
    result = check_paths([root])
    assert result.summary()["errors"] == 0, result.diagnostics
    records = {r.relation: r.status for report in result.reports for r in report.equations}
    assert records["J_{clip}"] == "exempt"


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("relation: r\n", "relation: rho\n", "is not in /science/0/equation"),
        ("{pi_theta: [0.1, 0.5, 0.7, 0.9], ", "{", "grid gives no values for pi_theta"),
        ("worked: {pi_theta: p_new,", "worked: {pi_theta: p_newest,", "not a quantity"),
        ("in: /science/0/equation\n    relation: r\n", "in: /science/7/equation\n    relation: r\n",
         "is not an equation of the lesson"),
    ],
)
def test_binding_mistakes_are_located_in_claims_yaml(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    root = _copy(tmp_path)
    _edit(root / SEED / "claims.yaml", old, new)
    result = check_paths([root])
    found = [d for d in result.diagnostics if d.code == "RLKL433"]
    assert len(found) == 1, result.diagnostics
    assert found[0].file.endswith("claims.yaml") and found[0].pointer.startswith("/equations/")
    assert words in found[0].message


def test_a_grid_the_core_rejects_is_reported(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / SEED / "claims.yaml", "q: [[0.5, 0.5], [0.9, 0.1]", "q: [[0.5, 0.6], [0.9, 0.1]")
    found = [d for d in check_paths([root]).diagnostics if d.code == "RLKL434"]
    assert len(found) == 1 and "kl_divergence" in found[0].message


def test_rlkl_claims_lists_equations_with_their_status(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rlkl.cli import main

    root = _copy(tmp_path)
    good = CliRunner().invoke(main, ["claims", str(root / SEED)])
    assert good.exit_code == 0, good.output
    rows = [line for line in good.output.splitlines() if "/science/0/equation" in line]
    assert len(rows) == 3
    assert "J_{clip}" in rows[0] and "verified" in rows[0] and "ppo_clip_objective" in rows[0]
    _edit(root / SEED / "lesson.json", r"\\min(rA,", r"\\max(rA,")
    bad = CliRunner().invoke(main, ["claims", str(root / SEED)])
    assert bad.exit_code == 1
    failed = [line for line in bad.output.splitlines() if "J_{clip}" in line and "FAILED" in line]
    assert len(failed) == 1
    # the report ends with the share of relations verified, in text and in JSON
    assert good.output.splitlines()[-1] == "equations: 3 of 3 relations verified (100%), 0 exempt"
    assert bad.output.splitlines()[-1] == (
        "equations: 2 of 3 relations verified (67%), 0 exempt, 1 failing or unchecked"
    )
    listing = json.loads(CliRunner().invoke(main, ["claims", "--format", "json", str(root)]).stdout)
    assert listing["equation_share"] == {"verified": 2, "exempt": 0, "total": 3}


def test_a_very_long_relation_is_refused_before_parsing() -> None:
    with pytest.raises(EquationError, match="longer than"):
        parse_relation("+".join([r"\frac{x}{y}"] * 40))


def test_a_grid_too_large_is_refused_before_it_is_built(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    many = "[" + ", ".join(str(0.1 + i / 100) for i in range(50)) + "]"
    _edit(
        root / SEED / "claims.yaml",
        "grid: {r: [0.5, 0.8, 0.9, 1.0, 1.1, 1.2, 1.4, 2.0], A: [-2, -0.5, 0.5, 2], "
        "epsilon: [0.1, 0.2, 0.3]}",
        f"grid: {{r: {many}, A: {many}, epsilon: {many}}}",
    )
    found = [d for d in check_paths([root]).diagnostics if d.code == "RLKL433"]
    assert len(found) == 1 and "125000 points" in found[0].message


def test_an_equation_with_too_many_relations_is_cut_short(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    many = ",".join(f"x_{{{i}}}=y" for i in range(5000))
    _edit(root / SEED / "lesson.json", r'"equation":"J_{clip}=', f'"equation":"{many},J_{{clip}}=')
    result = check_paths([root])
    cut = [d for d in result.diagnostics if d.code == "RLKL432"]
    assert len(cut) == 1 and "5003 relations" in cut[0].message
    assert sum(d.code == "RLKL430" for d in result.diagnostics) == 50


def test_a_broken_bindings_file_reports_itself_not_every_equation(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    claims = root / SEED / "claims.yaml"
    claims.write_text(claims.read_text(encoding="utf-8") + "\n  bad: [\n", encoding="utf-8")
    codes = {d.code for d in check_paths([root]).diagnostics}
    assert "RLKL601" in codes and "RLKL430" not in codes


def test_the_empirical_mean_over_a_batch() -> None:
    latex = (
        r"\hat{\mathbb{E}}_t\left[\min\left(\rho_t(\theta)\hat{A}_t,\ "
        r"\operatorname{clip}\left(\rho_t(\theta),1-\epsilon,1+\epsilon\right)\hat{A}_t\right)\right]"
    )
    parsed = parse_relation(latex)
    assert parsed.identifiers == ("A_hat", "epsilon", "rho")
    assert parsed.elements == {"A_hat", "rho"}
    env = {"rho": np.array([0.5, 1.4]), "A_hat": np.array([-2.0, 2.0]), "epsilon": 0.2}
    assert float(evaluate(parsed, env)) == pytest.approx((-1.6 + 2.4) / 2)


def test_a_planted_fault_in_the_ppo_objective_fails(tmp_path: Path) -> None:
    lesson = "ppo-clipped-objective"
    root = _copy(tmp_path, lesson)
    _edit(root / lesson / "lesson.json", r"\\left[\\min\\left(", r"\\left[\\max\\left(")
    failures = [d for d in check_paths([root]).diagnostics if d.code == "RLKL431"]
    assert len(failures) == 1
    assert failures[0].pointer == "/science/0/equation" and "L^{CLIP}" in failures[0].message


# The relations of the newer lessons that are bound (not exempt) catch their planted faults.
NEW_LESSON_FAULTS = [
    # the error's clip range: -0.2 written -0.3
    ("adaptive-kl-controllers", r",\\,-0.2,\\,0.2\\right)", r",\\,-0.3,\\,0.2\\right)", "e_t"),
    # the relative error d/d_targ - 1 written d/d_targ + 1
    ("adaptive-kl-controllers", r"{d_{targ}}-1,", r"{d_{targ}}+1,", "e_t"),
    # the update β(1 + K e) written β(1 - K e)
    ("adaptive-kl-controllers", r"\\left(1+K_\\beta", r"\\left(1-K_\\beta", r"\beta_{t+1}"),
    # GRPO's ρ = π_ref/π_θ written upside down
    (
        "grpo-group-advantages",
        r"\\rho=\\frac{\\pi_{ref}(o_t\\mid q,o_{<t})}{\\pi_\\theta(o_t\\mid q,o_{<t})}",
        r"\\rho=\\frac{\\pi_\\theta(o_t\\mid q,o_{<t})}{\\pi_{ref}(o_t\\mid q,o_{<t})}",
        r"\rho",
    ),
    # GRPO's k3 written ρ − log ρ + 1
    ("grpo-group-advantages", r"\\rho-\\log\\rho-1,", r"\\rho-\\log\\rho+1,", r"\hat D"),
    # DPO's margin with chosen and rejected swapped in the first log-ratio
    (
        "direct-preference-objective",
        r"\\frac{\\pi(y_w)}{\\pi_{ref}(y_w)}-",
        r"\\frac{\\pi(y_l)}{\\pi_{ref}(y_w)}-",
        r"\mathcal{L}",
    ),
    # the log-softmax's normaliser added instead of subtracted
    ("output-head", r"{T}-\\log\\sum_u", r"{T}+\\log\\sum_u", r"\log\pi_T"),
    # the reward model's gradient σ(margin) − 1 written σ(margin) + 1
    (
        "preference-reward-model",
        r"(r_w-r_l))}-1",
        r"(r_w-r_l))}+1",
        r"\frac{\partial\mathcal{L}}{\partial r_w}",
    ),
]


@pytest.mark.parametrize(("lesson", "old", "new", "relation"), NEW_LESSON_FAULTS)
def test_a_planted_fault_in_a_newer_lessons_equation_fails_there(
    tmp_path: Path, lesson: str, old: str, new: str, relation: str
) -> None:
    root = _copy(tmp_path, lesson)
    _edit(root / lesson / "lesson.json", old, new)
    failures = [d for d in check_paths([root]).diagnostics if d.code == "RLKL431"]
    assert len(failures) == 1, failures
    assert failures[0].pointer == "/science/1/equation"
    assert f"`{relation} = " in failures[0].message


# Relations the reader learnt to read: GAE's recursion (superscript names, V(s_t), cases) and
# GRPO's group statistics (mean, sample std, r_i beside r).
READ_NOW_FAULTS = [
    # the termination mask dropped from the TD error
    ("gae-termination-truncation", r"\\gamma\\,(1-d^{term}_t)\\,V(s_{t+1})",
     r"\\gamma\\,V(s_{t+1})", "/science/0/equation", r"\delta_t"),
    # the truncation mask dropped from the recursion
    ("gae-termination-truncation", r"(1-d^{term}_t)(1-d^{trunc}_t)\\,A_{t+1}",
     r"(1-d^{term}_t)\\,A_{t+1}", "/science/0/equation", "A_t"),
    # a truncated step that does not bootstrap
    ("gae-termination-truncation", r"\\delta_t=r_t+\\gamma V(s_{t+1})-V(s_t)",
     r"\\delta_t=r_t-V(s_t)+0", "/science/1/equation", r"\delta_t"),
    # PPO's derivative: the negative-advantage case clipped at 1 + ε instead of 1 − ε
    ("ppo-clipped-objective", r"\\hat{A}_t<0,\\ \\rho_t<1-\\epsilon",
     r"\\hat{A}_t<0,\\ \\rho_t<1+\\epsilon", "/science/1/equation",
     r"\frac{\partial}{\partial\log\pi_\theta(a_t\mid s_t)}\min(\rho_t\hat{A}_t,"
     r"\operatorname{clip}(\rho_t,1-\epsilon,1+\epsilon)\hat{A}_t)"),
    # GRPO's ε added to the numerator
    ("grpo-group-advantages", r"\\operatorname{std}(r)+\\epsilon}",
     r"\\operatorname{std}(r)}+\\epsilon", "/science/0/equation", "A_i"),
]


@pytest.mark.parametrize(("lesson", "old", "new", "pointer", "relation"), READ_NOW_FAULTS)
def test_a_planted_fault_in_a_newly_readable_relation_fails_there(
    tmp_path: Path, lesson: str, old: str, new: str, pointer: str, relation: str
) -> None:
    root = _copy(tmp_path, lesson)
    _edit(root / lesson / "lesson.json", old, new)
    found = check_paths([root]).diagnostics
    # a relation bound by its left-hand side fails its check (RLKL431); one bound by its whole
    # text is, once edited, a relation no binding checks (RLKL430): an error either way
    at = [d for d in found if d.pointer == pointer and d.code in ("RLKL430", "RLKL431")]
    assert any(f"`{relation} = " in d.message for d in at), found


def test_std_is_the_sample_standard_deviation_and_a_free_index_runs_over_the_list() -> None:
    scaled = parse_relation(r"\frac{r_i-\operatorname{mean}(r)}{\operatorname{std}(r)}")
    values = evaluate(scaled, {"r": np.array([1.0, 0.0, 0.0, 1.0])})
    sample_std = math.sqrt(1 / 3)  # the sum of squares 1 over n - 1 = 3, not over n = 4
    np.testing.assert_allclose(values, 0.5 / sample_std * np.array([1, -1, -1, 1]))
    assert parse_relation(r"\beta_t(1+K_\beta e_t)").identifiers == ("K_beta", "beta_t", "e_t")
    with pytest.raises(EquationError, match="only clip, mean and std"):
        parse_relation(r"\operatorname{var}(r)")
    with pytest.raises(EquationError, match="outside"):
        parse_relation(r"\cos x")  # the reader's own sentinel for std is not the source's


def test_cases_are_read_piecewise_first_row_that_holds() -> None:
    piecewise = parse_relation(
        r"\begin{cases}0 & \hat{A}_t>0,\ \rho_t>1+\epsilon\\ -1 & \rho_t\leq 0.5"
        r"\\ \rho_t\hat{A}_t & \text{otherwise}\end{cases}"
    )
    assert piecewise.identifiers == ("A_hat_t", "epsilon", "rho_t")
    got = evaluate(piecewise, {"rho_t": np.array([1.4, 1.4, 0.5, 0.9]),
                               "A_hat_t": np.array([2.0, -2.0, 2.0, 2.0]), "epsilon": 0.2})
    np.testing.assert_allclose(got, [0.0, -2.8, -1.0, 1.8])
    for i, want in enumerate(got):  # one point at a time (a grid): the same float64 values
        one = evaluate(piecewise, {"rho_t": [1.4, 1.4, 0.5, 0.9][i],
                                   "A_hat_t": [2.0, -2.0, 2.0, 2.0][i], "epsilon": 0.2})
        assert type(one) is np.float64 and one == want
    none_holds = parse_relation(r"\begin{cases}1 & x>0\\ 2 & x<-1\end{cases}")
    assert np.isnan(evaluate(none_holds, {"x": -0.5}))
    assert np.isnan(evaluate(none_holds, {"x": np.array([-0.5])})).all()
    with pytest.raises(EquationError, match="one comparison"):
        parse_relation(r"\begin{cases}1 & x \end{cases}")
    with pytest.raises(EquationError, match="one &"):
        parse_relation(r"\begin{cases}1 \end{cases}")
    # a comma inside the cases does not split the relation
    cases = r"g=\begin{cases}0 & a>0,\ b>0\\ 1 & \text{otherwise}\end{cases}"
    assert [r.lhs for r in split_relations(cases)] == ["g"]


def test_cases_superscript_names_and_values_at_a_state() -> None:
    relations = split_relations(r"d^{term}_t=1:\ \delta_t=r_t-V(s_t);\ d_t=2")
    assert [r.lhs for r in relations] == [r"\delta_t", "d_t"]
    td = parse_relation(r"r_t+\gamma\,(1-d^{term}_t)\,V(s_{t+1})-V(s_t)")
    assert td.identifiers == ("V_s_t", "V_s_t_1", "d_term_t", "gamma", "r_t")
    assert parse_relation(r"\gamma\lambda A").identifiers == ("A", "gamma", "lam")


_EDGE = st.sampled_from([0.0, -0.0, 1.0, 1e-12, 1e300, math.inf, -math.inf, math.nan])
_NUMBER = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10, 10), _EDGE)


@given(left=_NUMBER, right=_NUMBER, near=st.floats(-1e-8, 1e-8))
def test_scalar_agreement_is_numpys(left: float, right: float, near: float) -> None:
    """Two plain numbers are compared without numpy; the answer is numpy.allclose's,
    at the tolerance boundary and for NaN and infinities too."""
    for a, b in ((left, right), (left, left * (1 + near)), (np.float64(left), right)):
        want = bool(np.allclose(a, b, rtol=equations.RTOL, atol=equations.ATOL, equal_nan=True))
        assert equations._agree(a, b) is want, (a, b)
