"""Instruction ids: `ctx-` + 48 bits, deterministic from where and what an instruction was born as."""

from __future__ import annotations

import re
from collections.abc import Container

from gitcontext.digests import sha256

PREFIX = "ctx-"
MAX_ID = 64  # ids are ctx- and 12 characters; a longer one cannot name a note file
_ID = re.compile(r"ctx-[0-9a-z]{6,}")


def instruction_id(file: str, norm: str, taken: Container[str] = ()) -> str:
    """The same birth (file, normalized text) gives the same id on every machine.

    TAKEN holds ids already in use (live or retired); a clash moves to the next salt so an id is
    never reused for a different instruction.
    """
    salt = 0
    while True:
        candidate = _salted(file, norm, salt)
        if candidate not in taken:
            return candidate
        salt += 1


def born_as(id: str, file: str, norm: str, tries: int = 16) -> bool:
    """ID is an id `instruction_id` gives a birth (FILE, NORM), salted or not (a text born again where a
    retired rule had it gets the next salt: which one depends on the ids taken then)."""
    return any(_salted(file, norm, salt) == id for salt in range(tries))


def birth_ids(file: str, norm: str, tries: int = 16) -> list[str]:
    """The ids `instruction_id` can give a birth (FILE, NORM), unsalted first (`born_as`'s candidates)."""
    return [_salted(file, norm, salt) for salt in range(tries)]


def _salted(file: str, norm: str, salt: int) -> str:
    return PREFIX + sha256(f"{file}\0{norm}\0{salt}".encode("utf-8", "surrogateescape"))[:12]


def is_id(text: str) -> bool:
    """`ctx-` and at least 6 of [0-9a-z] (a regular expression: `ls` checks every note's name)."""
    return _ID.fullmatch(text) is not None
