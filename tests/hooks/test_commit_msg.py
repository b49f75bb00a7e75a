"""commit-msg through real `git commit` with the native shims installed."""

from __future__ import annotations

from tests.helpers import commit, git, write
from tests.hooks.support import attempt, last_message, native_repo, stage_new_rule, staged_ids


def test_commit_msg_accepted_with_trailer_and_context_id_appended(repo):
    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    done = attempt(repo, "-m", "Add rule", "-m", "Context-Why: CI broke twice after force pushes, #12")
    assert done.returncode == 0, done.stderr
    message = last_message(repo)
    assert f"Context-Id: {ident} added" in message
    assert message.count("Context-Id:") == 1
    assert "gitcontext: 1 added" in done.stderr


def test_commit_msg_refused_without_why(repo):
    native_repo(repo)
    head = git(repo, "rev-parse", "HEAD")
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    done = attempt(repo, "-m", "Add rule")
    assert done.returncode == 1
    assert "commit refused: 1 instruction change without a why" in done.stderr
    assert f"Context-Why: {ident}:" in done.stderr
    assert git(repo, "rev-parse", "HEAD") == head


def test_commit_msg_accepted_with_staged_note(repo):
    from gitcontext import config
    from gitcontext.provenance.record import record

    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    record(repo, config.load(repo), ident, why="force pushes broke CI twice")
    git(repo, "add", ".context")
    done = attempt(repo, "-m", "Add rule with a note")
    assert done.returncode == 0, done.stderr
    assert f"Context-Id: {ident} added" in last_message(repo)


def test_commit_msg_warn_policy_lets_commit_through(repo):
    native_repo(repo)
    commit(repo, {".context/config.yml": "version: 1\nhooks:\n  policy: warn\n"}, "config")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule")
    assert done.returncode == 0, done.stderr
    assert "gitcontext: warning: 1 instruction change without a why" in done.stderr
    assert "Context-Id: ctx-" in last_message(repo)


def test_commit_msg_off_policy_asks_nothing_but_links_ids(repo):
    native_repo(repo)
    commit(repo, {".context/config.yml": 'version: 1\nhooks:\n  policy: "off"\n'}, "config")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule")
    assert done.returncode == 0, done.stderr
    assert "without a why" not in done.stderr
    assert "Context-Id: ctx-" in last_message(repo)


def test_commit_msg_one_unprefixed_why_does_not_cover_two_changes(repo):
    native_repo(repo)
    stage_new_rule(repo, "- Never force-push to the main branch.\n- Keep functions under thirty lines.\n")
    first, second = staged_ids(repo)
    refused = attempt(repo, "-m", "Add rules", "-m", "Context-Why: reviews kept catching both")
    assert refused.returncode == 1
    assert "only covers a commit that changes one instruction" in refused.stderr
    done = attempt(
        repo,
        "-m",
        "Add rules",
        "-m",
        f"Context-Why: {first}: CI broke after a force push\nContext-Why: {second}: review churn, #9",
    )
    assert done.returncode == 0, done.stderr
    message = last_message(repo)
    assert f"Context-Id: {first} added" in message and f"Context-Id: {second} added" in message


def test_commit_msg_reworded_instruction_needs_why_and_keeps_its_id(repo):
    native_repo(repo)
    write(
        repo,
        "CLAUDE.md",
        (repo / "CLAUDE.md").read_text().replace("Run the tests before pushing.", "Run the full tests before pushing."),
    )
    git(repo, "add", "CLAUDE.md")
    [ident] = staged_ids(repo)
    assert attempt(repo, "-m", "Reword").returncode == 1
    done = attempt(repo, "-m", "Reword", "-m", "Context-Why: the quick suite missed a DB migration bug")
    assert done.returncode == 0, done.stderr
    assert f"Context-Id: {ident} reworded" in last_message(repo)


def test_commit_msg_amend_is_idempotent(repo):
    native_repo(repo)
    stage_new_rule(repo)
    assert attempt(repo, "-m", "Add rule", "-m", "Context-Why: CI broke, #12").returncode == 0
    before = last_message(repo)
    for _ in range(2):
        done = attempt(repo, "--amend", "--no-edit")
        assert done.returncode == 0, done.stderr
    assert last_message(repo) == before
    assert before.count("Context-Id:") == 1


def test_commit_msg_existing_context_id_not_duplicated(repo):
    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    done = attempt(repo, "-m", "Add rule", "-m", f"Context-Why: CI broke, #12\nContext-Id: {ident} added")
    assert done.returncode == 0, done.stderr
    assert last_message(repo).count(f"Context-Id: {ident} added") == 1


def test_commit_msg_removed_instruction_needs_no_why_and_is_linked_as_retired(repo):
    native_repo(repo)
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text().replace("- Use tabs for indentation in Go files.\n", ""))
    git(repo, "add", "CLAUDE.md")
    [ident] = staged_ids(repo)
    done = attempt(repo, "-m", "Drop the tabs rule")
    assert done.returncode == 0, done.stderr
    assert "gitcontext: 1 removed" in done.stderr
    assert f"Context-Id: {ident} retired" in last_message(repo)


