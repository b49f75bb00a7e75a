"""`ls`, `blame TARGET` and `history` as plain functions: what their click commands run."""

from __future__ import annotations

from pathlib import Path

from gitcontext import git
from gitcontext.cli.common import echo, emit_json, reading, session, write_file
from gitcontext.errors import UserError
from gitcontext.paths import repo_path


def ls(paths: tuple[str, ...], as_json: bool) -> int:
    with reading() as opened:
        return _ls(opened, paths, as_json)


def _ls(opened: git.Repo, paths: tuple[str, ...], as_json: bool) -> int:
    from gitcontext.report.listing import format_listing, listing

    root, config = opened.root, opened.config
    wanted = [repo_path(root, p) for p in paths]
    for path in wanted:
        if not (root / path).exists():
            raise UserError("no such file or folder", path=path, fix="`git context ls` lists the context files")
    rows = listing(root, config, wanted)
    if as_json:
        emit_json({"instructions": rows})
    else:
        echo(format_listing(rows), nl=False)
    return 0


def blame(target: str, as_json: bool) -> int:
    with reading() as opened:
        return _blame(opened, target, as_json)


def _blame(opened: git.Repo, target: str, as_json: bool) -> int:
    from gitcontext.instructions.discover import load
    from gitcontext.provenance.notecache import folded_notes
    from gitcontext.provenance.resolve import resolve_all
    from gitcontext.provenance.target import World, _as_repo_path, find
    from gitcontext.report import blame as report

    root, config = opened.root, opened.config
    instructions = load(opened, config)
    notes: dict[str, str] = {}
    states = folded_notes(root, oids=notes)  # `target.world`, keeping each note's blob id
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


def history(
    files: tuple[str, ...],
    as_json: bool,
    rev: str = "HEAD",
    svg_path: str | None = None,
    html_path: str | None = None,
    matcher: str | None = None,
) -> int:
    """`history [FILES...]`: the paper's measurements (gitcontext.cli.history's command)."""
    opened = session()
    head = _resolve(opened, rev)  # an unknown REV is refused before the history modules load

    from gitcontext.history.analyze import measure
    from gitcontext.progress import Progress

    root, config = opened.root, opened.config
    paths = [repo_path(root, f) for f in files]
    if opened.shallow:
        echo(
            "gitcontext: warning: shallow clone: the history starts at the shallow boundary, so ages, "
            "births and growth are truncated\n  fix: git fetch --unshallow",
            err=True,
        )
    with Progress("history: tracing the context files through the commits") as progress:
        m = measure(root, config, paths, matcher or config["matcher"], rev, progress, head=head)
    if paths and not m.files:
        raise UserError(
            f"no context-file history for {', '.join(files)}",
            fix="`git context ls` lists the context files (see discovery.include)",
        )
    data = {**m.to_json(), "shallow": opened.shallow}
    _pictures(m, data, root.name, svg_path, html_path)
    if as_json:
        emit_json(data)
    else:
        from gitcontext.history.text import format_history

        echo(format_history(data), nl=False)
    return 0


def _pictures(m, data: dict, name: str, svg_path: str | None, html_path: str | None) -> None:
    if not (svg_path or html_path):
        return
    from gitcontext.history.page import history_page
    from gitcontext.history.plots import history_svg

    title = f"{name} · context-file history"
    svg = history_svg(m, title)
    if svg_path:
        write_file(Path(svg_path), svg, "--svg")
    if html_path:
        write_file(Path(html_path), history_page(data, svg, title), "--html")


def _resolve(opened: git.Repo, rev: str) -> tuple[str, Path] | None:
    """(REV's commit sha, the common git dir), or None in a repository without commits; an unknown REV
    is a usage error (exit 2), as in `radius --base`."""
    if rev == "HEAD" and opened.head is None:
        return None
    try:
        return opened.rev(rev), opened.common_dir
    except git.UnknownRevision as exc:
        raise UserError(exc.message, fix="check the name with `git log --oneline` (or `git branch -a`)") from None
