"""Override trailers met as a user meets them: rules with whys, `git context init` hooks, `git commit -m`
with `Context-Id: <old-id> reworded` (the matcher missed a rewording) or `Context-Id: <id> added` (it
paired a rule that is new), then `sync`, a squash merge, `ls`, `show`, `blame` and the replay."""

from __future__ import annotations

import itertools
import os
import subprocess
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitcontext import config as config_mod
from gitcontext.history.lineage import lineage
from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.model import normalize
from gitcontext.provenance.store import all_notes, read_note
from tests.helpers import git, run_cli, run_json, write
from tests.hooks.support import attempt

DUMPS = "Never commit database dumps; they go in the vault."
SNAPSHOTS = "Database snapshots are uploaded to s3://team/snapshots/ by the backup job."
BRANCHES = "Use kebab-case for branch names."
CSS = "Use kebab-case for CSS classes."
KEEP = "Keep PRs small."
_SECONDS = itertools.count()


def _later() -> dict[str, str]:
    """A commit date after every note event `record` wrote (now), one second apart: order is by date."""
    n = next(_SECONDS)
    date = f"2030-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
    return {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}


def _id(text: str) -> str:
    return instruction_id("CLAUDE.md", normalize(text))


def _rules(*texts: str) -> str:
    return "".join(f"- {t}\n" for t in texts)


def _ls(capsys) -> dict[str, tuple[str, str]]:
    return {r["text"]: (r["id"], r["status"]) for r in run_json(capsys, "ls")["instructions"]}


def _team_repo(repo: Path, capsys) -> None:
    """Three documented rules, the notes committed, the hooks installed by `git context init`."""
    write(repo, "CLAUDE.md", _rules(DUMPS, BRANCHES, KEEP))
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "rules")
    assert run_cli(capsys, "init", "--backfill")[0] == 0
    for text in (DUMPS, BRANCHES, KEEP):
        assert run_cli(capsys, "record", _id(text), "--why", f"the first why of {text}")[0] == 0
    git(repo, "add", ".context", ".gitattributes")
    git(repo, "commit", "-q", "--no-verify", "-m", "notes")


def _commit(repo: Path, rules: str, *message: str) -> subprocess.CompletedProcess[str]:
    """Edit CLAUDE.md and `git commit -m ...` through the installed hooks."""
    write(repo, "CLAUDE.md", rules)
    git(repo, "add", "CLAUDE.md")
    return attempt(repo, *[arg for m in message for arg in ("-m", m)], env=_later())


def _committed(repo: Path, rules: str, *message: str) -> subprocess.CompletedProcess[str]:
    """`_commit`, which the hooks must let through."""
    done = _commit(repo, rules, *message)
    assert done.returncode == 0, done.stderr
    return done


def _hookless(repo: Path, rules: str, message: str) -> str:
    """A commit made as an earlier hook wrote it (the message is exactly MESSAGE)."""
    write(repo, "CLAUDE.md", rules)
    git(repo, "add", "CLAUDE.md")
    subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", message], cwd=repo, check=True, env={**os.environ, **_later()}
    )
    return git(repo, "rev-parse", "HEAD").strip()


def _body(repo: Path) -> str:
    return git(repo, "log", "-1", "--format=%B")


def _whys(repo: Path, id: str) -> list[str]:
    return [e["why"] for e in read_note(repo, id) if e.get("why")]


# 1. A why for an `added` override belongs to the new rule.


