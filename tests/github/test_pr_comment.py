"""`git context github pr-comment` as a subprocess with a runner's environment, against the fake GitHub."""

from __future__ import annotations

import json
import os

import pytest

from gitcontext.github.sticky import MARKER
from tests.github.conftest import NUMBER, RULES, make_runner, pull_request_repo
from tests.github.fake import BOT

NEW_RULE = "- Never force-push to the main branch.\n"
CHANGED = RULES.replace("Run the tests before pushing.", "Run the whole test suite before every push.") + NEW_RULE


@pytest.fixture
def runner(repo, tmp_path, fake):
    base, head = pull_request_repo(repo, CHANGED, {"app.py": "def main():\n    return 2\n"})
    return make_runner(repo, tmp_path, fake, base, head)


def _ours(fake):
    return [c for c in fake.comments(NUMBER) if c["body"].startswith(MARKER) and c["user"]["login"] == BOT]


def test_pr_comment_creates_one_comment_with_the_sections_that_have_something(runner, fake):
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    [comment] = _ours(fake)
    body = comment["body"]
    for title in ("#### Check", "#### Instruction changes", "#### Blast radius"):
        assert title in body
    assert "deletion candidates: **0**" in body and "#### Deletion candidates" not in body  # no empty section
    assert "#### Stale rationales" not in body
    assert "Never force-push to the main branch." in body
    assert "was <code>Run the tests before pushing.</code>" in body
    assert "**no why yet**" in body and "2 without a why" in body
    assert f"https://github.com/octo/repo/blob/{runner.env and _head(runner)}/CLAUDE.md#L" in body
    outputs = runner.outputs()
    assert outputs["comment-url"] == comment["html_url"]
    assert int(outputs["findings"]) >= 2
    assert open(outputs["markdown-file"], encoding="utf-8").read().startswith(MARKER)
    assert "#### Instruction changes" in runner.summary.read_text()
    assert "::error file=CLAUDE.md,line=" in done.stdout


def _head(runner) -> str:
    return json.loads(open(runner.env["GITHUB_EVENT_PATH"]).read())["pull_request"]["head"]["sha"]


def test_pr_comment_second_run_skips_an_unchanged_body(runner, fake):
    assert runner.run("pr-comment").returncode == 0
    writes = len(fake.writes())
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    assert "comment unchanged" in done.stdout
    assert len(fake.writes()) == writes
    assert len(_ours(fake)) == 1


def test_pr_comment_human_comment_carrying_the_marker_is_never_adopted(runner, fake):
    human = fake.add_comment(NUMBER, MARKER + "\nI quoted the bot here", login="mallory", kind="User")
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    assert human in fake.comments(NUMBER) and human["body"].endswith("I quoted the bot here")
    [ours] = _ours(fake)
    assert ours["id"] != human["id"]
    assert not any(m == "PATCH" and str(human["id"]) in p for m, p, _ in fake.writes())


def test_pr_comment_two_existing_comments_converge_to_the_oldest(runner, fake):
    oldest = fake.add_comment(NUMBER, MARKER + "\nold run")
    fake.add_comment(NUMBER, "a human in between", login="alice", kind="User")
    newer = fake.add_comment(NUMBER, MARKER + "\nconcurrent run")
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    [kept] = _ours(fake)
    assert kept["id"] == oldest["id"] and "#### Check" in kept["body"]
    assert newer not in fake.comments(NUMBER)
    assert "1 duplicate(s) removed" in done.stdout


def test_pr_comment_reads_every_page_of_comments(runner, fake):
    fake.faults.page_size = 2
    for n in range(5):
        fake.add_comment(NUMBER, f"chatter {n}", login="alice", kind="User")
    ours = fake.add_comment(NUMBER, MARKER + "\nfrom an earlier push")
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    assert [c["id"] for c in _ours(fake)] == [ours["id"]]
    assert any("page=3" in path for method, path, _ in fake.state.log if method == "GET")
    assert not any(method == "POST" for method, _, _ in fake.writes())


def test_pr_comment_read_only_token_warns_and_still_writes_summary_and_outputs(runner, fake):
    fake.faults.read_only = True
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    assert "::warning::gitcontext: the token cannot write comments here" in done.stdout
    assert not fake.comments(NUMBER)
    assert "#### Instruction changes" in runner.summary.read_text()
    outputs = runner.outputs()
    assert outputs["comment-url"] == "" and int(outputs["findings"]) >= 2
    assert "Never force-push" in open(outputs["markdown-file"], encoding="utf-8").read()
    assert "::error file=CLAUDE.md" in done.stdout


