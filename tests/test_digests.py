"""gitcontext.digests: hashlib's digests and git's blob ids, without loading OpenSSL."""

from __future__ import annotations

import hashlib
import subprocess
import sys

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


def test_importing_them_loads_no_openssl() -> None:
    probe = "import sys; import gitcontext.digests; print(sorted({'_hashlib', 'hashlib'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