def test_sync_added_override_gives_the_why_to_the_new_rule(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    old = _id(BRANCHES)
    _committed(
        repo,
        _rules(DUMPS, CSS, KEEP),
        "css naming",
        f"Context-Id: {old} added\nContext-Why: CSS classes must match the design tokens",
    )
    assert _ls(capsys)[CSS] == (_id(CSS), "documented")  # before sync too
    run_cli(capsys, "sync")
    rows = _ls(capsys)
    new, status = rows[CSS]
    assert new != old and status == "documented"
    assert _whys(repo, new) == ["CSS classes must match the design tokens"]
    assert _whys(repo, old) == [f"the first why of {BRANCHES}"]
    assert run_json(capsys, "show", old)["status"] == "retired"
    assert run_json(capsys, "sync")["events"] == 0  # idempotent


def test_sync_added_override_from_an_earlier_hook_gives_the_why_to_the_new_rule(repo: Path, capsys) -> None:
    """The hook used to write `<id> reworded` after the user's `<id> added`: the user's word wins."""
    _team_repo(repo, capsys)
    old = _id(BRANCHES)
    _hookless(
        repo,
        _rules(DUMPS, CSS, KEEP),
        f"css naming\n\nContext-Id: {old} added\n"
        f"Context-Why: {old}: CSS classes must match the design tokens\nContext-Id: {old} reworded",
    )
    run_cli(capsys, "sync")
    new, status = _ls(capsys)[CSS]
    assert new == _id(CSS) and status == "documented"
    assert _whys(repo, new) == ["CSS classes must match the design tokens"]
    assert _whys(repo, old) == [f"the first why of {BRANCHES}"]
    assert not [e for e in read_note(repo, old) if e["kind"] == "reworded"]
    life = next(x for x in lineage(repo, config_mod.DEFAULTS) if x.born.text == BRANCHES)
    assert life.changes == [] and life.death is not None
    assert run_json(capsys, "sync")["events"] == 0


# 2. An override-paired rule whose why came in the same commit is documented, and the hook's own
#    contradictory line makes no note.


def test_sync_reworded_override_with_its_why_is_documented_and_makes_no_second_note(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    old = _id(DUMPS)
    _committed(
        repo,
        _rules(SNAPSHOTS, BRANCHES, KEEP),
        "dumps to s3",
        f"Context-Why: the vault was retired\nContext-Id: {old} reworded",
    )
    assert _ls(capsys)[SNAPSHOTS] == (old, "documented")  # before sync too
    assert run_json(capsys, "blame", SNAPSHOTS)["status"] == "documented"
    before = set(all_notes(repo))
    run_cli(capsys, "sync")
    assert set(all_notes(repo)) == before  # no note for the hook's `<new> added`
    assert _ls(capsys)[SNAPSHOTS] == (old, "documented")
    assert _whys(repo, old)[-1] == "the vault was retired"
    assert run_json(capsys, "sync")["events"] == 0


def test_sync_reworded_override_from_an_earlier_hook_makes_no_second_note(repo: Path, capsys) -> None:
    """The hook used to write `<new> added` and `<old> retired` beside the user's `<old> reworded`."""
    _team_repo(repo, capsys)
    old, hooks = _id(DUMPS), _id(SNAPSHOTS)
    _hookless(
        repo,
        _rules(SNAPSHOTS, BRANCHES, KEEP),
        f"dumps to s3\n\nContext-Why: {hooks}: the vault was retired\n"
        f"Context-Id: {old} reworded\nContext-Id: {hooks} added\nContext-Id: {old} retired",
    )
    before = set(all_notes(repo))
    run_cli(capsys, "sync")
    assert set(all_notes(repo)) == before
    assert _ls(capsys)[SNAPSHOTS] == (old, "documented")
    assert _whys(repo, old)[-1] == "the vault was retired"
    assert run_json(capsys, "sync")["events"] == 0


def test_sync_plain_rewording_with_its_why_is_documented(repo: Path, capsys) -> None:
    """The hook writes `Context-Id` after the user's why: the why, restated under the old id, is the new
    text's all the same, and a second sync has nothing to add."""
    _team_repo(repo, capsys)
    id = _id(KEEP)
    _committed(
        repo, _rules(DUMPS, BRANCHES, "Keep PRs small and focused."), "focus", f"Context-Why: {id}: big PRs hide bugs"
    )
    assert f"Context-Id: {id} reworded" in _body(repo)
    run_cli(capsys, "sync")
    assert _ls(capsys)["Keep PRs small and focused."] == (id, "documented")
    assert not [e for e in read_note(repo, id) if e.get("override")]  # an agreeing trailer marks nothing
    assert run_json(capsys, "sync")["events"] == 0


def _squash(repo: Path, branch: str, message: str) -> str:
    git(repo, "merge", "-q", "--squash", branch)
    subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", message], cwd=repo, check=True, env={**os.environ, **_later()}
    )
    return git(repo, "rev-parse", "HEAD").strip()


def test_sync_overrides_with_whys_survive_a_squash_merge(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    dumps, branches = _id(DUMPS), _id(BRANCHES)
    git(repo, "checkout", "-q", "-b", "feature")
    _committed(
        repo,
        _rules(SNAPSHOTS, CSS, KEEP),
        "storage and naming",
        f"Context-Id: {dumps} reworded\nContext-Id: {branches} added\n"
        f"Context-Why: {dumps}: the vault was retired\nContext-Why: {branches}: design tokens",
    )
    run_cli(capsys, "sync")
    assert run_json(capsys, "sync")["events"] == 0
    git(repo, "add", ".context")
    subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", "sync notes"], cwd=repo, check=True, env={**os.environ, **_later()}
    )
    git(repo, "checkout", "-q", "main")
    squash = _squash(repo, "feature", "Storage and naming (#7)")
    rows = _ls(capsys)
    assert rows[SNAPSHOTS] == (dumps, "documented")
    assert rows[CSS] == (_id(CSS), "documented")
    assert _whys(repo, _id(CSS)) == ["design tokens"]
    assert run_json(capsys, "sync")["events"] == 0
    lives = {x.born.text: x for x in lineage(repo, config_mod.DEFAULTS)}
    assert [(c.kind, c.commit, c.how) for c in lives[DUMPS].changes] == [("reworded", squash, "override")]
    assert lives[BRANCHES].death.commit == squash and lives[CSS].born.commit == squash
    assert run_json(capsys, "blame", CSS)["id"] == _id(CSS)
    assert run_json(capsys, "blame", SNAPSHOTS)["id"] == dumps


def test_backfill_then_sync_honours_overrides_and_their_whys_in_a_history_without_notes(repo: Path, capsys) -> None:
    """Overrides written before the team committed any note: backfill follows them, sync gives each why
    to the rule it explains (the split's to the new rule, whose note backfill wrote)."""
    write(repo, "CLAUDE.md", _rules(DUMPS, BRANCHES, KEEP))
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "rules")
    dumps, branches = _id(DUMPS), _id(BRANCHES)
    _hookless(
        repo,
        _rules(SNAPSHOTS, CSS, KEEP),
        f"storage\n\nContext-Id: {dumps} reworded\n"
        f"Context-Id: {branches} added\nContext-Why: {dumps}: the vault was retired\n"
        f"Context-Why: {branches}: design tokens",
    )
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    assert run_json(capsys, "sync")["events"] == 2
    rows = _ls(capsys)
    assert rows[SNAPSHOTS] == (dumps, "documented") and rows[CSS] == (_id(CSS), "documented")
    assert _whys(repo, _id(CSS)) == ["design tokens"] and branches not in all_notes(repo)
    assert run_json(capsys, "sync")["events"] == 0


