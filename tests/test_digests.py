"""gitcontext.digests: hashlib's digests and git's blob ids."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from gitcontext import digests
from tests.helpers import git


@given(st.binary(max_size=4096))
def test_the_digests_are_hashlibs(data: bytes) -> None:
    assert digests.sha1(data) == hashlib.sha1(data).hexdigest()
    assert digests.sha256(data) == hashlib.sha256(data).hexdigest()


def test_blob_id_is_gits(repo) -> None:
    for name, data in {"empty": b"", "text": "é\r\nrules\n".encode(), "bin": bytes(range(256)) * 40}.items():
        (repo / name).write_bytes(data)
        assert digests.blob_id(data) == git(repo, "hash-object", name).strip()
