/* rlkl site behaviour: the check question and the "change one variable" controls.
   The controls compute nothing: the page ships, as JSON, every number that moves at every
   point of each input's range, computed with rlkl.core when the site was built
   (rlkl/claims/explore.py), and the plot's curves with their vertical ranges, each
   repeated part once (rlkl/site/plot.py, `shipped`; unpacked here to exactly those texts
   and values). Moving a control writes those texts into the marked numbers, marks the
   claims that stop holding, and redraws the plot from the shipped curve.
   A number's record (its ::after tooltip) is shifted left when it would leave the window.
   Without JavaScript, the quiz answer sits in a closed <details> and the controls stay at
   the lesson's own values (disabled). */
(function () {
  "use strict";

  function runs(entries, each) {  // rlkl/site/plot.py `_runs`: [entry, count] is a run
    var out = [];
    entries.forEach(function (entry) {
      var count = Array.isArray(entry) ? entry[1] : 1;
      if (Array.isArray(entry)) entry = entry[0];
      for (var i = 0; i < count; i++) out.push(each(entry));
    });
    return out;
  }

  function column(shipped) {  // rlkl/site/plot.py `column`: exact, whole units of 10^-k
    var k = shipped[0], unit = Number("1e" + k), sum = 0;
    return runs(shipped.slice(1), function (entry) {
      if (entry === null || k === null) return entry;
      sum += entry;
      return sum / unit;
    });
  }

  function unpack(data) {  // the shipped data with every text, list and curve in place
    var lists = data.lists.map(function (list) {
      return runs(list, function (i) { return data.texts[i]; });
    });
    data.knobs.forEach(function (knob) {
      knob.texts = lists[knob.texts];
      Object.keys(knob.numbers).forEach(function (n) {
        knob.numbers[n] = lists[knob.numbers[n]];
      });
    });
    var plot = data.plot;
    if (plot) {
      plot.xs = column(plot.xs);
      plot.ys = plot.ys.map(column);
    }
    return data;
  }

  function redraw(svg, plot, curve, index) {
    if (!svg || !plot) return;
    var d = svg.dataset, pad = +d.pad, w = +d.width, h = +d.height, x0 = +d.x0, x1 = +d.x1;
    var ys = plot.ys[curve], low = plot.scales[curve][0], high = plot.scales[curve][1];
    function x(v) { return pad + (w - 2 * pad) * (v - x0) / ((x1 - x0) || 1); }
    function y(v) { return h - pad - (h - 2 * pad) * (v - low) / (high - low); }
    svg.querySelector(".rlkl-curve").setAttribute("points", plot.xs.map(function (v, i) {
      return ys[i] === null ? null : x(v).toFixed(1) + "," + y(ys[i]).toFixed(1);
    }).filter(Boolean).join(" "));
    var zero = svg.querySelector(".rlkl-zero");
    zero.setAttribute("y1", y(0).toFixed(1));
    zero.setAttribute("y2", y(0).toFixed(1));
    zero.setAttribute("visibility", low <= 0 && 0 <= high ? "visible" : "hidden");
    svg.querySelectorAll(".rlkl-ytick").forEach(function (tick) {
      var value = tick.dataset.at === "low" ? low : high;
      tick.setAttribute("y", (y(value) + 4).toFixed(1));
      tick.textContent = fmt(value);
    });
    var at = index === null ? plot.at : plot.points[index];
    var dot = svg.querySelector(".rlkl-sample"), tag = svg.querySelector(".rlkl-sample-label");
    var px = plot.xs[at], py = ys[at];
    dot.setAttribute("visibility", py === null ? "hidden" : "visible");
    tag.setAttribute("visibility", py === null ? "hidden" : "visible");
    if (py === null) return;
    dot.setAttribute("cx", x(px).toFixed(1));
    dot.setAttribute("cy", y(py).toFixed(1));
    tag.setAttribute("x", Math.min(x(px) + 8, w - pad - 90).toFixed(1));
    tag.setAttribute("y", Math.max(y(py) - 8, 14).toFixed(1));
    tag.textContent = "(" + fmt(px) + ", " + fmt(py) + ")";
  }

  function fmt(x) {  // as rlkl/site/plot.py writes axis numbers (4 significant digits)
    var text = String(Number(x.toPrecision(4)));
    return text === "-0" ? "0" : text.replace("-", "\u2212");
  }

  function setupExplore(section) {
    var data = unpack(JSON.parse(section.querySelector(".rlkl-explore-data").textContent));
    section.rlklExplore = data;  // as the page uses it (the browser tests read it)
    var form = section.querySelector("form"), svg = section.querySelector("svg.rlkl-plot");
    var summary = form.querySelector(".rlkl-moved-summary");
    var sliders = Array.prototype.slice.call(form.querySelectorAll("input[data-knob]"));
    var marks = {};
    document.querySelectorAll(".rlkl-num[data-n]").forEach(function (el) {
      marks[el.dataset.n] = { el: el, text: el.textContent, detail: el.dataset.detail };
    });
    function show(slider, i) {
      var knob = data.knobs[+slider.dataset.knob];
      slider.value = String(i);
      slider.setAttribute("aria-valuetext", knob.texts[i]);
      form.querySelector('output[for="' + slider.id + '"]').textContent = knob.texts[i];
    }
    function apply(k, i) {
      var knob = data.knobs[k];
      Object.keys(marks).forEach(function (n) {
        var m = marks[n];
        m.el.textContent = m.text;
        m.el.dataset.detail = m.detail;
        m.el.classList.remove("rlkl-moved", "rlkl-untrue");
      });
      sliders.forEach(function (slider, j) { show(slider, j === k ? i : data.knobs[j].at); });
      var moved = 0, untrue = 0, changed = knob.name + " = " + knob.texts[i];
      Object.keys(knob.numbers).forEach(function (n) {
        var m = marks[n], text = knob.numbers[n][i];
        if (!m || text === m.text) return;
        m.el.textContent = text;
        m.el.classList.add("rlkl-moved");
        m.el.dataset.detail = "moved with " + changed + ": recomputed with rlkl.core when " +
          "this site was built, by the expression that verified the lesson's " + m.text;
        moved += 1;
      });
      Object.keys(knob.untrue).forEach(function (n) {
        var m = marks[n];
        if (!m || knob.untrue[n].indexOf(i) < 0) return;
        m.el.classList.add("rlkl-untrue");
        m.el.dataset.detail = "no longer true here (" + changed + "): " + m.detail;
        untrue += 1;
      });
      summary.textContent = i === knob.at ? "The inputs are at the lesson's values." :
        changed + ": " + moved + " number" + (moved === 1 ? "" : "s") + " of the page moved" +
        (untrue ? ", and " + untrue + " claim" + (untrue === 1 ? " is" : "s are") +
         " no longer true here (marked)" : "") + ".";
      var plot = data.plot;
      var moved = plot && Object.prototype.hasOwnProperty.call(plot.moved, knob.name);
      if (plot) redraw(svg, plot, moved ? plot.moved[knob.name][i] : plot.curve,
                       plot.x === knob.name ? i : null);
    }
    sliders.forEach(function (slider) {
      slider.disabled = false;
      slider.addEventListener("input", function () {
        apply(+slider.dataset.knob, +slider.value);
      });
    });
    var reset = form.querySelector(".rlkl-reset");
    reset.disabled = false;
    form.addEventListener("reset", function (event) {
      event.preventDefault();
      if (sliders.length) apply(0, data.knobs[0].at);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
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

  function typedNumber(text) {  // "−0.8", "-0.80", "0,5": its value and written decimals
    var clean = text.trim().replace(/\u2212/g, "-").replace(",", ".");
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(clean)) return null;
    var dot = clean.indexOf(".");
    return { value: parseFloat(clean), decimals: dot < 0 ? 0 : clean.length - dot - 1 };
  }

  function setupQuiz(form) {
    // Nothing tells the key before a choice: the options are shuffled at build time, their
    // numbers' records do not say which is the answer, and what the question says after a
    // choice (the <noscript> block readers without JavaScript open) is taken out of the
    // page here and shown when the learner asks. Choosing (a click, or the arrow keys)
    // only selects; "Check my answer" (or Enter) gives the feedback. A typed number is
    // graded as rlkl grades an authored one: true when the answer rounds to it at the
    // decimals written (at least the options' own).
    var kept = document.createElement("template");
    form.querySelectorAll("noscript").forEach(function (n) {
      kept.innerHTML += n.textContent;  // with scripting on, its markup is plain text
      n.remove();
    });
    var answers = form.querySelector(".rlkl-answers");
    var feedback = form.querySelector(".rlkl-feedback");
    var typed = form.querySelector("input[name=rlkl-typed]");
    var told = null;
    function open() {
      if (told) return told;
      var block = kept.content.querySelector(".rlkl-answers");
      var key = kept.content.querySelector(".rlkl-why[data-key]");
      told = { key: key ? key.dataset.index : null, value: parseFloat(block.dataset.value),
               decimals: +block.dataset.decimals, block: block };
      return told;
    }
    function tell(chosen) {
      if (!answers.firstChild) {
        open().block.querySelectorAll("summary").forEach(function (s) { s.remove(); });
        while (told.block.firstChild) answers.appendChild(told.block.firstChild);
      }
      var key = String(told.key);
      form.querySelectorAll(".rlkl-option").forEach(function (option) {
        var index = option.dataset.index;
        option.classList.toggle("rlkl-correct", index === key);
        option.classList.toggle("rlkl-wrong", index === chosen && chosen !== key);
      });
      answers.hidden = false;
      return key;
    }
    function say(result, text) {
      feedback.textContent = text;
      feedback.dataset.result = result;
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (typed && typed.value.trim() !== "") {
        var number = typedNumber(typed.value);
        if (!number) { say("none", "Type a number, such as 0.25 or \u22121.5."); return; }
        open();
        if (number.decimals < told.decimals) {
          say("none", "Write it to at least " + told.decimals + " decimal" +
              (told.decimals === 1 ? "" : "s") + ", as the options are.");
          return;
        }
        var half = 0.5 * Math.pow(10, -number.decimals);
        var right = Math.abs(told.value - number.value) <= half * (1 + 1e-9);
        var key = tell();
        var position = Array.prototype.map.call(form.querySelectorAll(".rlkl-option"),
          function (o) { return o.dataset.index; }).indexOf(key) + 1;
        say(right ? "correct" : "wrong", (right ? "Correct: " : "Not quite: ") +
            typed.value.trim() + (right ? " is" : " is not") + " the answer to " +
            number.decimals + " decimal" + (number.decimals === 1 ? "" : "s") +
            "; the computed answer is option " + position + ".");
        return;
      }
      var chosen = form.querySelector('input[name="rlkl-choice"]:checked');
      if (!chosen) { say("none", "Choose an option (or type your answer) first."); return; }
      var answer = tell(chosen.value);
      var why = answers.querySelector('.rlkl-why[data-index="' + chosen.value + '"]');
      say(chosen.value === answer ? "correct" : "wrong",
          (chosen.value === answer ? "Correct. " : "Not quite. ") + (why ? why.textContent : ""));
    });
  }

  // A display equation wider than its column is shrunk, down to 0.9em; if it is still wider,
  // it becomes a labelled scroll region the keyboard can reach (and loses that when it fits).
  function fitEquations() {
    // An equation of several relations (cut at its \quad spaces) wraps between them first.
    document.querySelectorAll(".rlkl-equation").forEach(function (box, index) {
      if (!box.querySelector("math")) { return; }
      box.style.fontSize = "";
      var sizes = ["1.05", "0.97", "0.9", "0.85"];
      for (var i = 0; i < sizes.length && box.scrollWidth > box.clientWidth + 1; i++) {
        box.style.fontSize = sizes[i] + "em";
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
  document.querySelectorAll("[data-rlkl-explore]").forEach(setupExplore);
  document.querySelectorAll("[data-rlkl-quiz]").forEach(setupQuiz);
})();
