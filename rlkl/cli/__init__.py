"""The ``rlkl`` command line: a thin shell over the library.

Subcommands are loaded lazily (click's documented LazyGroup pattern) so that ``rlkl validate``
does not pay for importing numpy or matplotlib.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from rlkl import __version__

# command name -> "module:attribute"
_COMMANDS: dict[str, str] = {
    "validate": "rlkl.cli.validate:validate",
    "check": "rlkl.cli.claims:check",
    "regen": "rlkl.cli.claims:regen",
    "claims": "rlkl.cli.claims:claims",
    "experiment": "rlkl.cli.experiment:experiment",
    "explain": "rlkl.cli.explain:explain",
    "init": "rlkl.cli.init:init",
    "new": "rlkl.cli.new:new",
    "site": "rlkl.cli.site:site",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        command: Any = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rlkl")
def main() -> None:
    """rlkl — validate lessons and verify every number in them.

    \b
    Examples:
      rlkl validate                      # validate content/
      rlkl check content/ --format json  # validate + verify every numeric claim
      rlkl regen --fix                   # rewrite fixtures and dependent prose numbers
      rlkl new gae-advantages            # start a lesson (skeleton, claims.yaml, catalog)
      rlkl init                          # rlkl.toml and a site/mkdocs.yml of your own
      rlkl experiment --out runs/demo    # the matched-budget PPO experiment
      rlkl site build                    # the published site, into site/build/
    """
