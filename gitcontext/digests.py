"""SHA-1 and SHA-256 hex digests of cache keys, ids and git blob ids (never a security decision)."""

from __future__ import annotations

import hashlib


def sha1(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data, usedforsecurity=False).hexdigest()


def blob_id(data: bytes) -> str:
    """The id git gives a blob holding DATA in a SHA-1 repository (`git hash-object`)."""
    return sha1(b"blob %d\0" % len(data) + data)
