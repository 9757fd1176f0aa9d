"""A batch build renders lesson pages in forked processes too (rlkl.site.shared): the site is
byte for byte the site one process builds, and a page a worker cannot render is rendered by
the build itself.

The builds run in a fresh interpreter: a process forks its workers only when no other thread
runs (`can_fork`), and a pytest-xdist worker runs threads of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from typing import Any

import pytest

from rlkl.site.shared import can_fork
from tests.site.test_site_kept import LESSONS, _content

# Builds the lessons at argv[1] into argv[2]/<mode> and prints, by mode, the site's files
# (a SHA-256 of each) and how many lesson pages a worker rendered. Modes: "alone" (one
# process), "shared", and "raises", "warns", "dies" (the worker fails every page it takes).
SCRIPT = r"""
import hashlib, json, logging, os, sys, time
from pathlib import Path
os.environ["RLKL_CACHE_DIR"] = "off"
import rlkl.site.plugin as plugin
import rlkl.site.shared as shared
from rlkl.site.build import BUILT_IN, build_site

content, out = Path(sys.argv[1]), Path(sys.argv[2])
plugin.cpu_jobs = lambda: 2
plugin.SHARED_MIN = 1
taken = []
real_take, real_unshare = shared.Pages.take, plugin.RlklPlugin._unshare
real_minified = plugin.RlklPlugin._minified

def take(self, uri):  # the build waits until the worker has taken its first page
    deadline = time.monotonic() + 60
    while self._bounds[1] == len(self.uris) - 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    return real_take(self, uri)

def unshare(self):
    if self.shared is not None:
        taken.append(self.shared.received)
    real_unshare(self)

def failing(mode):
    def minified(self, output):
        if os.getpid() != self.shared_parent:
            if mode == "raises":
                raise RuntimeError("a worker's page fails")
            if mode == "warns":
                logging.getLogger("mkdocs.plugins.rlkl").warning("a worker's page warns")
            if mode == "dies":
                os._exit(3)
        return real_minified(self, output)
    return minified

shared.Pages.take, plugin.RlklPlugin._unshare = take, unshare
plugin.RlklPlugin.shared_parent = os.getpid()
found = {}
for mode in ("alone", "shared", "raises", "warns", "dies"):
    plugin.can_fork = (lambda: False) if mode == "alone" else shared.can_fork
    failure = mode in ("raises", "warns", "dies")
    plugin.RlklPlugin._minified = failing(mode) if failure else real_minified
    del taken[:]
    site = build_site(BUILT_IN, out / mode, content)
    files = {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(site.rglob("*")) if p.is_file()}
    found[mode] = {"files": files, "received": sum(taken), "shared": bool(taken)}
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("shared")
    content = _content(work)
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(content), str(work / "out")],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_pages_a_worker_rendered_are_the_pages_one_process_renders(
    builds: dict[str, Any],
) -> None:
    assert builds["alone"]["shared"] is False
    assert builds["shared"]["shared"] is True
    assert 1 <= builds["shared"]["received"] <= len(LESSONS)
    assert builds["shared"]["files"] == builds["alone"]["files"]


@pytest.mark.parametrize("mode", ["raises", "warns", "dies"])
def test_a_page_a_worker_cannot_render_is_rendered_by_the_build(
    builds: dict[str, Any], mode: str
) -> None:
    """A worker's error, warning or death costs the page's time, never the page (the build
    is strict: a warning that reached it would have failed it)."""
    assert builds[mode]["shared"] is True
    assert builds[mode]["received"] == 0
    assert builds[mode]["files"] == builds["alone"]["files"]


def test_no_worker_is_forked_while_another_thread_runs() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert can_fork() is False
    finally:
        stop.set()
        thread.join()


def test_the_shared_template_renders_the_themes_page_or_nothing() -> None:
    """The shared template is the theme's main.html where the page is rendered here (so a
    page is the same bytes either way), and empty where a worker rendered it."""
    from jinja2 import ChoiceLoader, DictLoader, Environment

    from rlkl.site.shared import HERE, SOURCE, TEMPLATE

    theme = DictLoader({"main.html": "{% extends 'base.html' %}{% block b %}{{ x }}{% endblock %}",
                        "base.html": "<p>{% block b %}{% endblock %}</p>\n"})
    env = Environment(loader=ChoiceLoader([DictLoader({TEMPLATE: SOURCE}), theme]))
    direct = env.get_template("main.html").render(x="<&>")
    assert env.get_template(TEMPLATE).render(x="<&>", **{HERE: True}) == direct
    assert env.get_template(TEMPLATE).render(x="<&>", **{HERE: False}) == ""
