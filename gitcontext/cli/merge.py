"""`git context merge-driver`: the entry point git calls (configured by `git context init`)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("merge-driver")
@click.argument("base", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("ours", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("theirs", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("marker_size", required=False, default="7")
@click.argument("path", required=False, default="")
@click.option("--labels", nargs=3, default=None, metavar="BASE OURS THEIRS", help="Conflict labels (git's %S %X %Y).")
def merge_driver_cmd(
    base: Path, ours: Path, theirs: Path, marker_size: str, path: str, labels: tuple[str, str, str] | None
) -> int:
    """Merge %O (BASE) and %B (THEIRS) into %A (OURS) for git; exit 0 clean, 1 conflicted.

    Called by git as `merge-driver %O %A %B %L %P --labels %S %X %Y`. Writes only %A.
    GITCONTEXT_MERGE=0 makes it a plain `git merge-file`.
    """
    from gitcontext.errors import UserError
    from gitcontext.merge import driver
    from gitcontext.merge.markers import labels_from
    from gitcontext.merge.markers import marker_size as parse_size

    for name, file in (("%O", base), ("%A", ours), ("%B", theirs)):
        if not file.is_file():
            raise UserError(
                f"{name} file does not exist",
                path=str(file),
                fix="this command is run by git; see `git context help merge-driver`",
            )
    return driver.run(base, ours, theirs, parse_size(marker_size), path, labels_from(labels))
