"""prepare-commit-msg: the pre-filled block, through git's editor and through the hook entry."""

from __future__ import annotations

import sys

from gitcontext.hooks.fast import main
from tests.helpers import write
from tests.hooks.support import attempt, last_message, native_repo, stage_new_rule, staged_ids

GIT_TEMPLATE = "\n# Please enter the commit message for your changes. Lines starting\n# with '#' will be ignored.\n"


def test_prepare_commit_msg_prefills_ids_and_ready_trailer(repo):
    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    msg = write(repo, "msg.txt", GIT_TEMPLATE)
    assert main(["prepare-commit-msg", str(msg)]) == 0
    text = msg.read_text()
    assert f"#   added    {ident}  CLAUDE.md:5  Never force-push to the main branch." in text
    assert "\n# Context-Why:\n" in text
    assert text.index("gitcontext: instruction changes") < text.index("Please enter the commit message")
    assert text.startswith("\n\n#")  # subject line, then an empty line before the block


def test_prepare_commit_msg_is_idempotent(repo):
    native_repo(repo)
    stage_new_rule(repo)
    msg = write(repo, "msg.txt", GIT_TEMPLATE)
    main(["prepare-commit-msg", str(msg)])
    once = msg.read_text()
    main(["prepare-commit-msg", str(msg)])
    assert msg.read_text() == once


def test_prepare_commit_msg_skips_message_merge_squash_commit_sources(repo):
    native_repo(repo)
    stage_new_rule(repo)
    for source in ("message", "merge", "squash", "commit"):
        msg = write(repo, "msg.txt", "Subject given with -m\n")
        assert main(["prepare-commit-msg", str(msg), source, *(["HEAD"] if source == "commit" else [])]) == 0
        assert msg.read_text() == "Subject given with -m\n"


def test_prepare_commit_msg_two_changes_get_one_prefixed_line_each(repo):
    native_repo(repo)
    stage_new_rule(repo, "- Never force-push to the main branch.\n- Keep functions under thirty lines.\n")
    first, second = staged_ids(repo)
    msg = write(repo, "msg.txt", GIT_TEMPLATE)
    main(["prepare-commit-msg", str(msg)])
    text = msg.read_text()
    assert f"# Context-Why: {first}:\n" in text and f"# Context-Why: {second}:\n" in text


def test_prepare_commit_msg_uncommented_line_is_a_valid_trailer_through_git(repo, tmp_path):
    """An editor that writes a subject and uncomments the pre-filled Context-Why line: accepted."""
    native_repo(repo)
    stage_new_rule(repo)
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "p = sys.argv[1]\n"
        "t = open(p).read()\n"
        "t = 'Add rule' + t.replace('# Context-Why:', 'Context-Why: CI broke twice after force pushes, #12')\n"
        "open(p, 'w').write(t)\n"
    )
    done = attempt(repo, editor=f"{sys.executable} {editor}")
    assert done.returncode == 0, done.stderr
    message = last_message(repo)
    assert message.startswith("Add rule\n\n")
    assert "Context-Why: CI broke twice after force pushes, #12\nContext-Id: ctx-" in message
    assert "gitcontext: end" not in message


def test_prepare_commit_msg_respects_comment_char(repo):
    from tests.helpers import git

    native_repo(repo)
    git(repo, "config", "core.commentChar", ";")
    stage_new_rule(repo)
    msg = write(repo, "msg.txt", "\n; Please enter the commit message\n")
    main(["prepare-commit-msg", str(msg)])
    assert "\n; Context-Why:\n" in msg.read_text()


def test_prepare_commit_msg_fills_a_commit_template(repo, tmp_path):
    native_repo(repo)
    template = write(tmp_path, "template.txt", "Area: \n\n# Describe the change\n")
    from tests.helpers import git

    git(repo, "config", "commit.template", str(template))
    stage_new_rule(repo)
    seen = tmp_path / "seen.txt"
    editor = write(tmp_path, "editor.py", f"import shutil, sys\nshutil.copy(sys.argv[1], {str(seen)!r})\n")
    attempt(repo, editor=f"{sys.executable} {editor}")  # unchanged template: git aborts
    text = seen.read_text()
    assert text.startswith("Area: \n\n# gitcontext: instruction changes in this commit\n")
    assert text.index("gitcontext: end") < text.index("# Describe the change")


def test_prepare_commit_msg_block_stays_above_the_verbose_scissors(repo, tmp_path):
    native_repo(repo)
    stage_new_rule(repo)
    editor = write(
        tmp_path,
        "editor.py",
        "import sys\n"
        "t = open(sys.argv[1]).read()\n"
        "assert t.index('gitcontext: end') < t.index('>8')\n"
        "open(sys.argv[1], 'w').write('Add rule' + t.replace('# Context-Why:', 'Context-Why: CI broke'))\n",
    )
    done = attempt(repo, "-v", editor=f"{sys.executable} {editor}")
    assert done.returncode == 0, done.stderr
    assert "diff --git" not in last_message(repo) and "Context-Id: ctx-" in last_message(repo)


def test_prepare_commit_msg_through_the_cli_entry(repo, capsys):
    from tests.helpers import run_cli

    native_repo(repo)
    stage_new_rule(repo)
    msg = write(repo, "msg.txt", GIT_TEMPLATE)
    code, _, _ = run_cli(capsys, "hook", "prepare-commit-msg", str(msg), "template")
    assert code == 0
    assert "# gitcontext: instruction changes in this commit" in msg.read_text()


def test_prepare_commit_msg_keeps_a_templates_trailer_block_whole(repo):
    native_repo(repo)
    write(repo, "template.txt", "Add a rule\n\nSigned-off-by: Test User <test@example.com>\n")
    from tests.helpers import git

    git(repo, "config", "commit.template", str(repo / "template.txt"))
    stage_new_rule(repo)
    editor = "sed -i 's/^# Context-Why: *$/Context-Why: CI broke twice, #12/'"
    done = attempt(repo, editor=editor)
    assert done.returncode == 0, done.stderr
    trailers = git(repo, "log", "-1", "--format=%(trailers:only=true)")
    assert "Signed-off-by: Test User <test@example.com>" in trailers and "Context-Why: CI broke twice" in trailers
