"""Every path that stores text goes through the redactor: one secret of each class sent end to end through
the CLI in a real repository, and the bytes gitcontext keeps (`.context/`, `.git/gitcontext/`) checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext.provenance.redact import MARK
from tests.helpers import commit, run_cli, run_json
from tests.provenance.redaction.corpus import Secret, by_format
from tests.provenance.redaction.stores import RULES, kept

# One secret of each class, in forms that fit on one line (a trailer, a rule, a command-line value).
ONE_OF_EACH: list[Secret] = [
    by_format(name)
    for name in (
        "github-classic-pat",  # vendor
        "redis-password-only",  # connection-string
        "env-api-key",  # assignment
        "authorization-token-scheme",  # header
        "docker-config-auth",  # basic-pair
        "pem-pkcs8-json",  # private-key (escaped newlines)
        "jwt-hs256",  # jwt
    )
]
SECRETS = " ;; ".join(row.text for row in ONE_OF_EACH)


def _assert_no_secret(repo: Path) -> None:
    """No secret (nor any drawn part of one) is kept, and each was replaced by a marker."""
    stored = kept(repo)
    assert stored.count(MARK.encode()) >= len(ONE_OF_EACH)
    for row in ONE_OF_EACH:
        for part in (row.secret, *row.random):
            assert part.encode() not in stored, (row.format, part)


@pytest.mark.parametrize(
    "args",
    [
        ["record", "uv for installs", "--why", f"leaked: {SECRETS}", "--failure", f"log: {SECRETS}"],
        ["record", "uv for installs", "--why", "pinned", "--ref", f"https://ci.example.com/run?token={SECRETS}"],
        ["recur", "uv for installs", "--failure", f"again {SECRETS}", "--evidence", f"run {SECRETS}"],
        ["falsified", "uv for installs", "--attempt", f"pip with {SECRETS}", "--outcome", f"failed: {SECRETS}"],
        ["verify", "uv for installs", "--how", f"checked with {SECRETS}"],
        ["link", "uv for installs", "--owner", f"bot {SECRETS}"],
    ],
    ids=["record", "record-ref", "recur", "falsified", "verify-how", "link-owner"],
)
def test_paths_note_commands_redact_every_class(store, capsys, args):
    run_cli(capsys, *args)
    _assert_no_secret(store)


def test_paths_verify_run_output_is_redacted(store, capsys, tmp_path):
    script = tmp_path / "leak.sh"
    script.write_text("".join(f"echo '{row.text}'\n" for row in ONE_OF_EACH) + "exit 1\n")
    run_cli(capsys, "verify", "uv for installs", "--run", f"sh {script}")
    _assert_no_secret(store)


def test_paths_trailers_and_sync_redact_every_class(store, capsys):
    trailers = "\n".join(f"Context-Failure: {row.text}" for row in ONE_OF_EACH)
    commit(
        store, {"CLAUDE.md": RULES + "- Rotate keys monthly.\n"}, f"Add a rule\n\nContext-Why: {SECRETS}\n{trailers}"
    )
    assert run_cli(capsys, "sync")[0] == 0
    _assert_no_secret(store)


def test_paths_triage_record_redacts_the_excerpt_and_the_source(store, capsys, tmp_path):
    failure = "ModuleNotFoundError: No module named 'uvloop' while importing app.server"
    assert run_cli(capsys, "record", "uv for installs", "--why", "uvloop needs uv", "--failure", failure)[0] == 0
    log = tmp_path / "ci.log"
    log.write_text("".join(f"{failure} {row.text}\n" for row in ONE_OF_EACH))
    run_cli(capsys, "triage", str(log), "--record", "--source", f"run {SECRETS}")
    notes = "".join(p.read_text() for p in (store / ".context/notes").glob("ctx-*.jsonl"))
    assert '"kind":"recurred"' in notes.replace(" ", "")
    _assert_no_secret(store)


def test_paths_retire_restore_quote_and_journal_hold_no_secret(store, capsys):
    rule = f"- Call the API with {SECRETS} in CI.\n"
    commit(store, {"CLAUDE.md": RULES + rule}, "secret rule")
    code, _, err = run_cli(capsys, "retire", "Call the API", "--reason", f"rotated {SECRETS}")
    assert code == 0 and "redacted" in err
    _assert_no_secret(store)
    ident = next(p.stem for p in (store / ".context/notes").glob("ctx-*.jsonl") if "Call the API" in p.read_text())
    assert run_cli(capsys, "restore", ident)[0] == 0
    assert (store / "CLAUDE.md").read_text() == RULES + rule  # byte-exact from history


def test_paths_rulings_and_asks_redact_every_class(store, capsys):
    code, _, _ = run_cli(
        capsys,
        "ruling",
        "add",
        "--topic",
        "deploy-keys",
        "--summary",
        f"Rotate all of these now: {SECRETS}",
        "--source",
        f"incident channel {SECRETS}",
    )
    assert code == 0
    assert run_cli(capsys, "ask", "propose", "--topic", "ci-keys", "--question", f"May CI use {SECRETS}?")[0] == 0
    _assert_no_secret(store)


def test_paths_trial_output_and_command_redact_every_class(store, capsys, tmp_path):
    script = tmp_path / "leak.sh"
    script.write_text("".join(f"echo '{row.text}'\n" for row in ONE_OF_EACH) + "exit 1\n")
    run_cli(capsys, "trial", "uv for installs", "--run", f"sh {script} # {SECRETS}", "--runs", "1")
    notes = "".join(p.read_text() for p in (store / ".context/notes").glob("ctx-*.jsonl"))
    assert '"kind":"trialled"' in notes.replace(" ", "")
    _assert_no_secret(store)


def test_paths_suggest_redacts_every_class(repo, capsys):
    """A suggested why comes from the commit that wrote the rule: the commit's text passes the redactor
    before it reaches .context/suggestions.jsonl."""
    commit(repo, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    body = "\n".join(row.text for row in ONE_OF_EACH)
    commit(repo, {"CLAUDE.md": RULES + "- Rotate keys monthly.\n"}, f"Rotate keys (#12)\n\nCI broke twice: {body}")
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    code, out, err = run_cli(capsys, "suggest")
    assert code == 0 and "1 new written" in out, out + err
    _assert_no_secret(repo)


def test_paths_hook_error_log_is_redacted(repo):
    from gitcontext.hooks.runner import report_error

    gitdir = repo / ".git"
    report_error("pre-commit", gitdir, None, RuntimeError(f"boom with {SECRETS}"))
    _assert_no_secret(repo)


def test_paths_restore_says_so_when_history_lacks_the_redacted_bytes(store, capsys):
    token = by_format("github-classic-pat").secret
    (store / "CLAUDE.md").write_text(RULES + f"- Call the API with {token} in CI.\n")  # never committed
    assert run_cli(capsys, "retire", "Call the API", "--reason", "rotated")[0] == 0
    ident = next(p.stem for p in (store / ".context/notes").glob("ctx-*.jsonl") if "Call the API" in p.read_text())
    code, _, err = run_cli(capsys, "restore", ident)
    assert code == 0 and "no longer has its exact bytes" in err
    assert "[REDACTED:github-token]" in (store / "CLAUDE.md").read_text()
    assert run_json(capsys, "show", ident)["status"] != "retired"