def test_commit_msg_empty_message_left_to_git(repo):
    native_repo(repo)
    stage_new_rule(repo)
    done = attempt(repo)  # editor `true` leaves only comments: git aborts, not us
    assert done.returncode != 0
    assert "without a why" not in done.stderr
    assert "empty commit message" in done.stderr.lower() or "aborting" in done.stderr.lower()


def test_commit_msg_names_a_retired_rule_by_its_own_id(repo, capsys):
    """`retire` marks the note retired before the commit: the hook still names the rule as it was at HEAD."""
    from tests.helpers import run_cli, run_json
    from tests.hooks.support import attempt, last_message, native_repo

    native_repo(repo)
    rule = next(r for r in run_json(capsys, "ls")["instructions"] if r["text"].startswith("Use tabs"))
    assert run_cli(capsys, "record", rule["id"], "--why", "gofmt rejected spaces in CI")[0] == 0
    git(repo, "add", ".context")
    assert attempt(repo, "-m", "why for the tabs rule").returncode == 0
    assert run_cli(capsys, "retire", rule["id"], "--reason", "gofmt runs in the pre-commit hook now")[0] == 0
    git(repo, "add", "CLAUDE.md", ".context")
    done = attempt(repo, "-m", "Retire the tabs rule")
    assert done.returncode == 0, done.stderr
    assert f"Context-Id: {rule['id']} retired" in last_message(repo)


def test_commit_msg_joins_trailer_paragraphs_of_several_m_flags(repo):
    """`git commit -m subject -m "Context-Why: a" -m "Context-Why: b"`: git reads trailers from the last
    paragraph only, so the hook joins them and both whys count."""
    native_repo(repo)
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text() + "- Never force-push to main.\n- Pin every action.\n")
    git(repo, "add", "CLAUDE.md")
    first, second = staged_ids(repo)
    done = attempt(
        repo,
        "-m",
        "Add rules",
        "-m",
        f"Context-Why: {first}: a force-push lost a day, #4",
        "-m",
        f"Context-Why: {second}: an action tag moved under us, #5",
    )
    assert done.returncode == 0, done.stderr
    assert "joined the trailer paragraphs" in done.stderr
    trailers = git(repo, "log", "-1", "--format=%(trailers:key=Context-Why,valueonly)").splitlines()
    assert len([t for t in trailers if t.strip()]) == 2


def test_commit_msg_uncertain_rewording_keeps_the_id_its_note_is_under(repo, capsys):
    """`Keep PRs small.` -> `Keep pull requests small and focused.`: the diff pairs them (`reworded? 44%`), below
    the bar at which a note's text claims a rule; the hook still names the rule by its note's id, so the
    rewording and its why land on that note, and `ls` names the rule so before and after `sync`."""
    import datetime as dt

    from tests.helpers import run_cli, run_json

    day = [(dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%SZ") for n in (2, 1)]
    commit(repo, {"AGENTS.md": "# Rules\n\n- Never commit database dumps.\n- Keep PRs small.\n"}, "rules", date=day[0])
    run_cli(capsys, "init", "--backfill")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "track the why")
    old = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}["Keep PRs small."]
    write(repo, "AGENTS.md", "# Rules\n\n- Never commit database dumps.\n- Keep pull requests small and focused.\n")
    git(repo, "add", "AGENTS.md")
    done = attempt(
        repo,
        "-m",
        "focus",
        "-m",
        "Context-Why: big PRs hide bugs",
        env={"GIT_COMMITTER_DATE": day[1], "GIT_AUTHOR_DATE": day[1]},
    )
    assert done.returncode == 0, done.stderr
    assert f"Context-Id: {old} reworded" in last_message(repo)
    listed = {r["text"]: (r["id"], r["status"]) for r in run_json(capsys, "ls")["instructions"]}
    assert listed["Keep pull requests small and focused."] == (old, "documented")
    run_cli(capsys, "sync")
    listed = {r["text"]: (r["id"], r["status"]) for r in run_json(capsys, "ls")["instructions"]}
    assert listed["Keep pull requests small and focused."] == (old, "documented")


def test_commit_msg_accepts_a_committed_restore_and_shows_a_wrapped_rule_on_one_line(repo, capsys):
    """A restore brings a retired rule back with its note: no why is asked (issue 29); a refusal shows a
    rule written over two lines as one line, not cut at the break."""
    from tests.helpers import run_cli, run_json

    native_repo(repo)
    stage_new_rule(repo, "- Run the linter before every push,\n  even for a docs change.\n")
    refused = attempt(repo, "-m", "Add a wrapped rule")
    assert refused.returncode == 1
    assert "Run the linter before every push, even for a docs change." in refused.stderr
    assert attempt(repo, "-m", "Add a wrapped rule", "-m", "Context-Why: lint broke main twice").returncode == 0
    [row] = [r for r in run_json(capsys, "ls")["instructions"] if r["text"].startswith("Run the linter")]
    assert run_cli(capsys, "retire", row["id"], "--reason", "the linter runs in CI now")[0] == 0
    git(repo, "add", "-A")
    assert attempt(repo, "-m", "Retire the lint rule").returncode == 0
    assert run_cli(capsys, "restore", row["id"])[0] == 0
    git(repo, "add", "-A")
    done = attempt(repo, "-m", "Bring the lint rule back")
    assert done.returncode == 0, done.stderr
    assert f"Context-Id: {row['id']} added" in last_message(repo)