def test_sync_without_backfill_writes_the_split_rule_its_own_note(repo: Path, capsys) -> None:
    """Trailer-only provenance (no backfill): the split's new rule is born in its own note by sync."""
    write(repo, "CLAUDE.md", _rules(BRANCHES, KEEP))
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "rules")
    branches = _id(BRANCHES)
    _hookless(repo, _rules(CSS, KEEP), f"css\n\nContext-Id: {branches} added\nContext-Why: design tokens")
    assert run_json(capsys, "sync")["events"] == 2
    assert [e["kind"] for e in read_note(repo, _id(CSS))] == ["added", "linked"]
    assert _ls(capsys)[CSS] == (_id(CSS), "documented")
    assert run_json(capsys, "sync")["events"] == 0


def _trailer_only_history(repo: Path, lines: list[str]) -> None:
    """Rules born with trailer whys (no notes committed), then one commit overriding two of them."""
    dumps, branches, keep = _id(DUMPS), _id(BRANCHES), _id(KEEP)
    _hookless(
        repo,
        _rules(DUMPS, BRANCHES, KEEP),
        "rules\n\n" + "".join(f"Context-Id: {id} added\nContext-Why: {id}: first\n" for id in (dumps, branches, keep)),
    )
    _hookless(repo, _rules(SNAPSHOTS, CSS, KEEP), "storage\n\n" + "\n".join(lines))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(range(7)))
def test_sync_overrides_any_trailer_order_gives_one_answer(tmp_path: Path, monkeypatch, capsys, order) -> None:
    """Whatever order the user's lines and an earlier hook's contradictory lines come in, sync gives
    each why to the rule it explains, makes no bogus note, and a second sync writes nothing."""
    dumps, branches, snapshots, css = _id(DUMPS), _id(BRANCHES), _id(SNAPSHOTS), _id(CSS)
    lines = [
        f"Context-Id: {dumps} reworded",
        f"Context-Id: {branches} added",
        f"Context-Why: {dumps}: vault gone",
        f"Context-Why: {branches}: design tokens",
        f"Context-Id: {snapshots} added",
        f"Context-Id: {dumps} retired",
        f"Context-Id: {branches} reworded",
    ]
    repo = Path(tempfile.mkdtemp(dir=tmp_path))
    git(repo, "init", "-q", "-b", "main")
    monkeypatch.chdir(repo)
    _trailer_only_history(repo, [lines[n] for n in order])
    run_cli(capsys, "sync")
    assert sorted(all_notes(repo)) == sorted([dumps, branches, _id(KEEP), css])
    assert _whys(repo, dumps) == ["first", "vault gone"] and _whys(repo, css) == ["design tokens"]
    assert _ls(capsys) == {SNAPSHOTS: (dumps, "documented"), CSS: (css, "documented"), KEEP: (_id(KEEP), "documented")}
    assert run_json(capsys, "sync")["events"] == 0


