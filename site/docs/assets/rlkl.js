/* rlkl site behaviour: the check question and the "change one variable" controls.
   The controls use the formulas of rlkl.core (rlkl/core/ppo.py):
     ratio     r = exp(log π_new − log π_old)               (ppo_ratio)
     objective min(r·A, clip(r, 1 − ε, 1 + ε)·A)             (ppo_clip_objective)
     gradient  r·A, or 0 where the clip binds:               (ppo_clip_grad)
               A > 0 and r > 1 + ε, or A < 0 and r < 1 − ε
   Without JavaScript, the quiz answer sits in a closed <details> and the controls show the
   lesson's own example, computed when the page was built. */
(function () {
  "use strict";

  function show(x) {
    var r = Number(x.toFixed(6));
    if (r === 0) return "0";
    return String(r).replace("-", "\u2212");
  }

  function compute(inputs) {
    var a = inputs.advantage, eps = inputs.epsilon, r;
    if (!isFinite(a)) return { error: "Â must be a number" };
    if (!isFinite(eps) || eps < 0) return { error: "ε must be a finite number ≥ 0" };
    if ("ratio" in inputs) {
      r = inputs.ratio;
      if (!isFinite(r) || r < 0) return { error: "ρ must be a number ≥ 0" };
    } else {
      var po = inputs.p_old, pn = inputs.p_new;
      if (!(po > 0 && po <= 1)) return { error: "π_old must be a probability in (0, 1]" };
      if (!(pn > 0 && pn <= 1)) return { error: "π_θ must be a probability in (0, 1]" };
      r = Math.exp(Math.log(pn) - Math.log(po));
    }
    var low = 1 - eps, high = 1 + eps;
    var clipped = Math.min(Math.max(r, low), high) * a;
    var raw = r * a;
    var binds = (a > 0 && r > high) || (a < 0 && r < low);
    return {
      ratio: r, raw: raw, clipped: clipped, objective: Math.min(raw, clipped),
      gradient: binds ? 0 : raw, binds: binds
    };
  }

  function setupControls(form) {
    var error = form.querySelector(".rlkl-control-error");
    var names = ["ratio", "raw", "clipped", "objective", "gradient"];
    function read(name) {
      var input = form.elements.namedItem(name);
      return input ? parseFloat(input.value) : undefined;
    }
    function update() {
      var inputs = { advantage: read("advantage"), epsilon: read("epsilon") };
      if (form.dataset.mode === "probs") {
        inputs.p_old = read("p_old"); inputs.p_new = read("p_new");
      } else {
        inputs.ratio = read("ratio");
      }
      var out = compute(inputs);
      names.forEach(function (name) {
        var node = form.querySelector('output[name="' + (name === "ratio" ? "ratio_out" : name) + '"]');
        if (out.error) { node.textContent = "—"; node.dataset.value = ""; }
        else { node.textContent = show(out[name]); node.dataset.value = String(out[name]); }
      });
      var branch = form.querySelector('output[name="branch"]');
      branch.textContent = out.error ? "—" : (out.binds ? "clipped (flat, no gradient)" : "raw product");
      error.hidden = !out.error;
      error.textContent = out.error || "";
    }
    form.addEventListener("input", update);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    update();
  }

  function setupQuiz(form) {
    var answer = Number(form.dataset.answer);
    var details = form.querySelector(".rlkl-answers");
    var feedback = form.querySelector(".rlkl-feedback");
    details.hidden = true;  // with JS the answer appears only after a choice
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("change", function (event) {
      var choice = Number(event.target.value);
      form.querySelectorAll(".rlkl-option").forEach(function (option) {
        var index = Number(option.dataset.index);
        option.classList.toggle("rlkl-correct", index === answer);
        option.classList.toggle("rlkl-wrong", index === choice && choice !== answer);
      });
      var why = form.querySelector('.rlkl-why[data-index="' + choice + '"]');
      feedback.textContent = (choice === answer ? "Correct. " : "Not quite. ") +
        (why ? why.textContent : "");
      feedback.dataset.result = choice === answer ? "correct" : "wrong";
      details.hidden = false;
      details.open = true;
    });
  }

  document.documentElement.classList.add("rlkl-js");
  document.querySelectorAll("[data-rlkl-controls]").forEach(setupControls);
  document.querySelectorAll("[data-rlkl-quiz]").forEach(setupQuiz);
})();
