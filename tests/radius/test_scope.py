"""Instructions in the radius: note scope globs, .mdc front-matter globs, backticked mentions."""

from __future__ import annotations

from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.git import Repo
from gitcontext.provenance.events import new_event
from gitcontext.provenance.store import append_events
from gitcontext.radius.blast import compute
from gitcontext.radius.scope import Files, mentioned
from tests.helpers import commit, write

SYMBOLS = {"parse_config": frozenset({"src/conf.py"}), "Engine": frozenset({"src/engine.py"})}
RADIUS = {"src/conf.py", "src/engine.py", "web/app.ts"}


def test_mentioned_path_folder_name_symbol_and_glob() -> None:
    assert mentioned("Edit `src/conf.py` only", RADIUS, SYMBOLS) == {"src/conf.py"}
    assert mentioned("Everything in `web/` is generated", RADIUS, SYMBOLS) == {"web/app.ts"}
    assert mentioned("Never touch `engine.py` by hand", RADIUS, SYMBOLS) == {"src/engine.py"}
    assert mentioned("Call `parse_config()` once", RADIUS, SYMBOLS) == {"src/conf.py"}
    assert mentioned("Use `conf.Engine` not globals", RADIUS, SYMBOLS) == {"src/engine.py"}
    assert mentioned("Run `pytest src/conf.py -q`", RADIUS, SYMBOLS) == {"src/conf.py"}
    assert mentioned("Style for `src/**/*.py`", RADIUS, SYMBOLS) == {"src/conf.py", "src/engine.py"}
    assert mentioned("Import `src.conf` lazily", RADIUS, SYMBOLS) == {"src/conf.py"}
    assert mentioned("Keep `app.ts` small", RADIUS, SYMBOLS) == {"web/app.ts"}


def test_mentioned_ignores_commands_short_names_and_unknown_paths() -> None:
    assert mentioned("Run `git commit` then `npm test`", RADIUS, SYMBOLS) == set()
    assert mentioned("Set `id` and `docs/readme.md`", RADIUS, SYMBOLS) == set()
    assert mentioned("No backticks src/conf.py here", RADIUS, SYMBOLS) == set()


def test_scope_note_globs_and_mdc_front_matter(repo: Path) -> None:
    rule = "---\ndescription: api rules\nglobs: api/**/*.go\n---\n\n- Return wrapped errors from handlers.\n"
    commit(
        repo,
        {
            "api/h.go": "package api\n",
            "db/q.sql": "select 1;\n",
            ".cursor/rules/api.mdc": rule,
            "AGENTS.md": "- Migrations need a rollback script.\n- Prefer small pull requests.\n",
        },
        "base",
    )
    config = config_mod.load(repo)
    first = compute(Repo.open(repo, config))
    ids = {i.text: i.id for i in first.instructions}
    assert ids == {}
    from gitcontext.instructions.discover import load
    from gitcontext.provenance.resolve import identify

    keyed = identify(repo, config, load(repo, config))
    agents_id = keyed[("AGENTS.md", 0)][0]
    append_events(
        repo,
        [
            new_event(
                "added",
                agents_id,
                "cli",
                file="AGENTS.md",
                text="Migrations need a rollback script.",
                why="lost data in #12",
                scope=["db/**"],
            )
        ],
    )
    write(repo, "db/q.sql", "select 2;\n")
    write(repo, "api/h.go", "package api\n\nfunc H() {}\n")
    found = {i.text: (i.id, i.via, i.matched) for i in compute(Repo.open(repo, config)).instructions}
    assert found["Migrations need a rollback script."] == (agents_id, ("note-scope",), ("db/q.sql",))
    assert found["Return wrapped errors from handlers."][1:] == (("front-matter",), ("api/h.go",))
    assert "Prefer small pull requests." not in found


def test_mentioned_through_the_index_finds_what_a_pass_over_every_file_finds() -> None:
    """The index (scope.Files) answers as the plain rule: a path is the file or anything under the folder,
    a bare name a file of that name or a top folder, a dotted name a module at a segment boundary."""
    files = {"a/core.py", "a/core/x.ts", "lib/a/core.test.ts", "a/corex.py", "core.py", "b/a/core", "src/app.ts"}

    def plain(word: str) -> set[str]:
        if "/" in word:
            return {f for f in files if f == word or f.startswith(word + "/")}
        stem = word.replace(".", "/")
        found = {f for f in files if f.rsplit("/", 1)[-1] == word or f.startswith(word + "/")}
        modules = {f for f in files if f.startswith((stem + ".", stem + "/")) or f"/{stem}." in f or f"/{stem}/" in f}
        return found | modules

    index = Files(files)
    for word in ("a.core", "core.py", "a/core", "app.ts", "b.a.core", "x.ts", "src/app.ts", "lib/a"):
        assert mentioned(f"See `{word}`", index, {}) == plain(word) == mentioned(f"See `{word}`", files, {}), word
