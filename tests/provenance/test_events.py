"""Events: construction, the exact serialization, validation of one line, and the fold's laws."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.errors import UserError
from gitcontext.provenance.events import ENUMS, KINDS, dumps, new_event, parse_line
from gitcontext.provenance.fold import fold

ID = "ctx-0123456789ab"


def test_new_event_serializes_sorted_compact_utf8():
    event = new_event(
        "added",
        ID,
        "cli",
        at="2026-11-29T19:30:00Z",
        eid="e-0000000000000001",
        file="CLAUDE.md",
        text="Nie pushuj na main — używaj PR.",
    )
    line = dumps(event)
    assert line == json.dumps(event, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert "używaj" in line and line.index('"at"') < line.index('"eid"') < line.index('"v"')
    assert parse_line(line.rstrip("\n"), "n.jsonl", 1) == event


def test_new_event_drops_none_and_rejects_missing_fields():
    event = new_event("recurred", ID, "cli", failure="boom", evidence=None)
    assert "evidence" not in event
    with pytest.raises(UserError, match="falsified needs attempt"):
        new_event("falsified", ID, "cli", outcome="x")


@pytest.mark.parametrize(
    "line, problem",
    [
        ("{not json", "not JSON"),
        ('{"v":1}', "missing"),
        (
            '{"at":"2026-11-29T19:30:00Z","eid":"e-0000000000000001","id":"ctx-0123456789ab","kind":"exploded",'
            '"source":"cli","v":1}',
            "unknown kind",
        ),
        (
            '{"at":"yesterday","eid":"e-0000000000000001","id":"ctx-0123456789ab","kind":"restored",'
            '"source":"cli","v":1}',
            "bad at",
        ),
        (
            '{"at":"2026-11-29T19:30:00Z","eid":"e-0000000000000001","id":"ctx-0123456789ab","kind":"restored",'
            '"source":"cli","v":9}',
            "newer",
        ),
        (
            '{"at":"2026-11-29T19:30:00Z","eid":"e-0000000000000001","id":"ctx-0123456789ab","kind":"linked",'
            '"refs":"#1","source":"cli","v":1}',
            "wrong type",
        ),
    ],
)
def test_parse_line_names_file_and_line(line, problem):
    with pytest.raises(UserError) as info:
        parse_line(line, ".context/notes/ctx-0123456789ab.jsonl", 7)
    assert problem in str(info.value)
    assert str(info.value).startswith(".context/notes/ctx-0123456789ab.jsonl:7: ")


_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)
_path = st.lists(
    st.text("abcXYZ._-é", min_size=1, max_size=6).filter(lambda p: p not in (".", "..")), min_size=1, max_size=3
).map("/".join)
_at = st.builds(lambda d, h: f"2026-11-{d:02d}T{h:02d}:00:00Z", st.integers(1, 28), st.integers(0, 23))


def _fields(kind: str, draw) -> dict:
    required, optional = KINDS[kind]
    fields = {}
    for name in required + tuple(n for n in optional if draw(st.booleans())):
        if name in ("refs", "scope", "headings", "quoted"):
            fields[name] = draw(st.lists(_text, max_size=3))
        elif name in ENUMS:
            fields[name] = draw(st.sampled_from(ENUMS[name]))
        elif name == "suggestion":
            fields[name] = f"e-{draw(st.integers(0, 2**64 - 1)):016x}"
        elif name == "corrects":  # an eid of the generated events (they are e-0…), so corrections apply
            fields[name] = f"e-{draw(st.integers(0, 8)):016x}"
        elif name == "restore":
            fields[name] = {"text": draw(_text)}
        elif name in ("file", "old_file"):
            fields[name] = draw(_path)
        elif name == "exit_status":
            fields[name] = draw(st.integers(0, 255))
        elif name in ("pr", "issue"):
            fields[name] = str(draw(st.integers(1, 10**7)))
        elif name == "url":
            fields[name] = f"https://github.com/octo/repo/pull/{draw(st.integers(1, 10**7))}"
        elif name == "safety":
            fields[name] = draw(st.sampled_from(["none", "guarded", "critical"]))
        elif name == "result":
            fields[name] = draw(st.sampled_from(["holds", "fails"]))
        elif name in ("runs", "duration_ms"):
            fields[name] = 2 if name == "runs" else draw(st.integers(0, 10**6))
        elif name in ("removal", "control"):
            fields[name] = {
                "passes": draw(st.integers(0, 2)),
                "exit_statuses": draw(st.lists(st.integers(0, 255), min_size=2, max_size=2)),
                "tail": draw(_text),
            }
        elif name == "removed":
            fields[name] = [ID]
        else:
            fields[name] = draw(_text)
    return fields


@st.composite
def _events(draw):
    events = []
    for n in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(sorted(KINDS)))
        events.append(new_event(kind, ID, "cli", at=draw(_at), eid=f"e-{n:016x}", **_fields(kind, draw)))
    return events


@settings(max_examples=150, deadline=None)
@given(_events(), st.randoms())
def test_fold_any_permutation_gives_the_same_state(events, rnd):
    shuffled = list(events)
    rnd.shuffle(shuffled)
    assert fold(shuffled, ID) == fold(events, ID)


@settings(max_examples=150, deadline=None)
@given(_events())
def test_fold_never_crashes_and_counts_every_event(events):
    state = fold(events, ID)
    assert state.events == len(events)
    assert state.recurrences == tuple(
        e for e in sorted(events, key=lambda e: (e["at"], e["eid"])) if e["kind"] == "recurred"
    )


def test_fold_a_why_of_the_same_second_is_for_the_text_that_second_left():
    """A commit's rewording and its trailer's why share the commit's second; whoever wrote each (backfill,
    sync) and whatever their eids, the why is for the new text, so the rule is not stale."""
    at = "2026-01-05T10:00:00Z"
    events = [
        new_event(
            "added",
            "ctx-aaaaaaaaaaaa",
            "cli",
            at="2026-01-01T00:00:00Z",
            eid="e-0001000000000000",
            file="CLAUDE.md",
            text="Keep PRs small.",
        ),
        new_event(
            "linked",
            "ctx-aaaaaaaaaaaa",
            "trailer:" + "a" * 40,
            at=at,
            eid="e-00000003aaaaaaaa",
            why="big PRs hide bugs",
        ),
        new_event(
            "reworded",
            "ctx-aaaaaaaaaaaa",
            "backfill:" + "b" * 40,
            at=at,
            eid="e-0001ffffffffffff",
            file="CLAUDE.md",
            old_text="Keep PRs small.",
            text="Keep PRs small and focused.",
        ),
    ]
    state = fold(events)
    assert state.why == "big PRs hide bugs" and state.why_text == "Keep PRs small and focused."
