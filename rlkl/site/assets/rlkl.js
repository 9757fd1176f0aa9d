/* rlkl site behaviour: the check question and the "change one variable" controls.
   The controls use the formulas of rlkl.core (rlkl/core/ppo.py):
     ratio     r = exp(log π_new − log π_old)               (ppo_ratio)
     objective min(r·A, clip(r, 1 − ε, 1 + ε)·A)             (ppo_clip_objective)
     gradient  r·A, or 0 where the clip binds:               (ppo_clip_grad)
               A > 0 and r > 1 + ε, or A < 0 and r < 1 − ε
   The controls also redraw the plot above them (curves for ±|Â| and ε, the clip thresholds
   and the dot at the chosen ratio) on the scale the page was built with.
   A number's record (its ::after tooltip) is shifted left when it would leave the window.
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

  function fmt(x) {  // as rlkl/site/plot.py writes numbers (4 significant digits, U+2212)
    return String(Number(x.toPrecision(4))).replace("-", "\u2212");
  }

  function drawPlot(svg, inputs, out) {
    if (!svg || out.error) return;
    var d = svg.dataset, pad = +d.pad, w = +d.width, h = +d.height, rmax = +d.rmax;
    var eps = inputs.epsilon, size = Math.abs(inputs.advantage);  // 0: both curves flat at 0
    function at(r, a) { return compute({ ratio: r, advantage: a, epsilon: eps }).objective; }
    var ratios = [0].concat([1 - eps, 1 + eps].filter(function (k) {
      return k > 0 && k < rmax;
    }), [rmax]);
    var r0 = Math.min(Math.max(out.ratio, 0), rmax), y0 = at(r0, inputs.advantage);
    // the vertical scale follows the curves (a larger |A| stretches them): kept in the SVG's
    // data, with its zero line and its three labels
    var values = [0, y0];
    ratios.forEach(function (r) { values.push(at(r, size), at(r, -size)); });
    var low = Math.min.apply(null, values), high = Math.max.apply(null, values);
    var span = (high - low) || 1;
    d.low = String(low);
    d.high = String(low + span);
    function x(r) { return pad + (w - 2 * pad) * r / rmax; }
    function y(v) { return h - pad - (h - 2 * pad) * (v - low) / span; }
    var zero = svg.querySelector(".rlkl-zero");
    if (zero) {
      zero.setAttribute("y1", y(0).toFixed(1));
      zero.setAttribute("y2", y(0).toFixed(1));
    }
    svg.querySelectorAll(".rlkl-ytick").forEach(function (tick) {
      var value = { low: low, zero: 0, high: low + span }[tick.dataset.at];
      tick.setAttribute("y", (y(value) + 4).toFixed(1));
      tick.textContent = fmt(value);
    });
    [["pos", size], ["neg", -size]].forEach(function (curve) {
      svg.querySelector(".rlkl-curve-" + curve[0]).setAttribute("points", ratios.map(function (r) {
        return x(r).toFixed(1) + "," + y(at(r, curve[1])).toFixed(1);
      }).join(" "));
      var label = svg.querySelector(".rlkl-label-" + curve[0]);
      label.setAttribute("y", (y(at(rmax, curve[1])) - (curve[1] > 0 ? 6 : 8)).toFixed(1));
      label.textContent = size === 0 ? "A = 0" :
        "A = " + (curve[1] > 0 ? "+" : "\u2212") + fmt(size);
      label.setAttribute("visibility", size === 0 && curve[0] === "neg" ? "hidden" : "visible");
    });
    svg.querySelectorAll(".rlkl-edge").forEach(function (g) {
      var edge = 1 + Number(g.dataset.sign) * eps;
      g.setAttribute("visibility", edge >= 0 && edge <= rmax ? "visible" : "hidden");
      g.querySelector("line").setAttribute("x1", x(edge).toFixed(1));
      g.querySelector("line").setAttribute("x2", x(edge).toFixed(1));
      var text = g.querySelector("text");
      text.setAttribute("x", x(edge).toFixed(1));
      text.textContent = text.textContent.replace(/=.*$/, "= " + fmt(edge));
    });
    // the dot stays on its curve, at the chart's edge for a ratio beyond it; its label gives
    // the sample's own value (the table's), with an arrow when the sample lies off the chart
    var dot = svg.querySelector(".rlkl-sample"), tag = svg.querySelector(".rlkl-sample-label");
    dot.setAttribute("cx", x(r0).toFixed(1));
    dot.setAttribute("cy", y(y0).toFixed(1));
    var beyond = out.ratio > rmax ? " \u2192" : "";
    tag.setAttribute("x", Math.min(x(r0) + 8, w - pad - 80).toFixed(1));
    tag.setAttribute("y", (y(y0) - 8).toFixed(1));
    tag.textContent = "(" + fmt(out.ratio) + ", " + fmt(out.objective) + ")" + beyond;
    svg.querySelector("title").textContent = "Clipped objective against the ratio for A = \u00b1" +
      fmt(size) + ", \u03b5 = " + fmt(eps) + "; the chosen sample r = " + fmt(out.ratio) +
      ", A = " + fmt(inputs.advantage) + " gives " + fmt(out.objective);
  }

  function placeTip(event) {
    var mark = event.target.closest && event.target.closest(".rlkl-num");
    if (!mark) return;
    mark.style.removeProperty("--rlkl-tip-left");
    var width = parseFloat(getComputedStyle(mark, "::after").width);
    if (!(width > 0)) return;
    var left = mark.getBoundingClientRect().left, margin = 8;
    var room = document.documentElement.clientWidth - margin - left;
    var shift = Math.max(Math.min(0, room - width), margin - left);
    if (shift < 0) mark.style.setProperty("--rlkl-tip-left", shift + "px");
  }

  function setupControls(form) {
    var error = form.querySelector(".rlkl-control-error");
    var names = ["ratio", "raw", "clipped", "objective", "gradient"];
    var svg = form.parentNode.querySelector("svg.rlkl-plot");
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
      drawPlot(svg, inputs, out);
    }
    form.addEventListener("input", update);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    update();
  }

  function setupQuiz(form) {
    // Nothing is shown until the learner asks: choosing (a click, or the arrow keys moving
    // through the options) only selects; "Check my answer" (or Enter) gives the feedback.
    var key = form.querySelector(".rlkl-why[data-key]");
    var answer = key ? key.dataset.index : null;
    var details = form.querySelector(".rlkl-answers");
    var feedback = form.querySelector(".rlkl-feedback");
    details.hidden = true;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var chosen = form.querySelector('input[name="rlkl-choice"]:checked');
      if (!chosen) {
        feedback.textContent = "Choose an option first.";
        feedback.dataset.result = "none";
        return;
      }
      var choice = chosen.value;
      form.querySelectorAll(".rlkl-option").forEach(function (option) {
        var index = option.dataset.index;
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

  // A display equation wider than its column is shrunk, down to 0.9em; if it is still wider,
  // it becomes a labelled scroll region the keyboard can reach (and loses that when it fits).
  function fitEquations() {
    document.querySelectorAll(".rlkl-equation").forEach(function (box, index) {
      var math = box.querySelector("math");
      if (!math) { return; }
      math.style.fontSize = "";
      var sizes = ["1.15em", "1.05em", "0.95em", "0.9em"];
      for (var i = 0; i < sizes.length && box.scrollWidth > box.clientWidth + 1; i++) {
        math.style.fontSize = sizes[i];
      }
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("rlkl-scrolls", scrolls);
      if (scrolls) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Equation " + (index + 1) + ", scrolls sideways");
      } else {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }

  // A table wider than the column scrolls in the theme's wrapper: let the keyboard reach it.
  function reachTables() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap, index) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", "Table " + (index + 1) + ", scrolls sideways");
      } else if (wrap.getAttribute("role") === "region") {
        wrap.removeAttribute("tabindex");
        wrap.removeAttribute("role");
        wrap.removeAttribute("aria-label");
      }
    });
  }
  reachTables();
  window.addEventListener("load", reachTables);  // the theme wraps tables as the page loads
  window.addEventListener("resize", reachTables);

  // The theme's search dialog has no name of its own (axe: aria-dialog-name).
  document.querySelectorAll('.md-search[role="dialog"]').forEach(function (dialog) {
    if (!dialog.getAttribute("aria-label")) { dialog.setAttribute("aria-label", "Search"); }
  });

  document.documentElement.classList.add("rlkl-js");
  fitEquations();
  window.addEventListener("resize", fitEquations);
  document.addEventListener("mouseover", placeTip);
  document.addEventListener("focusin", placeTip);
  document.querySelectorAll("[data-rlkl-controls]").forEach(setupControls);
  document.querySelectorAll("[data-rlkl-quiz]").forEach(setupQuiz);
})();
