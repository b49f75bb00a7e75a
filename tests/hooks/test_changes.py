"""What the hooks see of a commit: formatter runs ask for nothing, uncertain pairings show their old
text, and a path renamed in the commit renames the rule that names it (real git, installed hooks)."""

from __future__ import annotations

from gitcontext import config
from gitcontext.hooks.changes import listing, staged_changes
from gitcontext.hooks.fast import main
from tests.helpers import commit, git, write
from tests.hooks.support import attempt, last_message

RULES = (
    "# Rules\n\n* Run the tests before pushing; CI runs them again, but a red build\n"
    "  blocks everyone.   \n* __Never__ push directly to `main`.\n\n"
    "3) Tag releases with `make tag`.\n7) Write the changelog entry \\*first\\*.\n"
)
FORMATTED = (
    "# Rules\n\n- Run the tests before pushing; CI runs them again, but a red build blocks everyone.\n"
    "- **Never** push directly to `main`.\n\n"
    "1. Tag releases with `make tag`.\n2. Write the changelog entry *first*.\n"
)


def _installed(repo, rules: str = RULES):
    from gitcontext.hooks.install import install

    commit(repo, {"CLAUDE.md": rules}, "rules")
    install(repo)


def test_staged_changes_formatter_commit_asks_for_no_why(repo):
    _installed(repo)
    write(repo, "CLAUDE.md", FORMATTED)
    git(repo, "add", "CLAUDE.md")
    assert staged_changes(repo, config.load(repo)).changes == []
    done = attempt(repo, "-m", "Format CLAUDE.md with prettier")
    assert done.returncode == 0, done.stderr
    assert "without a why" not in done.stderr
    assert "Context-Id:" not in last_message(repo)


def test_staged_changes_uncertain_rewording_is_listed_with_its_old_text(repo):
    _installed(repo, "# Rules\n\n- Run the tests before pushing.\n- Use tabs for indentation in Go files.\n")
    write(
        repo,
        "CLAUDE.md",
        "# Rules\n\n- Tests must be green on your machine before you push anything.\n"
        "- Use tabs for indentation in Go files.\n",
    )
    git(repo, "add", "CLAUDE.md")
    [change] = staged_changes(repo, config.load(repo)).changes
    assert change.kind == "reworded" and change.similarity < 70
    assert change.old_text == "Run the tests before pushing."
    head, was = listing(change)
    assert head.startswith(f"  reworded? {change.similarity:.0f}% {change.id}  CLAUDE.md:3  Tests must be green")
    assert was.strip() == "was: Run the tests before pushing."
    msg = write(repo, "msg.txt", "\n")
    assert main(["prepare-commit-msg", str(msg)]) == 0
    assert "was: Run the tests before pushing." in msg.read_text()


def test_staged_changes_confident_rewording_lists_plainly(repo):
    _installed(repo, "# Rules\n\n- Run the tests before pushing.\n- Use tabs in Go files.\n")
    write(repo, "CLAUDE.md", "# Rules\n\n- Always run the tests before pushing.\n- Use tabs in Go files.\n")
    git(repo, "add", "CLAUDE.md")
    [change] = staged_changes(repo, config.load(repo)).changes
    assert change.kind == "reworded" and change.similarity >= 70
    assert listing(change) == [f"  reworded {change.id}  CLAUDE.md:3  Always run the tests before pushing."]


def test_staged_changes_git_rename_renames_the_rule_naming_it(repo):
    rules = "# Rules\n\n- End-to-end tests live in `tests/e2e/` and need Docker.\n- Keep unit tests next to the code.\n"
    commit(repo, {"CLAUDE.md": rules, "tests/e2e/run.sh": "#!/bin/sh\ndocker compose up -d\npytest -x e2e\n"}, "e2e")
    (repo / "test" / "integration").mkdir(parents=True)
    git(repo, "mv", "tests/e2e/run.sh", "test/integration/run.sh")
    write(repo, "CLAUDE.md", rules.replace("tests/e2e/", "test/integration/"))
    git(repo, "add", "CLAUDE.md")
    [change] = staged_changes(repo, config.load(repo)).changes
    assert change.kind == "reworded" and change.similarity >= 70, change
    git(repo, "mv", "test/integration/run.sh", "tests/e2e/run.sh")  # the same edit without the rename
    kinds = [c.kind for c in staged_changes(repo, config.load(repo)).changes]
    assert kinds == ["added", "retired"]


def test_staged_changes_a_restored_rule_keeps_its_id_beside_a_line_like_it(repo, capsys):
    """Issue 29: HEAD's lines are named with the notes as HEAD had them. A restore not yet committed
    left the rule retired at HEAD, so a HEAD line without a note that looks like it ('Run the tests
    before pushing.') never takes its id by similarity, and the restored line keeps the retired id:
    for the hook and for the agent server's pending changes alike."""
    from gitcontext.agentserver.pending import pending
    from tests.helpers import run_cli, run_json

    _installed(repo, "# Rules\n\n- Run the tests before pushing.\n- Use tabs for indentation in Go files.\n")
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text() + "- Run the linter before every push.\n")
    git(repo, "add", "CLAUDE.md")
    assert attempt(repo, "-m", "lint", "-m", "Context-Why: lint broke main twice").returncode == 0
    [row] = [r for r in run_json(capsys, "ls")["instructions"] if r["text"].startswith("Run the linter")]
    assert run_cli(capsys, "retire", row["id"], "--reason", "CI lints now")[0] == 0
    git(repo, "add", "-A")
    assert attempt(repo, "-m", "retire").returncode == 0
    assert run_cli(capsys, "restore", row["id"])[0] == 0

    cfg = config.load(repo)
    assert [(c.kind, c.id) for c in pending(repo, cfg).changes] == [("added", row["id"])]
    git(repo, "add", "-A")
    assert [(c.kind, c.id) for c in staged_changes(repo, cfg).changes] == [("added", row["id"])]
    assert attempt(repo, "-m", "lint again").returncode == 0
