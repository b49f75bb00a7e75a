"""SHA-1 and SHA-256 hex digests, from CPython's own implementations when it has them.

The same digests as hashlib's (tests/test_digests.py), without hashlib's load of OpenSSL, which
costs every start of `ls`, `blame`, `history` and the hooks 2-3 ms. What is hashed here are cache
keys, ids and git blob ids, never anything a security decision rests on.
"""

from __future__ import annotations

try:
    from _sha1 import sha1 as _sha1
except ImportError:  # a Python built without its own SHA-1
    from hashlib import sha1 as _sha1
try:
    from _sha2 import sha256 as _sha256  # CPython 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256 as _sha256  # CPython 3.10 and 3.11
    except ImportError:
        from hashlib import sha256 as _sha256


def sha1(data: bytes) -> str:
    return _sha1(data, usedforsecurity=False).hexdigest()


def sha256(data: bytes) -> str:
    return _sha256(data, usedforsecurity=False).hexdigest()


def blob_id(data: bytes) -> str:
    """The id git gives a blob holding DATA in a SHA-1 repository (`git hash-object`)."""
    return sha1(b"blob %d\0" % len(data) + data)
