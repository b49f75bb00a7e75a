"""history and corpus: the paper's measurements of one repository, or of many."""

from __future__ import annotations

from pathlib import Path

import click

from gitcontext.cli.common import emit_json, json_option
from gitcontext.cli.completion import context_files

MATCHER = click.option(
    "--matcher",
    type=click.Choice(["default", "paper"]),
    default=None,
    help="Identity matcher; `paper` reproduces arXiv 2608.11095's cascade.",
)


@click.command("history")
@click.argument("files", nargs=-1, shell_complete=context_files)
@click.option("--rev", default="HEAD", show_default=True, help="Measure the first-parent history of REV.")
@click.option(
    "--svg",
    "svg_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write growth, hazard and lifeline plots to FILE (SVG, light and dark themes).",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write a self-contained HTML report (plots + table) to FILE.",
)
@MATCHER
@json_option
def history_cmd(
    files: tuple[str, ...], rev: str, svg_path: str | None, html_path: str | None, matcher: str | None, as_json: bool
) -> int:
    """The paper's measurements of this repository's context files.

    \b
    Per file: versions, instructions in the first and last version, births, deaths (individual
    deletions vs rewrites), migrations to sibling files, net growth per commit outside rewrites,
    growth and payload curves over the file's normalized life, rewrites with their drop and
    regrowth after 10 commits. Across files: the deletion hazard by instruction age in commits
    touching the file (Nelson–Aalen, kernel-smoothed, log-slope with a bootstrap interval).
    FILES limit the measurement to those files or folders (deleted files too).
    """
    from gitcontext.cli.reads import history

    return history(files, as_json, rev, svg_path, html_path, matcher)


@click.command("corpus")
@click.argument("repos", nargs=-1, required=True)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 64),
    default=None,
    help="Repositories measured in parallel, one process each (default: CPU count).",
)
@click.option(
    "--cache",
    "cache_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where per-repository results are kept (default: $XDG_CACHE_HOME/gitcontext/corpus).",
)
@click.option(
    "--save",
    "save_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Also write each repository's result as DIR/<name>.corpus.json (merge them later).",
)
@MATCHER
@json_option
def corpus_cmd(
    repos: tuple[str, ...],
    jobs: int | None,
    cache_dir: str | None,
    save_dir: str | None,
    matcher: str | None,
    as_json: bool,
) -> int:
    """The paper's measurements over many repositories, side by side with the paper's numbers.

    REPOS are git repositories, shared-corpus `.jsonl.gz` histories (each rebuilt into a temporary
    repository), folders of them, or `.corpus.json` results that `--save` wrote on other machines
    (one CI matrix job per repository, then one job that merges them). Results are cached per
    repository by HEAD sha, so an interrupted run resumes. Aggregates: median and p90 instructions at the last version, share of
    repositories growing / shrinking, growth, net growth per commit outside rewrites, rewrite and
    migration share of deaths, regrowth, and the deletion-hazard log-slope with a
    repository-level bootstrap interval.
    """
    import os

    from gitcontext.history.aggregate import aggregate
    from gitcontext.history.corpus import default_cache, run, save_results, sources
    from gitcontext.history.text import format_corpus
    from gitcontext.progress import Progress

    srcs = sources(repos)
    progress = Progress("corpus")
    try:
        results = run(
            srcs,
            matcher or "default",
            jobs or os.cpu_count() or 1,
            Path(cache_dir) if cache_dir else default_cache(),
            progress,
        )
    finally:
        progress.close()
    if save_dir:
        save_results(results, Path(save_dir))
    data = {
        "repositories": [{k: v for k, v in r.items() if k != "hazard_rows"} for r in results],
        "aggregate": aggregate(results),
    }
    if as_json:
        emit_json(data)
    else:
        click.echo(format_corpus(data), nl=False)
    return 0
