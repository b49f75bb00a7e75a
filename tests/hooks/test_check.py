"""`git context check --base REV`: the commit-msg rule over real git ranges (merges, squashes, rebases)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.helpers import commit, git, run_cli, run_json, write
from tests.hooks.support import RULES, attempt, native_repo, stage_new_rule

RULE = "- Never force-push to the main branch.\n"
RULE2 = "- Always run make lint before opening a pull request.\n"


def _branch(repo, name="feature"):
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    git(repo, "checkout", "-q", "-b", name)


def _ids(repo, capsys, base="main"):
    code, out, err = run_cli(capsys, "check", "--base", base, "--json")
    return code, json.loads(out)


def _add(repo, *rules, message="Add rule"):
    text = (repo / "CLAUDE.md").read_text() + "".join(rules)
    return commit(repo, {"CLAUDE.md": text}, message)


def test_check_added_without_why_exits_1_with_the_fix(repo, capsys):
    _branch(repo)
    _add(repo, RULE)  # committed with --no-verify: no hook ran
    code, out, err = run_cli(capsys, "check", "--base", "main")
    assert code == 1, out + err
    assert "error: 1 instruction change without a why:" in out
    [ident] = _ids(repo, capsys)[1]["missing"]
    assert f"added {ident}  CLAUDE.md:5  Never force-push" in out
    assert f"Context-Why: {ident}: <what failed" in out
    assert f"git context record {ident} --why" in out


def test_check_why_given_only_in_a_later_commit(repo, capsys):
    _branch(repo)
    _add(repo, RULE)
    [ident] = _ids(repo, capsys)[1]["missing"]
    commit(repo, {}, f"Record why\n\nContext-Why: {ident}: CI broke twice after force pushes, #12")
    code, data = _ids(repo, capsys)
    assert code == 0 and data["ok"], data
    assert data["changes"][0]["why"].startswith("trailer of ")


def test_check_a_why_for_an_earlier_text_does_not_cover_a_later_rewording(repo, capsys):
    """Found trying the tool on anthropics/claude-agent-sdk-python (fresh): a rule reworded with a why
    (trailer, then a note by sync), and reworded again by a later commit of the range made with
    --no-verify, with none; check passed on the earlier why. A why covers the text its commit (or its
    note) was written for."""
    from gitcontext import config
    from gitcontext.provenance.sync import sync

    from gitcontext.provenance.record import record

    commit(repo, {"CLAUDE.md": RULES}, "rules")
    record(repo, config.load(repo), "Run the tests before pushing", why="main broke twice, #3")
    git(repo, "add", ".context")
    commit(repo, {}, "notes")
    git(repo, "checkout", "-q", "-b", "feature")
    first = RULES.replace("Run the tests before pushing.", "Run the full test suite before pushing.")
    commit(repo, {"CLAUDE.md": first}, "reword")
    [ident] = _ids(repo, capsys)[1]["missing"]
    commit(repo, {}, f"Record why\n\nContext-Why: {ident}: a flaky suite hid a broken build, #12")
    assert _ids(repo, capsys)[0] == 0
    again = first.replace("the full test suite", "only the fast tests")
    commit(repo, {"CLAUDE.md": again}, "reword without the hooks")
    code, data = _ids(repo, capsys)
    assert code == 1 and data["missing"] == [ident], data

    sync(repo, config.load(repo))  # the note holds the earlier why, written for the earlier text
    git(repo, "add", ".context")
    commit(repo, {}, "notes")
    code, data = _ids(repo, capsys)
    assert code == 1 and data["missing"] == [ident], data

    commit(repo, {}, f"Record why\n\nContext-Why: {ident}: the full suite takes 40 minutes now, #13")
    code, data = _ids(repo, capsys)
    assert code == 0 and data["changes"][0]["why"].startswith("trailer of "), data


def test_check_unprefixed_trailer_in_a_commit_made_without_hooks(repo, capsys):
    _branch(repo)
    _add(repo, RULE, message="Add rule\n\nContext-Why: force pushes lost work twice")
    code, data = _ids(repo, capsys)
    assert code == 0, data


def test_check_unprefixed_trailer_does_not_cover_two_rules(repo, capsys):
    _branch(repo)
    _add(repo, RULE, RULE2, message="Add rules\n\nContext-Why: things broke")
    code, data = _ids(repo, capsys)
    assert code == 1 and len(data["missing"]) == 2


def test_check_note_in_the_range_covers(repo, capsys):
    from gitcontext import config
    from gitcontext.provenance.record import record

    _branch(repo)
    _add(repo, RULE)
    [ident] = _ids(repo, capsys)[1]["missing"]
    record(repo, config.load(repo), ident, why="force pushes broke CI twice")
    git(repo, "add", ".context")
    commit(repo, {}, "note")
    code, data = _ids(repo, capsys)
    assert code == 0 and data["changes"][0]["why"] == "note"


def test_check_commits_made_through_the_hooks_pass(repo, capsys):
    native_repo(repo)
    git(repo, "checkout", "-q", "-b", "feature")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", "-m", "Context-Why: CI broke twice after force pushes, #12")
    assert done.returncode == 0, done.stderr
    code, out, _ = run_cli(capsys, "check", "--base", "main")
    assert code == 0, out
    assert "1 added — every added or reworded instruction has a why" in out


def test_check_reworded_needs_a_why_removed_does_not(repo, capsys):
    _branch(repo)
    text = RULES.replace("Run the tests before pushing.", "Run the full test suite before every push.")
    commit(repo, {"CLAUDE.md": text.replace("- Use tabs for indentation in Go files.\n", "")}, "edit")
    code, data = _ids(repo, capsys)
    assert code == 1
    kinds = {c["kind"]: c["missing"] for c in data["changes"]}
    assert kinds == {"reworded": True, "retired": False}


def test_check_a_move_that_rewords_needs_a_why_as_the_hook_asks(repo, capsys):
    """The range check and the Action ask what the hook asks: a rule moved to another file with other
    words needs a why; the one moved word for word does not."""
    _branch(repo)
    text = RULES.replace("- Run the tests before pushing.\n", "").replace(
        "- Use tabs for indentation in Go files.\n", ""
    )
    moved = "# Agents\n\n- Run every test before pushing.\n- Use tabs for indentation in Go files.\n"
    commit(repo, {"CLAUDE.md": text, "AGENTS.md": moved}, "move two rules")
    code, data = _ids(repo, capsys)
    assert code == 1
    assert sorted((c["kind"], c["text"], c["missing"]) for c in data["changes"]) == [
        ("moved", "Run every test before pushing.", True),
        ("moved", "Use tabs for indentation in Go files.", False),
    ]


def test_check_merge_commit_counts_the_side_branch_trailers(repo, capsys):
    _branch(repo)
    _add(repo, RULE)
    [ident] = _ids(repo, capsys)[1]["missing"]
    commit(repo, {}, f"why\n\nContext-Why: {ident}: broke CI")
    git(repo, "checkout", "-q", "main")
    before = git(repo, "rev-parse", "HEAD").strip()
    commit(repo, {"src.py": "x = 1\n"}, "unrelated work on main")
    git(repo, "merge", "-q", "--no-ff", "--no-verify", "-m", "Merge feature", "feature")
    code, data = _ids(repo, capsys, base=before)
    assert code == 0 and data["commits"] == 4, data


def test_check_github_squash_merge_keeps_inner_trailer_paragraphs(repo, capsys):
    _branch(repo)
    _add(repo, RULE)
    [ident] = _ids(repo, capsys)[1]["missing"]
    git(repo, "checkout", "-q", "main")
    before = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "merge", "-q", "--squash", "feature")
    # GitHub's squash message: the title, then each commit's message as a bullet paragraph
    message = (
        f"Add rule (#7)\n\n* Add rule\n\nContext-Why: {ident}: CI broke twice\n"
        f"Context-Id: {ident} added\n\n* fix typo\n\nCo-authored-by: A <a@example.com>\n"
    )
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", message], cwd=repo, check=True)
    code, data = _ids(repo, capsys, base=before)
    assert code == 0, data


def test_check_local_squash_merge_indented_message(repo, capsys):
    _branch(repo)
    _add(repo, RULE, message="Add rule\n\nContext-Why: CI broke twice after force pushes")
    git(repo, "checkout", "-q", "main")
    before = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "merge", "-q", "--squash", "feature")
    squash_msg = (repo / ".git" / "SQUASH_MSG").read_text()
    assert "    Context-Why:" in squash_msg  # git indents the squashed messages
    subprocess.run(["git", "commit", "-q", "--no-verify", "-F", ".git/SQUASH_MSG"], cwd=repo, check=True)
    code, data = _ids(repo, capsys, base=before)
    assert code == 0, data


def test_check_rebase_merge_keeps_per_commit_trailers(repo, capsys):
    _branch(repo)
    _add(repo, RULE, message="Add rule\n\nContext-Why: force pushes lost work")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"src.py": "x = 1\n"}, "main moves on")
    git(repo, "checkout", "-q", "feature")
    git(repo, "rebase", "-q", "main")
    code, data = _ids(repo, capsys)
    assert code == 0 and data["commits"] == 1, data


def test_check_policy_from_the_base_not_the_pull_request(repo, capsys):
    _branch(repo)
    commit(repo, {".context/config.yml": 'version: 1\nhooks:\n  policy: "off"\n'}, "switch the check off")
    _add(repo, RULE)
    code, out, _ = run_cli(capsys, "check", "--base", "main")
    assert code == 1 and "hooks.policy: enforce at the base" in out


def test_check_warn_policy_at_base_exits_0(repo, capsys):
    commit(repo, {".context/config.yml": "version: 1\nhooks:\n  policy: warn\n"}, "config")
    _branch(repo)
    _add(repo, RULE)
    code, out, _ = run_cli(capsys, "check", "--base", "main")
    assert code == 0 and "warning: 1 instruction change without a why" in out


def test_check_shallow_clone_without_base_says_fetch_depth(repo, tmp_path, capsys):
    commit(repo, {"README": "one\n"}, "older history")
    commit(repo, {"README": "two\n"}, "more older history")
    _branch(repo)
    _add(repo, RULE)
    _add(repo, RULE2)
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{repo}", str(clone))
    os.chdir(clone)
    code, _, err = run_cli(capsys, "check", "--base", "origin/main")
    assert code == 3 and "fetch-depth: 0" in err
    deeper = tmp_path / "deeper"  # shallow, but deep enough to hold the base
    git(
        tmp_path,
        "clone",
        "-q",
        "--depth",
        "3",
        "--no-single-branch",
        "--branch",
        "feature",
        f"file://{repo}",
        str(deeper),
    )
    assert git(deeper, "rev-parse", "--is-shallow-repository").strip() == "true"
    os.chdir(deeper)
    code, out, err = run_cli(capsys, "check", "--base", "origin/main")
    assert code == 1 and "2 instruction changes without a why" in out, err


def test_check_unknown_base_exits_2(repo, capsys):
    _branch(repo)
    code, _, err = run_cli(capsys, "check", "--base", "nope")
    assert code == 2 and "unknown revision 'nope'" in err


def test_check_runs_as_the_installed_command(repo):
    _branch(repo)
    _add(repo, RULE)
    done = subprocess.run(
        [sys.executable, "-m", "gitcontext", "check", "--base", "main"], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 1 and "without a why" in done.stdout, done.stderr
    write(repo, "unused.txt", "")


def test_check_inside_github_actions_annotates_and_writes_outputs(repo, tmp_path):
    _branch(repo)
    _add(repo, "- Ping @octocat <img src=x> before merging.\n")
    output, summary = tmp_path / "out", tmp_path / "summary"
    env = {
        **os.environ,
        "GITHUB_ACTIONS": "true",
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "gitcontext", "check", "--base", "main"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    assert "::error file=CLAUDE.md,line=5,title=gitcontext%3A no why::added instruction ctx-" in done.stdout
    assert output.read_text().startswith("findings<<ghadelimiter_")
    text = summary.read_text()
    assert "without a why" in text and "<img" not in text and "@octocat" not in text


def test_check_the_printed_fix_makes_it_pass(repo, capsys):
    _branch(repo)
    _add(repo, RULE, RULE2)
    code, out, _ = run_cli(capsys, "check", "--base", "main")
    assert code == 1
    start = out.index("git commit --allow-empty")
    command = out[start : out.index("'\n", start) + 1].replace("<what failed, how often, link>", "it broke CI, #4")
    subprocess.run(["bash", "-c", command], cwd=repo, check=True, capture_output=True)
    code, out, _ = run_cli(capsys, "check", "--base", "main")
    assert code == 0, out


def test_check_ids_are_the_ones_ls_shows(repo, capsys):
    from tests.helpers import run_json

    _branch(repo)
    _add(repo, RULE, RULE2)
    _, data = _ids(repo, capsys)
    listed = {i["text"]: i["id"] for i in run_json(capsys, "ls")["instructions"]}
    assert {c["text"]: c["id"] for c in data["changes"]} == {t: listed[t] for t in (RULE[2:-1], RULE2[2:-1])}


def test_check_uncertain_rewording_keeps_the_id_its_note_is_under(repo, capsys):
    """The server side names a `reworded? 44%` rule as the hook did (its note's id), so the hook's
    `Context-Why` without an id covers it there too."""
    import datetime as dt

    from tests.helpers import run_json

    day = [(dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%SZ") for n in (2, 1)]
    commit(repo, {"AGENTS.md": "# Rules\n\n- Never commit database dumps.\n- Keep PRs small.\n"}, "rules", date=day[0])
    run_cli(capsys, "init", "--backfill")
    git(repo, "add", "-A")
    base = commit(repo, {}, "track the why")
    old = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}["Keep PRs small."]
    commit(
        repo,
        {"AGENTS.md": "# Rules\n\n- Never commit database dumps.\n- Keep pull requests small and focused.\n"},
        f"focus\n\nContext-Why: big PRs hide bugs\nContext-Id: {old} reworded",
        date=day[1],
    )
    data = run_json(capsys, "check", "--base", base)
    assert [(c["kind"], c["id"]) for c in data["changes"]] == [("reworded", old)] and data["ok"], data


def test_check_a_restore_in_the_range_needs_no_why(repo, capsys):
    """`check` agrees with the commit-msg hook: a rule brought back by `restore` is covered by its note."""
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before pushing.\n- Never force-push main.\n"}, "rules")
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "adopt")
    [first, _] = run_json(capsys, "ls")["instructions"]
    assert run_cli(capsys, "retire", first["id"], "--reason", "CI runs them")[0] == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "retire")
    base = git(repo, "rev-parse", "HEAD").strip()
    assert run_cli(capsys, "restore", first["id"])[0] == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "restore")
    code, out, err = run_cli(capsys, "check", "--base", base, "--json")
    assert code == 0, out + err
