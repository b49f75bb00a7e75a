"""`ls` and `blame TARGET` as plain functions: what their click commands run, and what
gitcontext.cli.fast runs without click for the argument forms that need no parsing."""
from __future__ import annotations

from pathlib import Path

from gitcontext import git
from gitcontext.cli.common import echo, emit_json, repo
from gitcontext.provenance.trailer_cache import one_head


def ls(paths: tuple[str, ...], as_json: bool) -> int:
    with git.listed_once(), one_head():      # read-only: the work tree and HEAD stay as they are
        return _ls(paths, as_json)


def _ls(paths: tuple[str, ...], as_json: bool) -> int:
    from gitcontext.report.listing import listing, format_listing

    root, config = repo()
    wanted = repo_paths(root, paths)
    for path in wanted:
        if not (root / path).exists():
            from gitcontext.errors import UserError

            raise UserError("no such file or folder", path=path, fix="`git context ls` lists the context files")
    rows = listing(root, config, wanted)
    if as_json:
        emit_json({"instructions": rows})
    else:
        echo(format_listing(rows), nl=False)
    return 0


def blame(target: str, as_json: bool) -> int:
    with git.listed_once(), one_head():      # read-only: the work tree and HEAD stay as they are
        return _blame(target, as_json)


def _blame(target: str, as_json: bool) -> int:
    from gitcontext.instructions.discover import load
    from gitcontext.provenance.notecache import folded_notes
    from gitcontext.provenance.resolve import resolve_all
    from gitcontext.provenance.target import World, _as_repo_path, find
    from gitcontext.report import blame as report

    root, config = repo()
    instructions, notes = load(root, config), {}
    states = folded_notes(root, oids=notes)          # `target.world`, keeping each note's blob id
    w = World(instructions, states, resolve_all(root, config, instructions, states, trailers=True))
    path = _as_repo_path(root, target)
    if path in w.instructions:
        rows = report.blame_file(root, config, path, w, notes)
        if as_json:
            emit_json({"file": path, "instructions": rows})
        else:
            echo(report.format_blame_file(rows, (root / path).read_text(encoding="utf-8")), nl=False)
        return 0
    data = report.blame_target(root, config, find(root, config, target, w))
    emit_json(data) if as_json else echo(report.format_blame(data), nl=False)
    return 0


def repo_paths(root: Path, paths) -> list[str]:  # type: ignore[no-untyped-def]
    """PATHS as given on the command line (relative to the current directory), repository-relative."""
    from gitcontext.errors import UserError

    top = Path(root).resolve()
    out = []
    for path in paths:
        full = (Path.cwd() / path).resolve()
        if full != top and top not in full.parents:
            raise UserError(f"{path} is outside the repository {root}")
        out.append(full.relative_to(top).as_posix())
    return out