def test_sync_a_bare_why_is_not_given_to_the_rule_the_commit_removed(repo: Path, capsys) -> None:
    """The matcher already calls it a death and a birth; the user says `<old-id> added` (agreeing) and
    gives one why: the hook writes `<new> added` and `<old> retired`; the why is the new rule's only."""
    _team_repo(repo, capsys)
    old, new = _id(DUMPS), _id(SNAPSHOTS)
    _committed(
        repo,
        _rules(SNAPSHOTS, BRANCHES, KEEP),
        "snapshots",
        f"Context-Id: {old} added\nContext-Why: the backup job uploads them",
    )
    assert _context_lines(repo) == [f"{old} added", f"{new} added", f"{old} retired"]
    run_cli(capsys, "sync")
    assert _whys(repo, old) == [f"the first why of {DUMPS}"]
    assert _whys(repo, new) == ["the backup job uploads them"]
    assert run_json(capsys, "sync")["events"] == 0


def _context_lines(repo: Path) -> list[str]:
    return [line.split(": ", 1)[1] for line in _body(repo).splitlines() if line.startswith("Context-Id: ")]


def test_ls_before_sync_pairs_a_reworded_override_with_the_text_born_in_its_commit(repo: Path, capsys) -> None:
    """Found on modelcontextprotocol/inspector: a later rule more like the old text took the override's id."""
    _team_repo(repo, capsys)
    old = _id(DUMPS)
    _committed(
        repo,
        _rules(SNAPSHOTS, BRANCHES, KEEP),
        "dumps to s3",
        f"Context-Id: {old} reworded\nContext-Why: the vault was retired",
    )
    later = "Never commit database dumps to the repository, not even in tests."
    _committed(
        repo,
        _rules(SNAPSHOTS, BRANCHES, KEEP, later),
        "no dumps in git",
        "Context-Why: a dump with customer data was pushed",
    )
    rows = _ls(capsys)
    assert rows[SNAPSHOTS] == (old, "documented") and rows[later][0] != old
    run_cli(capsys, "sync")
    assert _ls(capsys) == rows


def test_override_modules_are_in_no_import_cycle() -> None:
    """The override path (hook, sync, replay, unsynced trailers) imports one way, lazy imports included."""
    import grimp

    graph = grimp.build_graph("gitcontext")
    ours = [
        "gitcontext.provenance.override",
        "gitcontext.provenance.unsynced",
        "gitcontext.provenance.sync",
        "gitcontext.provenance.trailer_cache",
        "gitcontext.provenance.trailers",
        "gitcontext.hooks.overrides",
        "gitcontext.history.overrides",
    ]
    for module in ours:
        for other in sorted(graph.modules):
            if (
                other != module
                and other.startswith("gitcontext.")
                and graph.find_shortest_chain(importer=other, imported=module) is not None
            ):
                assert graph.find_shortest_chain(importer=module, imported=other) is None, (module, other)


def test_sync_reworded_override_never_takes_a_rule_that_was_already_there(repo: Path, capsys) -> None:
    """Found on modelcontextprotocol/inspector: sync reworded the note to another, older rule of the
    file that looked more like the old text than the text the commit wrote."""
    vault = "Never commit dumps or logs; the vault holds them."
    write(repo, "CLAUDE.md", _rules(DUMPS, vault, KEEP))
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "rules")
    assert run_cli(capsys, "init", "--backfill")[0] == 0
    git(repo, "add", ".context", ".gitattributes")
    git(repo, "commit", "-q", "--no-verify", "-m", "notes")
    old = _id(DUMPS)
    _committed(
        repo,
        _rules(SNAPSHOTS, vault, KEEP),
        "dumps to s3",
        f"Context-Id: {old} reworded\nContext-Why: the vault was retired",
    )
    before = _ls(capsys)
    assert before[SNAPSHOTS] == (old, "documented") and before[vault][0] == _id(vault)
    run_cli(capsys, "sync")
    assert _ls(capsys) == before
    assert [e["text"] for e in read_note(repo, old) if e["kind"] == "reworded"] == [SNAPSHOTS]
