"""The experiment page: the matched-budget PPO experiment, run at build time on a small budget.

The run is the library call ``rlkl experiment`` makes (:func:`rlkl.experiment.runner.
run_experiment`), with its summary table and plot; the page gives the command that
reproduces it and the one that runs the full default budget.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rlkl.cache import Cache

SEEDS, UPDATES = 8, 20
LESSONS = frozenset({"policy-gradient-kl-control", "ppo-clipped-objective"})
"""The lessons whose question this experiment answers (does clipping the surrogate pay, at a
matched budget?): only their "Design your experiment" links to it; every other lesson shows
its own experiment alone."""
COMMAND = f"rlkl experiment --seeds {SEEDS} --updates {UPDATES} --out runs/site"


def experiment_key() -> str:
    """What the page is computed from: rlkl's code (the experiment and its report), this
    budget, and the numeric and plotting libraries' versions."""
    import matplotlib
    import numpy

    from rlkl.cache import code_fingerprint

    parts = (code_fingerprint(), COMMAND, numpy.__version__, matplotlib.__version__)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def experiment_page(cache: Cache | None = None) -> tuple[str, bytes]:
    """The page's Markdown and its plot (PNG bytes): from ``cache`` when this code and these
    libraries made it before (a run and its plot cost about 2 s), else from a run made now
    (and cached)."""
    key = experiment_key() if cache is not None else ""
    kept = cache.derived("experiment", key) if cache is not None else None
    if isinstance(kept, dict) and isinstance(kept.get("markdown"), str) \
            and isinstance(kept.get("png"), str):
        try:
            return kept["markdown"], base64.b64decode(kept["png"], validate=True)
        except ValueError:
            pass  # a damaged entry is a miss
    markdown, png = _run_page()
    if cache is not None:
        cache.put_derived("experiment", key,
                          {"markdown": markdown, "png": base64.b64encode(png).decode()})
    return markdown, png


class Later:
    """The page made by a forked process at a low priority while the build goes on (its
    check, its other pages), so that a CPU the build leaves idle runs it; :meth:`page` waits
    for it. A process that could not make it (it raised, or died) leaves it to
    :meth:`page`, which makes it here, so a failure is raised where it would be without."""

    def __init__(self, cache: Cache | None) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.cache = cache
        self._made, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_made_later, args=(cache, send), daemon=True,
                                        name="rlkl-experiment")
        try:
            self._process.start()
        except OSError:  # no process to be had: the caller makes the page itself
            self._made.close()
            raise
        finally:
            send.close()

    def page(self) -> tuple[str, bytes]:
        """:func:`experiment_page`, as the process made it, else made here."""
        try:
            made = self._made.recv()
        except (EOFError, OSError):
            made = None
        finally:
            self.close()
        return made if made is not None else experiment_page(self.cache)

    def close(self) -> None:
        """End the process (once the page is received, or when the build fails)."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._made.close()


def _made_later(cache: Cache | None, send: Any) -> None:
    """In the forked process: the page, or None when the build is to make it (the run
    raised, or logged a warning, which a strict build must see)."""
    import signal

    from rlkl.site.shared import counted_only

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the build's; it ends this one
    with contextlib.suppress(OSError):
        os.nice(10)  # the build's own processes first
    warnings = counted_only()
    try:
        made: tuple[str, bytes] | None = experiment_page(cache)
    except Exception:  # made again by the build, which reports what is wrong
        made = None
    send.send(made if warnings.count == 0 else None)
    send.close()


def _run_page() -> tuple[str, bytes]:
    """The page's Markdown and its plot (PNG bytes), from a run made now."""
    from rlkl.experiment.report import plot_png, summarize, summary_markdown
    from rlkl.experiment.runner import ExperimentConfig, run_experiment

    results = run_experiment(ExperimentConfig(n_seeds=SEEDS, n_updates=UPDATES))
    summary = summary_markdown(results, summarize(results))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "plot.png"
        plot_png(results, path)
        png = path.read_bytes()
    body = summary.split("\n", 1)[1] if summary.startswith("# ") else summary
    markdown = (
        "---\ntitle: Matched-budget experiment\n---\n\n"
        "# The matched-budget PPO experiment\n\n"
        "PPO-clip against the same surrogate without clipping and against an adaptive KL "
        "penalty, with the same environment steps, epochs, minibatches, evaluation episodes "
        f"and seeds. This run was made when the site was built, on a small budget ({SEEDS} "
        f"seeds × {UPDATES} updates); reproduce it exactly with\n\n"
        f"```bash\n{COMMAND}\n```\n\nand run the full default budget with "
        "`rlkl experiment --out runs/experiment`.\n\n"
        "![Evaluation return, exact KL per update and clip fraction of each arm]"
        "(experiment/plot.png)\n\n"
        f"## Summary of this run\n{body}"
    )
    return markdown, png