def test_pr_comment_422_for_an_oversize_body_posts_the_minimal_one(runner, fake):
    fake.faults.max_body = 1500
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    [comment] = _ours(fake)
    assert len(comment["body"]) <= 1500
    assert "#### Check" in comment["body"] and "Left out to stay under" in comment["body"]
    assert [m for m, _, _ in fake.writes()] == ["POST", "POST"]


def test_pr_comment_429_waits_retry_after_then_succeeds(runner, fake):
    import time

    fake.faults.rate_limit, fake.faults.retry_after = 1, "1"
    start = time.monotonic()
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start >= 1.0
    assert len(_ours(fake)) == 1


def test_pr_comment_secondary_rate_limit_and_a_transient_502_are_retried(runner, fake):
    fake.faults.secondary, fake.faults.retry_after, fake.faults.bad_gateway = 1, "0", 1
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    assert len(_ours(fake)) == 1


def test_pr_comment_retry_after_past_the_bound_fails_without_waiting(runner, fake):
    fake.faults.rate_limit, fake.faults.retry_after = 5, "3600"
    done = runner.run("pr-comment")
    assert done.returncode == 3 and "429" in done.stderr
    assert runner.outputs()["findings"]  # outputs are written even so
    assert "#### Check" in runner.summary.read_text()


def test_pr_comment_other_4xx_is_not_retried(runner, fake):
    runner.env["GITHUB_TOKEN"] = "wrong"
    done = runner.run("pr-comment")
    assert done.returncode == 3 and "401" in done.stderr
    assert len(fake.state.log) == 1


def test_pr_comment_input_comment_false_writes_no_comment(runner, fake):
    done = runner.run("pr-comment", GITCONTEXT_COMMENT="false")
    assert done.returncode == 0, done.stderr
    assert fake.state.log == [] and runner.summary.read_text()


def test_pr_comment_fail_on_error_exits_1_on_a_missing_why(runner, fake):
    done = runner.run("pr-comment", GITCONTEXT_FAIL_ON="error")
    assert done.returncode == 1, done.stderr
    assert len(_ours(fake)) == 1


def test_pr_comment_concurrent_runs_converge_to_one(runner, fake):
    import subprocess
    import sys

    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "gitcontext", "github", "pr-comment"],
            cwd=runner.repo,
            env=runner.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    assert [p.wait(120) for p in procs] == [0, 0]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    first = min(c["id"] for c in _ours(fake))
    assert runner.run("pr-comment").returncode == 0
    assert [c["id"] for c in _ours(fake)] == [first]


HOSTILE_RULE = (
    "- Ping @octocat and &#64;admin <img src=x onerror=alert(1)> see [docs](https://evil.example) "
    "<!-- gitcontext:pr-comment v1 --> `x`` `\n"
)


def test_pr_comment_hostile_instruction_text_is_inert(repo, tmp_path, fake):
    import re

    base, head = pull_request_repo(
        repo,
        RULES + HOSTILE_RULE,
        {"docs/@team <b>.md": "x\n"},
        message="@octocat <script> subject\n\nContext-Why: ping @admin <img src=y> &#64;x https://evil.example",
    )
    runner = make_runner(repo, tmp_path, fake, base, head)
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    [comment] = _ours(fake)
    body = comment["body"]
    assert body.count(MARKER) == 1 and body.startswith(MARKER)
    assert "gitcontext:pr-comment" not in body[len(MARKER) :]
    assert not re.search(r"(?<![\w`])@[A-Za-z0-9]", body)
    assert "<img" not in body and "<b>" not in body and "<script" not in body
    assert "why: ping @\u2060admin" in body and "“@\u2060octocat &lt;script&gt; subject”" in body
    assert "](https://evil" not in body and "https://evil" not in body
    links = re.findall(r"\]\(([^)]*)\)", body)
    assert links and all(link.startswith(f"https://github.com/octo/repo/blob/{head}/") for link in links)
    summary = runner.summary.read_text()
    assert not re.search(r"(?<![\w`])@[A-Za-z0-9]", summary) and "<img" not in summary


def test_pr_comment_oversize_report_drops_whole_sections_with_a_note(repo, tmp_path, fake):
    long = "Always check the {n} service configuration before deploying " + "carefully " * 30
    files = {
        name: "# Rules\n\n" + "".join(f"- {long.format(n=f'{name}-{i}')}\n" for i in range(70))
        for name in ("AGENTS.md", "GEMINI.md", "docs/CLAUDE.md")
    }
    base, head = pull_request_repo(repo, RULES, files)
    runner = make_runner(repo, tmp_path, fake, base, head)
    done = runner.run("pr-comment")
    assert done.returncode == 0, done.stderr
    [comment] = _ours(fake)
    body = comment["body"]
    assert len(body.encode("utf-16-le")) // 2 <= 65536
    assert "Left out to stay under GitHub's 65,536-character limit" in body
    assert "#### Check" in body and "#### Blast radius" not in body
    full = open(runner.outputs()["markdown-file"], encoding="utf-8").read()
    assert "#### Blast radius" in full and len(full) > 65536


