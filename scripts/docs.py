"""Regenerate every generated block of the documentation from the code, in place:
the README's codes table, settings table and CLI reference, and the site's CLI page.

Run after changing a code, a configuration key or a command: `python scripts/docs.py`.
The tests that keep each block current name what to run; this runs them all.
"""

from __future__ import annotations

import re
from pathlib import Path

from rlkl.atomic import write_atomic
from rlkl.cli.reference import page, reference
from rlkl.config import settings_table
from rlkl.diagnostics import codes_table
from rlkl.site.pages import CLI_PAGE

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = {"codes": codes_table, "settings": settings_table, "cli": reference}


def main() -> None:
    text = README.read_text(encoding="utf-8")
    for name, make in BLOCKS.items():
        pattern = re.compile(rf"(<!-- {name}:start[^>]*-->\n)(.*?)(<!-- {name}:end -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no {name}:start/{name}:end block")
        text = pattern.sub(lambda m, make=make: m[1] + make() + m[3], text)
    write_atomic(README, text)
    write_atomic(CLI_PAGE, page())


if __name__ == "__main__":
    main()
