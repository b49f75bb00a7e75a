"""`git context check`: the commit-msg rule over BASE...HEAD, for CI (hooks can be skipped)."""

from __future__ import annotations

import os

import click

from gitcontext.cli.common import emit_json, json_option


@click.command("check")
@click.option("--base", required=True, metavar="REV", help="The branch the range was made from (e.g. origin/main).")
@click.option("--head", default="HEAD", show_default=True, metavar="REV", help="The tip of the range.")
@json_option
def check_cmd(base: str, head: str, as_json: bool) -> int:
    """Every instruction BASE...HEAD adds or rewords must carry a why.

    \b
    A why is a note the range changes, or a `Context-Why` trailer in any commit of the range
    (squash-merge messages and later commits included). Judged under `hooks.policy` as the
    config stands at the merge base: enforce exits 1 listing each instruction with the fix,
    warn prints the list and exits 0, off asks nothing. A shallow clone needs the base
    present (actions/checkout `fetch-depth: 0`). Inside GitHub Actions it also annotates each
    instruction and writes the job summary and the `findings` output.
    """
    from gitcontext import git
    from gitcontext.hooks.check import check, format_check, to_json

    root = git.toplevel()
    result = check(root, base, head)
    lines = format_check(result, base)
    if as_json:
        emit_json(to_json(result))
    else:
        click.echo("\n".join(lines))
    if os.environ.get("GITHUB_ACTIONS") == "true":
        from gitcontext.github.status import publish_check

        publish_check(result, lines)
    return result.code
