"""identify: current instructions mapped to notes (exact, normalized, moved, reworded), else fresh ids."""

from __future__ import annotations

import copy

from gitcontext.config import DEFAULTS
from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.segment import segment
from gitcontext.provenance.events import new_event
from gitcontext.provenance.resolve import identify
from gitcontext.provenance.store import append_events

A, B = "ctx-aaaaaaaaaaaa", "ctx-bbbbbbbbbbbb"


def _note(repo, id, file, text, why="because", at="2026-11-01T00:00:00Z"):
    append_events(repo, [new_event("added", id, "cli", at=at, file=file, text=text, why=why)])


def _files(**texts):
    return {name.replace("_", "."): segment(text, name.replace("_", ".")) for name, text in texts.items()}


def test_identify_matches_exact_normalized_moved_and_reworded(repo, monkeypatch):
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-29T00:00:00Z")
    _note(repo, A, "CLAUDE.md", "Use uv for every install.")
    _note(repo, B, "CLAUDE.md", "Never push directly to the main branch.")
    config = copy.deepcopy(DEFAULTS)
    same = identify(
        repo, config, _files(CLAUDE_md="- use **uv** for every install\n- Never push directly to the main branch.\n")
    )
    assert same == {("CLAUDE.md", 0): (A, "documented"), ("CLAUDE.md", 1): (B, "documented")}
    moved = identify(
        repo,
        config,
        _files(
            CLAUDE_md="- Keep PRs small.\n",
            AGENTS_md="- Use uv for every install.\n- Never push directly to the main branch, ever.\n",
        ),
    )
    assert moved[("AGENTS.md", 0)] == (A, "documented")
    assert moved[("AGENTS.md", 1)] == (B, "stale")  # reworded since its rationale was written
    fresh = instruction_id("CLAUDE.md", "keep prs small", {A, B})
    assert moved[("CLAUDE.md", 0)] == (fresh, "orphan")


def test_identify_stale_after_stale_days_and_orphan_without_why(repo, monkeypatch):
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-29T00:00:00Z")
    _note(repo, A, "CLAUDE.md", "Use uv for every install.", at="2026-01-01T00:00:00Z")
    _note(repo, B, "CLAUDE.md", "Keep PRs small.", why=None)
    config = copy.deepcopy(DEFAULTS)
    found = identify(repo, config, _files(CLAUDE_md="- Use uv for every install.\n- Keep PRs small.\n"))
    assert found == {("CLAUDE.md", 0): (A, "stale"), ("CLAUDE.md", 1): (B, "orphan")}
    config["audit"]["stale_days"] = 400
    assert identify(repo, config, _files(CLAUDE_md="- Use uv for every install.\n"))[("CLAUDE.md", 0)] == (
        A,
        "documented",
    )


def test_identify_ignores_retired_notes_and_never_reuses_their_ids(repo):
    text = "Use uv for every install."
    id = instruction_id("CLAUDE.md", "use uv for every install")
    _note(repo, id, "CLAUDE.md", text)
    append_events(repo, [new_event("retired", id, "cli", reason="r", restore={"text": "- " + text + "\n"})])
    found = identify(repo, copy.deepcopy(DEFAULTS), _files(CLAUDE_md="- " + text + "\n"))
    assert found[("CLAUDE.md", 0)][0] not in (id,) and found[("CLAUDE.md", 0)][1] == "orphan"


def test_identify_without_notes_is_deterministic(repo):
    files = _files(CLAUDE_md="- One rule here.\n- One rule here.\n")
    first = identify(repo, copy.deepcopy(DEFAULTS), files)
    assert first == identify(repo, copy.deepcopy(DEFAULTS), files)
    assert first[("CLAUDE.md", 0)][0] != first[("CLAUDE.md", 1)][0]


SECRET_RULE = "Use the staging key sk_live_4eC39HqLyjWDarjtT1zdp7dc for the payment tests."


def test_a_redacted_note_resolves_to_the_line_it_redacts_from_and_to_no_look_alike(repo):
    """Issue 29: a note's text is stored redacted (`[REDACTED:stripe-key]`), so no line equals it; it
    resolves only to a line whose redaction is its text (in its file, else as a move), never by fuzzy
    similarity to another line: `Use the staging key from the vault ...` is a new rule, not this one."""
    _note(repo, A, "CLAUDE.md", SECRET_RULE)
    config = copy.deepcopy(DEFAULTS)
    kept = identify(repo, config, _files(CLAUDE_md=f"- Run the linter.\n- {SECRET_RULE}\n"))
    assert kept[("CLAUDE.md", 1)][0] == A
    moved = identify(repo, config, _files(CLAUDE_md="- Run the linter.\n", AGENTS_md=f"- {SECRET_RULE}\n"))
    assert moved[("AGENTS.md", 0)][0] == A
    look_alike = "Use the staging key from the vault for the payment tests."
    other = identify(repo, config, _files(CLAUDE_md=f"- Run the linter.\n- {look_alike}\n"))
    assert A not in {id for id, _ in other.values()}


def test_an_escaped_note_resolves_to_its_line_by_its_words_never_to_a_look_alike(repo):
    """Issue 29: a note written with escapes (`\\_`, `\\*`: a formatter's output) equals no line written
    plainly; it pairs by its words (formatting.format_key), in its file and as a move, before similarity
    can give it the look-alike next to its line."""
    _note(repo, A, "CLAUDE.md", r"Name private helpers \_like\_this and run `make lint` \*before\* you push.")
    config = copy.deepcopy(DEFAULTS)
    plain = "Name private helpers _like_this and run `make lint` *before* you push."
    look_alike = "Name private helpers _like_this and run `make lint` after you push."
    kept = identify(repo, config, _files(CLAUDE_md=f"- {look_alike}\n- {plain}\n"))
    assert kept[("CLAUDE.md", 1)][0] == A and kept[("CLAUDE.md", 0)][0] != A
    moved = identify(repo, config, _files(CLAUDE_md=f"- {look_alike}\n", AGENTS_md=f"- {plain}\n"))
    assert moved[("AGENTS.md", 0)][0] == A and moved[("CLAUDE.md", 0)][0] != A


def test_a_masked_note_never_resolves_to_a_look_alike_by_similarity(repo):
    """Issue 29: a note whose text masks a value (`xxxx`, `****`) resolves to its own words only; the
    mask is what the look-alikes share, so a line that merely resembles it is a new rule."""
    config = copy.deepcopy(DEFAULTS)
    for n, masked in enumerate(
        ["Export GITHUB_TOKEN=xxxx before you run the release script.", "Log in as admin/****."]
    ):
        id = f"ctx-{n}cccccccccc{n}"
        _note(repo, id, "CLAUDE.md", masked)
        kept = identify(repo, config, _files(CLAUDE_md=f"- Run the linter.\n- {masked}\n"))
        assert kept[("CLAUDE.md", 1)][0] == id
        look_alike = masked.replace("release", "deploy").replace("admin", "root")
        other = identify(repo, config, _files(CLAUDE_md=f"- Run the linter.\n- {look_alike}\n"))
        assert id not in {i for i, _ in other.values()}
