"""`ruling` and `ask` as a user runs them, in a real repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli, write


@pytest.fixture
def ledger_repo(repo: Path) -> Path:
    commit(repo, {"README.md": "x\n"}, "init")
    return repo


def add(capsys, *args: str) -> str:
    code, out, err = run_cli(capsys, "ruling", "add", *args, "--json")
    assert code == 0, err
    return json.loads(out)["id"]


def test_ruling_add_refuses_short_summary_bad_topic_unknown_supersede(ledger_repo, capsys):
    code, _, err = run_cli(
        capsys, "ruling", "add", "--topic", "Footer Content", "--summary", "x" * 30, "--source", "review"
    )
    assert code == 2 and "use --topic footer-content" in err
    code, _, err = run_cli(capsys, "ruling", "add", "--topic", "footer", "--summary", "too short", "--source", "r")
    assert code == 2 and "at least 20" in err
    code, _, err = run_cli(
        capsys, "ruling", "add", "--topic", "footer", "--summary", "x" * 30, "--source", "r", "--supersedes", "R-nope"
    )
    assert code == 2 and "R-nope" in err
    assert not (ledger_repo / ".context" / "rulings.jsonl").exists()


def test_ruling_add_refuses_a_reused_id(ledger_repo, capsys):
    add(capsys, "--topic", "ci", "--summary", "CI runs on every push to main", "--source", "standup", "--id", "R-12")
    code, _, err = run_cli(
        capsys,
        "ruling",
        "add",
        "--topic",
        "ci",
        "--summary",
        "CI runs on every pull request",
        "--source",
        "standup",
        "--id",
        "R-12",
    )
    assert code == 2 and "never reused" in err
    lines = (ledger_repo / ".context" / "rulings.jsonl").read_text().splitlines()
    assert len(lines) == 1


def test_ruling_lookup_supersede_chain_newest_first(ledger_repo, capsys, monkeypatch):
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-01T10:00:00Z")
    yes = add(capsys, "--topic", "dark-mode", "--summary", "Ship dark mode in the November release", "--source", "o")
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-05T10:00:00Z")
    no = add(
        capsys,
        "--topic",
        "dark-mode",
        "--summary",
        "Do not ship dark mode until contrast is fixed",
        "--source",
        "owner",
        "--supersedes",
        yes,
    )
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-12T10:00:00Z")
    yes2 = add(
        capsys,
        "--topic",
        "dark-mode",
        "--summary",
        "Ship dark mode again: contrast fixed in #88",
        "--source",
        "owner",
        "--supersedes",
        no,
    )
    code, out, _ = run_cli(capsys, "ruling", "lookup", "dark-modes", "--json")
    rows = json.loads(out)["rulings"]
    assert [r["id"] for r in rows] == [yes2, no, yes]
    assert rows[0]["superseded_by"] == [] and rows[1]["superseded_by"] == [yes2] and rows[2]["superseded_by"] == [no]
    _, text, _ = run_cli(capsys, "ruling", "lookup", "dark-mode")
    assert text.index(yes2) < text.index(no) and f"SUPERSEDED by {yes2}" in text
    _, listed, _ = run_cli(capsys, "ruling", "list")
    assert yes2 in listed and f"{no}  " not in listed
    _, everything, _ = run_cli(capsys, "ruling", "list", "--all")
    assert f"{no}  " in everything and f"{yes}  " in everything


def test_ruling_require_current_superseded_and_topic(ledger_repo, capsys):
    old = add(capsys, "--topic", "deploys", "--summary", "Deploys need a second approver", "--source", "o")
    new = add(
        capsys,
        "--topic",
        "deploys",
        "--summary",
        "Deploys need one approver and a green canary",
        "--source",
        "o",
        "--supersedes",
        old,
    )
    assert run_cli(capsys, "ruling", "require", new, "--topic", "deploy")[0] == 0  # plural folded
    code, _, err = run_cli(capsys, "ruling", "require", old, "--topic", "deploys")
    assert code == 1 and f"superseded by {new}" in err
    code, _, err = run_cli(capsys, "ruling", "require", new, "--topic", "billing")
    assert code == 1 and "does not carry the topic billing" in err
    code, _, err = run_cli(capsys, "ruling", "require", "R-missing", "--topic", "deploys")
    assert code == 1 and "no ruling R-missing" in err


def test_ask_propose_refused_then_accepted_with_reason(ledger_repo, capsys):
    rid = add(
        capsys,
        "--topic",
        "footer-content",
        "--summary",
        "The footer shows the copyright line only",
        "--source",
        "review of #40",
    )
    code, _, err = run_cli(
        capsys, "ask", "propose", "--topic", "footer-contents", "--question", "May the footer show our postal address?"
    )
    assert code == 1 and rid in err and "review of #40" in err and "--reask-reason" in err
    assert not (ledger_repo / ".context" / "asks.jsonl").exists()
    code, _, err = run_cli(
        capsys,
        "ask",
        "propose",
        "--topic",
        "footer-contents",
        "--question",
        "May the footer show our postal address?",
        "--reask-reason",
        "too short",
    )
    assert code == 2
    code, out, _ = run_cli(
        capsys,
        "ask",
        "propose",
        "--topic",
        "footer-contents",
        "--question",
        "May the footer show our postal address?",
        "--reask-reason",
        "legal now requires the address on every page",
        "--json",
    )
    assert code == 0
    aid = json.loads(out)["id"]
    _, listed, _ = run_cli(capsys, "ask", "list", "--open")
    assert aid in listed and "re-asked because: legal now requires" in listed and "open 0d" in listed


def test_ask_alias_counts_for_refusal(ledger_repo, capsys):
    write(ledger_repo, ".context/config.yml", "rulings:\n  aliases:\n    footer-content: [site-footer]\n")
    add(capsys, "--topic", "footer-content", "--summary", "The footer shows the copyright line only", "--source", "o")
    code, _, err = run_cli(capsys, "ask", "propose", "--topic", "site-footer", "--question", "Footer address, ok?")
    assert code == 1 and "footer-content" in err


def test_ask_answer_withdraw_revise_are_new_lines(ledger_repo, capsys):
    _, out, _ = run_cli(
        capsys, "ask", "propose", "--topic", "arm-runners", "--question", "May CI move to ARM runners?", "--json"
    )
    aid = json.loads(out)["id"]
    assert run_cli(capsys, "ask", "revise", aid, "--question", "May CI move to ARM runners this quarter?")[0] == 0
    code, out, _ = run_cli(
        capsys,
        "ruling",
        "add",
        "--topic",
        "arm-runners",
        "--summary",
        "CI moves to ARM runners in Q1",
        "--source",
        "owner",
        "--answers",
        aid,
        "--json",
    )
    assert code == 0
    lines = [json.loads(x) for x in (ledger_repo / ".context" / "asks.jsonl").read_text().splitlines()]
    assert [(x["id"], x["status"]) for x in lines] == [(aid, "open"), (aid, "open"), (aid, "answered")]
    assert lines[1]["question"].endswith("this quarter?") and lines[0]["question"].endswith("runners?")
    code, _, err = run_cli(capsys, "ask", "withdraw", aid, "--reason", "answered already")
    assert code == 2 and "answered" in err
    _, out, _ = run_cli(
        capsys, "ask", "propose", "--topic", "release-notes", "--question", "Who writes the release notes?", "--json"
    )
    other = json.loads(out)["id"]
    assert run_cli(capsys, "ask", "withdraw", other, "--reason", "the release script writes them")[0] == 0
    _, listed, _ = run_cli(capsys, "ask", "list")
    assert "withdrawn: the release script writes them" in listed


def test_ruling_digest_within_budget_newest_first(ledger_repo, capsys, monkeypatch):
    ids = []
    for day in range(1, 21):
        monkeypatch.setenv("GITCONTEXT_NOW", f"2026-10-{day:02d}T09:00:00Z")
        ids.append(
            add(
                capsys,
                "--topic",
                f"topic-{day}",
                "--summary",
                f"Decision number {day} for the team",
                "--source",
                "weekly review",
            )
        )
    _, out, _ = run_cli(capsys, "ruling", "digest", "--budget", "100", "--json")
    data = json.loads(out)
    kept = [r["id"] for r in data["rulings"]]
    assert kept == ids[::-1][: len(kept)] and 0 < len(kept) < 20 and data["omitted"] == 20 - len(kept)
    _, text, _ = run_cli(capsys, "ruling", "digest", "--budget", "100")
    body = [line for line in text.splitlines() if not line.startswith("…")]
    assert sum((len(line.encode()) + 1 + 3) // 4 for line in body) <= 100 + len(body)
    assert "older current ruling(s) over the budget" in text


def test_ruling_show_and_bad_ledger_line(ledger_repo, capsys):
    rid = add(capsys, "--topic", "ci", "--summary", "CI runs on every push to main", "--source", "standup")
    _, out, _ = run_cli(capsys, "ruling", "show", rid)
    assert "standup" in out
    with open(ledger_repo / ".context" / "rulings.jsonl", "a") as fh:
        fh.write('{"v":1,"id":"R-x","topics":{},"ruled_at":"now"}\n')
    code, _, err = run_cli(capsys, "ruling", "list")
    assert code == 2 and ".context/rulings.jsonl:2" in err


def test_context_ruling_trailer_synced_once(ledger_repo, capsys):
    rid = add(capsys, "--topic", "ci-runners", "--summary", "CI runs on x86 runners only", "--source", "o")
    git(ledger_repo, "add", ".context")
    sha = commit(
        ledger_repo,
        {"ci.yml": "arm\n"},
        f"Move CI to ARM\n\nContext-Ruling: ci-runners, arm: CI runs on ARM runners from now on (supersedes {rid})\n",
    )
    for _ in range(2):
        assert run_cli(capsys, "sync")[0] == 0
    code, out, _ = run_cli(capsys, "ruling", "lookup", "ci-runners", "--json")
    rows = json.loads(out)["rulings"]
    assert [r["id"] for r in rows] == [f"R-{sha[:8]}", rid]
    assert rows[0]["source"].startswith(f"commit {sha[:12]}: Move CI to ARM") and rows[1]["superseded_by"]


def _add_in_child(root: str, n: int) -> None:
    import os

    from gitcontext.cli.main import main

    os.chdir(root)
    raise SystemExit(
        main(
            ["ruling", "add", "--topic", f"topic-{n}", "--summary", f"Decision number {n} for all", "--source", "burst"]
        )
    )


def test_ruling_add_concurrent_writers_lose_nothing(ledger_repo):
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    children = [ctx.Process(target=_add_in_child, args=(str(ledger_repo), n)) for n in range(12)]
    for child in children:
        child.start()
    for child in children:
        child.join(60)
        assert child.exitcode == 0
    lines = (ledger_repo / ".context" / "rulings.jsonl").read_text().splitlines()
    assert len(lines) == 12 and len({json.loads(x)["id"] for x in lines}) == 12
    assert not [p for p in (ledger_repo / ".context").iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("hostile", ["fifo", "outside", "dev-zero", "not-utf8"])
def test_ruling_ledger_hostile_file_is_exit_2_quickly(ledger_repo, capsys, tmp_path, hostile):
    """A ledger arrives through any merged pull request: whatever it is, a clear error, no hang, no write."""
    import os

    ledger = ledger_repo / ".context" / "rulings.jsonl"
    ledger.parent.mkdir(exist_ok=True)
    if hostile == "fifo":
        os.mkfifo(ledger)
    elif hostile == "outside":
        (tmp_path / "elsewhere.jsonl").write_text("")
        ledger.symlink_to(tmp_path / "elsewhere.jsonl")
    elif hostile == "dev-zero":
        ledger.symlink_to("/dev/zero")
    else:
        ledger.write_bytes(b'{"v":1,"id":"R-1\xff"}\n')
    for argv in (
        ["ruling", "list"],
        ["ruling", "add", "--topic", "ci", "--summary", "CI runs on every push", "--source", "x"],
    ):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and ".context/rulings.jsonl" in err, (hostile, err)
    if hostile == "outside":
        assert (tmp_path / "elsewhere.jsonl").read_text() == ""
