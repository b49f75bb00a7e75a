"""The redactor measured on its corpus (tests/cases/redact/): every secret format caught, every ordinary
failure message unchanged, and the round-7 set still right."""

from __future__ import annotations

import pytest

from gitcontext.provenance.redact import redact
from tests.provenance.redaction.corpus import FRESH_5, FRESH_6, caught, fresh, ordinary, round7, secrets

SECRETS = secrets()
ORDINARY = ordinary()
OLD_SECRETS, OLD_ORDINARY = round7()
CLASSES = {"vendor", "connection-string", "assignment", "header", "basic-pair", "private-key", "jwt"}


def test_corpus_is_large_enough_and_covers_every_class():
    assert len({row.format for row in SECRETS}) == len(SECRETS) >= 80
    assert {row.cls for row in SECRETS} == CLASSES
    assert len(ORDINARY) >= 50


@pytest.mark.parametrize("row", SECRETS, ids=[f"{row.cls}/{row.format}" for row in SECRETS])
def test_corpus_secret_caught_marked_and_stable(row):
    result = redact(row.text)
    assert caught(row, result.text) and result.labels
    assert redact(result.text).text == result.text


@pytest.mark.parametrize("cls, text", ORDINARY, ids=[f"{cls}-{n}" for n, (cls, _) in enumerate(ORDINARY)])
def test_corpus_ordinary_message_unchanged(cls, text):
    assert redact(text) == (text, ())


@pytest.mark.parametrize("row", OLD_SECRETS, ids=[row.format for row in OLD_SECRETS])
def test_corpus_round7_secret_caught(row):
    assert row.secret not in redact(row.text).text


def test_corpus_round7_ordinary_messages_unchanged():
    assert [text for text in OLD_ORDINARY if redact(text).text != text] == []


FRESH_SECRETS, FRESH_ORDINARY = fresh()
FRESH_5_SECRETS, FRESH_5_ORDINARY = fresh(FRESH_5)
FRESH_6_SECRETS, FRESH_6_ORDINARY = fresh(FRESH_6)
LATER_SECRETS = FRESH_SECRETS + FRESH_5_SECRETS + FRESH_6_SECRETS
LATER_ORDINARY = FRESH_ORDINARY + FRESH_5_ORDINARY + FRESH_6_ORDINARY


def test_corpus_fresh_set_is_large_enough_and_covers_every_class():
    assert len({row.format for row in FRESH_SECRETS}) == len(FRESH_SECRETS) >= 80
    assert {row.cls for row in FRESH_SECRETS} == CLASSES
    assert len(FRESH_ORDINARY) >= 60
    assert not {row.text for row in FRESH_SECRETS} & {row.text for row in SECRETS}  # written afresh


@pytest.mark.parametrize("row", LATER_SECRETS, ids=[f"{r.cls}/{r.format}" for r in LATER_SECRETS])
def test_corpus_fresh_secret_caught_marked_and_stable(row):
    result = redact(row.text)
    assert caught(row, result.text) and result.labels
    assert redact(result.text).text == result.text


@pytest.mark.parametrize(
    "cls, text",
    LATER_ORDINARY,
    ids=[f"{c}-{n}" for n, (c, _) in enumerate(LATER_ORDINARY)],
)
def test_corpus_fresh_ordinary_message_unchanged(cls, text):
    assert redact(text) == (text, ())


@pytest.mark.parametrize(
    "later, earlier",
    [(FRESH_5_SECRETS, SECRETS + FRESH_SECRETS), (FRESH_6_SECRETS, SECRETS + FRESH_SECRETS + FRESH_5_SECRETS)],
    ids=["session-5", "session-6"],
)
def test_corpus_later_set_is_written_afresh(later, earlier):
    assert len({row.format for row in later}) == len(later) >= 50
    assert {row.cls for row in later} == CLASSES
    assert not {row.text for row in later} & {row.text for row in earlier}