def test_commit_msg_a_restored_event_for_a_rule_never_retired_does_not_replace_the_why(repo):
    """Hostile: a note written to skip the why (an `added` and a `restored` event for a brand-new rule,
    as a pull request could commit it) covers nothing: only a rule HEAD's note retired comes back."""
    from gitcontext.provenance.events import new_event
    from gitcontext.provenance.store import append_events

    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    append_events(
        repo,
        [
            new_event(
                "added", ident, "cli", commit=head, file="CLAUDE.md", text="Never force-push to the main branch."
            ),
            new_event("restored", ident, "cli", commit=head, file="CLAUDE.md"),
        ],
    )
    git(repo, "add", ".context")
    done = attempt(repo, "-m", "Add a rule with a made-up restore")
    assert done.returncode == 1
    assert "commit refused: 1 instruction change without a why" in done.stderr


def test_commit_msg_reads_no_staged_note_when_every_change_is_named(repo, tmp_path):
    """A Context-Why naming the change settles it: the staged notes are not listed (one process fewer on
    every such commit); without one they are, so a staged note can still supply the why."""
    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    trace = tmp_path / "trace"
    done = attempt(repo, "-m", "Add rule", "-m", f"Context-Why: {ident}: CI broke twice", env={"GIT_TRACE": str(trace)})
    assert done.returncode == 0, done.stderr
    lines = trace.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if "run_command:" in line and "hooks/commit-msg" in line)
    in_commit_msg = [line.split("built-in: ", 1)[1] for line in lines[start:] if "built-in: git " in line]
    assert any(a.startswith("git interpret-trailers") for a in in_commit_msg), in_commit_msg
    assert not [a for a in in_commit_msg if a.startswith("git ls-files")], in_commit_msg


def test_commit_msg_a_move_that_rewords_needs_a_why_and_a_move_word_for_word_does_not(repo):
    """Found trying the tool on anthropics/claude-agent-sdk-python (fresh): `- DO NOT post any comments
    or reactions to the issue` moved from a command file into CLAUDE.md as `- Post comments on the issue
    whenever you like` went through as `moved`, no why asked. A move that rewords is a rewording: the
    refusal shows what it said before; a move word for word still needs none."""
    native_repo(repo)
    commit(repo, {"AGENTS.md": "# Agents\n\n- DO NOT post any comments or reactions to the issue.\n"}, "agents")
    write(repo, "AGENTS.md", "# Agents\n")
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text() + "- Post comments on the issue whenever you like.\n")
    git(repo, "add", "-A")
    refused = attempt(repo, "-m", "Move and reword")
    assert refused.returncode == 1
    assert (
        "  moved ctx-" in refused.stderr
        and "CLAUDE.md:5  Post comments on the issue whenever you like." in refused.stderr
    )
    assert "was: DO NOT post any comments or reactions to the issue." in refused.stderr
    assert attempt(repo, "-m", "Move and reword", "-m", "Context-Why: the bot must explain").returncode == 0
    assert "moved" in last_message(repo)

    write(repo, "AGENTS.md", "# Agents\n\n- Use tabs for indentation in Go files.\n")
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text().replace("- Use tabs for indentation in Go files.\n", ""))
    git(repo, "add", "-A")
    done = attempt(repo, "-m", "Move word for word")
    assert done.returncode == 0, done.stderr
    assert "gitcontext: 1 moved" in done.stderr


def test_commit_msg_a_staged_note_with_a_why_for_the_old_text_does_not_cover_a_rewording(repo, capsys):
    """A rule with a why, inverted in the work tree, and a note staged that only adds a ref (`link` brings
    the note to the new text, the why stays the old text's): the commit went through. A staged note
    covers a change when its why is for the text the commit gives the rule."""
    from tests.helpers import run_cli, run_json

    native_repo(repo)
    [row] = [r for r in run_json(capsys, "ls")["instructions"] if r["text"].startswith("Run the tests")]
    assert run_cli(capsys, "record", row["id"], "--why", "main broke twice, #3")[0] == 0
    git(repo, "add", "-A")
    assert attempt(repo, "-m", "notes").returncode == 0
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text().replace("Run the tests", "Never run the tests"))
    assert run_cli(capsys, "link", row["id"], "--ref", "#4")[0] == 0
    git(repo, "add", "-A")
    refused = attempt(repo, "-m", "Invert")
    assert refused.returncode == 1 and f"reworded {row['id']}" in refused.stderr
    assert run_cli(capsys, "record", row["id"], "--why", "the tests run in CI now, #5")[0] == 0
    git(repo, "add", "-A")
    done = attempt(repo, "-m", "Invert")
    assert done.returncode == 0, done.stderr
