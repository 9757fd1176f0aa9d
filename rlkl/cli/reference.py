"""The CLI reference of the site, generated from the commands themselves.

``python -m rlkl.cli.reference`` prints it; ``--page`` writes the site's page
(:data:`rlkl.site.pages.CLI_PAGE`). A test asserts the page is current, so the docs cannot
drift from the code.
"""

from __future__ import annotations

from typing import Any

import click

from rlkl.cli import main


def reference() -> str:
    """Markdown: ``rlkl --help`` and each subcommand's ``--help``, in order."""
    parts = []
    width: dict[str, Any] = {"terminal_width": 100, "max_content_width": 100}
    root = click.Context(main, info_name="rlkl", **main.context_settings, **width)
    parts.append(f"### `rlkl`\n\n```text\n{main.get_help(root)}\n```\n")
    for name in main.list_commands(root):
        command = main.get_command(root, name)
        assert command is not None
        ctx = click.Context(
            command, info_name=name, parent=root, **command.context_settings, **width
        )
        parts.append(f"### `rlkl {name}`\n\n```text\n{command.get_help(ctx)}\n```\n")
        if isinstance(command, click.Group):  # e.g. `rlkl site build`
            for sub_name in command.list_commands(ctx):
                sub = command.get_command(ctx, sub_name)
                assert sub is not None
                sub_ctx = click.Context(
                    sub, info_name=sub_name, parent=ctx, **sub.context_settings, **width
                )
                parts.append(
                    f"### `rlkl {name} {sub_name}`\n\n```text\n{sub.get_help(sub_ctx)}\n```\n"
                )
    return "\n".join(parts)


def page() -> str:
    """The site's CLI reference page: the reference under a title."""
    return "---\ntitle: CLI reference\n---\n\n# CLI reference\n\n" + reference()


if __name__ == "__main__":
    import sys

    from rlkl.atomic import write_atomic
    from rlkl.site.pages import CLI_PAGE

    if sys.argv[1:] == ["--page"]:
        write_atomic(CLI_PAGE, page())
    else:
        print(reference(), end="")
