"""The one redactor, measured on its corpus, and a secret sent through every path that writes a note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.provenance.redact import redact
from tests.helpers import commit, git, run_cli, run_json

CORPUS = Path(__file__).parent / "redaction"
SECRETS = [json.loads(line) for line in (CORPUS / "secrets.jsonl").read_text().splitlines()]
ORDINARY = [json.loads(line)["text"] for line in (CORPUS / "ordinary.jsonl").read_text().splitlines()]


def test_corpus_has_the_formats_the_attack_used():
    assert len({row["format"] for row in SECRETS}) >= 47
    assert len(ORDINARY) >= 40


@pytest.mark.parametrize("row", SECRETS, ids=[row["format"] for row in SECRETS])
def test_redact_catches_each_secret_format(row):
    result = redact(row["text"])
    assert row["secret"] not in result.text and result.labels
    assert redact(result.text).text == result.text  # redacting twice changes nothing


def test_redact_changes_at_most_one_in_forty_ordinary_messages():
    changed = [text for text in ORDINARY if redact(text).text != text]
    assert len(changed) * 40 <= len(ORDINARY), changed


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_redact_is_idempotent_and_total(text):
    once = redact(text).text
    assert redact(once).text == once


# ---- every write path ----------------------------------------------------------------------------

SECRET = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dcXYZabc"
TOKEN = "ghp_" + "R2d2C3poBB8ELukeLeia0123456789abcdEF"
RULES = "# Rules\n\n- Use uv for installs.\n- Deploy with the bot token only.\n"


@pytest.fixture
def store(repo: Path, capsys) -> Path:
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    return repo


def _stored(repo: Path) -> bytes:
    """Every byte gitcontext keeps: the notes, its config and everything under .git/gitcontext/."""
    data = b""
    for folder in (repo / ".context", repo / ".git" / "gitcontext"):
        for path in sorted(folder.rglob("*")) if folder.exists() else []:
            if path.is_file():
                data += path.read_bytes()
    return data


@pytest.mark.parametrize(
    "args",
    [
        ["record", "uv for installs", "--why", f"the key {SECRET} leaked", "--failure", f"Bearer {TOKEN}x9"],
        ["record", "uv for installs", "--why", "pinned", "--ref", f"https://ci.example.com/run?token={TOKEN}"],
        ["recur", "uv for installs", "--failure", f"stripe said {SECRET}", "--evidence", f"log: {TOKEN}"],
        ["falsified", "uv for installs", "--attempt", f"pip with {TOKEN}", "--outcome", f"DB_PASSWORD={SECRET}"],
        ["verify", "uv for installs", "--run", f"echo STRIPE_KEY={SECRET}; echo {TOKEN}; exit 1"],
        ["verify", "uv for installs", "--how", f"checked with {TOKEN}"],
        ["link", "uv for installs", "--ref", f"postgres://app:{SECRET}@db/app", "--owner", f"bot {TOKEN}"],
    ],
)
def test_no_secret_reaches_a_note_through_any_command(store, capsys, args):
    run_cli(capsys, *args)
    kept = _stored(store)
    assert kept and SECRET.encode() not in kept and TOKEN.encode() not in kept
    assert b"[REDACTED:" in kept


def test_no_secret_reaches_a_note_through_trailers_and_sync(store, capsys):
    git(store, "add", ".")
    git(store, "commit", "-q", "-m", "init")
    commit(
        store,
        {"CLAUDE.md": RULES + "- Rotate keys monthly.\n"},
        f"Add a rule\n\nContext-Why: {SECRET} was pasted in a PR\nContext-Failure: token {TOKEN} leaked",
    )
    assert run_cli(capsys, "sync")[0] == 0
    kept = _stored(store)
    assert b"[REDACTED:" in kept and SECRET.encode() not in kept and TOKEN.encode() not in kept


def test_retire_keeps_secrets_out_of_the_note_and_restore_is_byte_exact_from_history(store, capsys):
    text = RULES + f"- Call the API with {TOKEN} in CI.\n"
    commit(store, {"CLAUDE.md": text}, "token rule")
    code, _, err = run_cli(capsys, "retire", "Call the API", "--reason", f"rotated {SECRET}")
    assert code == 0 and "github-token" in err
    kept = _stored(store)
    assert TOKEN.encode() not in kept and SECRET.encode() not in kept
    ident = next(p.stem for p in (store / ".context/notes").glob("ctx-*.jsonl"))
    code, out, err = run_cli(capsys, "restore", ident)
    assert code == 0 and "warning" not in err
    assert (store / "CLAUDE.md").read_text() == text


def test_restore_says_so_when_history_lacks_the_redacted_bytes(store, capsys):
    (store / "CLAUDE.md").write_text(RULES + f"- Call the API with {TOKEN} in CI.\n")  # never committed
    assert run_cli(capsys, "retire", "Call the API", "--reason", "rotated")[0] == 0
    ident = next(p.stem for p in (store / ".context/notes").glob("ctx-*.jsonl"))
    code, _, err = run_cli(capsys, "restore", ident)
    assert code == 0 and "no longer has its exact bytes" in err
    assert "[REDACTED:github-token]" in (store / "CLAUDE.md").read_text()
    assert run_json(capsys, "show", ident)["status"] != "retired"


def test_hook_error_log_is_redacted(repo):
    from gitcontext.hooks.runner import report_error

    gitdir = repo / ".git"
    report_error("pre-commit", gitdir, None, RuntimeError(f"boom with {TOKEN}"))
    assert TOKEN not in (gitdir / "gitcontext" / "hook-errors.log").read_text()