def test_pr_comment_two_workflow_variant_posts_a_report_from_an_untrusted_run(repo, tmp_path, fake):
    base, head = pull_request_repo(repo, CHANGED)
    untrusted = make_runner(repo, tmp_path, fake, base, head)
    report = tmp_path / "report.json"
    done = untrusted.run("pr-comment", "--report-out", str(report), GITCONTEXT_COMMENT="false", GITHUB_TOKEN="")
    assert done.returncode == 0, done.stderr
    assert fake.state.log == []
    fake.state.pulls[NUMBER] = {"number": NUMBER, "head": {"sha": head}}
    event = {"workflow_run": {"head_sha": head, "event": "pull_request", "pull_requests": []}}
    privileged = make_runner(repo, tmp_path, fake, base, head, event=event)
    done = privileged.run("pr-comment", "--from-report", str(report), GITHUB_EVENT_NAME="workflow_run")
    assert done.returncode == 0, done.stderr
    [comment] = _ours(fake)
    assert "Never force-push" in comment["body"]
    # a report that names another pull request (or another commit) is refused
    fake.state.pulls[NUMBER]["head"]["sha"] = "b" * 40
    done = privileged.run("pr-comment", "--from-report", str(report), GITHUB_EVENT_NAME="workflow_run")
    assert done.returncode == 2 and "is not at" in done.stderr
    data = json.loads(report.read_text())
    data["changes"][0]["text"] = "@octocat <img src=x>"
    report.write_text(json.dumps(data))
    fake.state.pulls[NUMBER]["head"]["sha"] = head
    done = privileged.run("pr-comment", "--from-report", str(report), GITHUB_EVENT_NAME="workflow_run")
    assert done.returncode == 0, done.stderr
    [comment] = _ours(fake)
    assert "@octocat" not in comment["body"] and "<img" not in comment["body"]


def test_pr_comment_from_report_refuses_a_forged_shape(repo, tmp_path, fake):
    base, head = pull_request_repo(repo, CHANGED)
    report = tmp_path / "report.json"
    untrusted = make_runner(repo, tmp_path, fake, base, head)
    assert untrusted.run("pr-comment", "--report-out", str(report), GITCONTEXT_COMMENT="false").returncode == 0
    data = json.loads(report.read_text())
    data["base"] = "`@everyone <img>`"
    report.write_text(json.dumps(data))
    event = {"workflow_run": {"head_sha": head, "event": "pull_request"}}
    privileged = make_runner(repo, tmp_path, fake, base, head, event=event)
    done = privileged.run("pr-comment", "--from-report", str(report))
    assert done.returncode == 2 and "'base' is not a commit sha" in done.stderr
    assert fake.comments(NUMBER) == []


def test_pr_comment_shallow_checkout_says_fetch_depth_in_the_summary(repo, tmp_path, fake):
    from tests.helpers import git

    base, head = pull_request_repo(repo, CHANGED)
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{repo}", str(clone))
    runner = make_runner(clone, tmp_path, fake, "f" * 40, head)
    done = runner.run("pr-comment")
    assert done.returncode == 3 and "fetch-depth: 0" in done.stderr
    assert "fetch-depth: 0" in runner.summary.read_text()
    assert runner.outputs()["findings"] == "" and fake.state.log == []


@pytest.mark.parametrize("level", ["never", "none"])  # `none`: the Action's old spelling, still accepted
def test_pr_comment_fail_on_never_passes_a_missing_why(runner, level):
    done = runner.run("pr-comment", GITCONTEXT_FAIL_ON=level)
    assert done.returncode == 0, done.stderr


def test_pr_comment_fail_on_an_unknown_level_is_a_clear_error(runner):
    done = runner.run("pr-comment", GITCONTEXT_FAIL_ON="sometimes")
    assert done.returncode == 2 and "fail-on must be never, note, warning or error" in done.stderr


def test_pr_comment_local_prints_the_comment_for_the_branch_without_an_event(repo):
    import subprocess
    import sys

    from tests.helpers import commit, git

    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before pushing.\n"}, "rules")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before pushing.\n- Never force-push to main.\n"}, "more")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GITCONTEXT_"))}
    done = subprocess.run(
        [sys.executable, "-m", "gitcontext", "github", "pr-comment", "--local"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(MARKER) and "Never force-push to main." in done.stdout
    assert "**no why yet**" in done.stdout and "local dry run" in done.stdout
    wrong = subprocess.run(
        [sys.executable, "-m", "gitcontext", "github", "pr-comment", "--base", "main"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    assert wrong.returncode == 2 and "--base goes with --local" in wrong.stderr


def test_pr_comment_local_lists_each_tree_once_and_the_work_tree_once(repo, tmp_path):
    """The check, the radius and the audit share one session: each commit's tree is listed once (not
    once per feature), and the work tree once (the radius's index listing serves the audit too)."""
    import subprocess
    import sys

    from tests.helpers import commit, git

    notes = {".context/notes/ctx-0123456789ab.jsonl": ""}
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before pushing.\n", "app.py": "x = 1\n", **notes}, "rules")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before pushing.\n- Never force-push.\n"}, "more")
    trace = tmp_path / "trace"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GITCONTEXT_"))}
    done = subprocess.run(
        [sys.executable, "-m", "gitcontext", "github", "pr-comment", "--local", "--base", "main"],
        cwd=repo,
        env={**env, "GIT_TRACE": str(trace)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = trace.read_text().splitlines()
    trees = [line.split("--end-of-options ")[1] for line in lines if "built-in: git ls-tree" in line]
    assert len(trees) == len(set(trees)) == 2, trees
    assert len([line for line in lines if "built-in: git ls-files" in line]) == 1


def test_pr_comment_a_rule_deleted_by_hand_says_how_it_comes_back(repo, capsys):
    """Issue 29: the comment said "no restore quote recorded (removed without `git context retire`)"
    for a documented rule deleted by hand, though `sync` writes its `retired` event with a quote from the
    hook's `Context-Id: <id> retired` line and `restore` then works. Such a rule shows the quote sync
    writes (cut from the base) and says sync first; a rule with no note, or removed without the hooks
    (no trailer retires its note), says that restore cannot bring it back."""
    from gitcontext import config
    from gitcontext.github.render import Links, changes
    from gitcontext.github.report import build
    from gitcontext.provenance.record import record
    from tests.helpers import commit, git, run_cli

    commit(repo, {"CLAUDE.md": RULES}, "rules")
    record(repo, config.load(repo), "Use tabs for indentation", why="gofmt diffs in review, #9")
    record(repo, config.load(repo), "Keep functions under 30 lines", why="80-line handlers in review, #3")
    git(repo, "add", ".context")
    base = commit(repo, {}, "notes")
    tabs, short = (next(c for c in run_cli_ls(capsys) if c["text"].startswith(t))["id"] for t in ("Use", "Keep"))
    git(repo, "checkout", "-q", "-b", "feature")
    gone = RULES.replace("- Use tabs for indentation in Go files.\n", "").replace(
        "- Run the tests before pushing.\n", ""
    )
    hooked = f"drop two rules\n\nContext-Id: {tabs} retired"
    commit(repo, {"CLAUDE.md": gone}, hooked)
    head = commit(repo, {"CLAUDE.md": gone.replace("- Keep functions under 30 lines in `app.py`.\n", "")}, "no hooks")

    facts = build(repo, base, head)
    lines = changes(facts, Links("https://github.com", "octo/repo", head)).splitlines()
    said = {t: next(n for n, line in enumerate(lines) if t in line) for t in ("Use tabs", "Run the tests", "Keep")}
    assert (
        "`git context sync`" in lines[said["Use tabs"]]
        and f"then `git context restore {tabs}`" in lines[said["Use tabs"]]
    )
    assert lines[said["Use tabs"] + 1].endswith("<pre>- Use tabs for indentation in Go files.</pre></details>")
    assert "no note, so `git context restore` cannot bring it back" in lines[said["Run the tests"]]
    assert "removed without the hooks: its note still reads live" in lines[said["Keep"]]
    assert not any("without `git context retire`" in line for line in lines)

    assert run_cli(capsys, "sync")[0] == 0
    assert run_cli(capsys, "restore", tabs)[0] == 0  # what the comment says works
    assert "- Use tabs for indentation in Go files." in (repo / "CLAUDE.md").read_text()
    assert run_cli(capsys, "restore", short)[0] != 0  # and what it says does not


def run_cli_ls(capsys) -> list[dict]:
    from tests.helpers import run_json

    return run_json(capsys, "ls")["instructions"]
