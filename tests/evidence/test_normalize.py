"""Properties of failure classes: volatile content never changes a class, chunking never changes a match."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.evidence.matcher import chunks, index, scan
from gitcontext.evidence.normalize import normalize
from gitcontext.evidence.signature import signature

TEMPLATE = (
    '{stamp} File "{root}/src/shop/pricing.py", line {line}, in total (pid {pid}, port {port}) '
    "commit {sha} in {secs}s at {addr} run {uuid} tmp {tmp}/out.json"
)
_hex = st.text("0123456789abcdef", min_size=12, max_size=40).filter(lambda h: any(c.isdigit() for c in h))
_volatile = st.fixed_dictionaries(
    {
        "stamp": st.builds(
            lambda d, h, m: f"2026-11-{d:02d}T{h:02d}:{m:02d}:07.123Z",
            st.integers(1, 28),
            st.integers(0, 23),
            st.integers(0, 59),
        ),
        "root": st.sampled_from(["/home/runner/work/shop/shop", "/Users/ana/code/shop", "/builds/x/y/z/shop"]),
        "line": st.integers(1, 99999),
        "pid": st.integers(1, 10**6),
        "port": st.integers(1, 65535),
        "sha": _hex,
        "secs": st.floats(0, 1000, allow_nan=False).map(lambda f: f"{f:.2f}"),
        "addr": st.integers(0, 2**48).map(hex),
        "uuid": st.uuids().map(str),
        "tmp": st.sampled_from(
            [
                "/tmp/pytest-of-runner/pytest-3/test_x0",
                "/tmp/pytest-of-ana/pytest-71/test_x0",
                "/var/folders/zz/abc123/T/pytest-9/test_x0",
            ]
        ),
    }
)


@settings(max_examples=200, deadline=None)
@given(_volatile, _volatile)
def test_normalize_volatile_content_never_changes_the_class(a, b):
    assert normalize(TEMPLATE.format(**a)) == normalize(TEMPLATE.format(**b))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_normalize_is_idempotent_and_single_line(text):
    once = normalize(text.replace("\n", " "))
    assert normalize(once) == once and "\n" not in once


_lines = st.lists(
    st.sampled_from(
        [
            "ok 1 - setup",
            "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io",
            "noise noise noise",
            "KeyError: 'CHF'",
            '  File "/home/runner/x/src/shop/pricing.py", line 41, in total',
            "",
            "    rate = RATES[currency]",
            "\x1b[31mFAILED\x1b[0m tests/test_a.py::test_b - assert 1 == 2",
        ]
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(_lines, st.integers(1, 64), st.booleans())
def test_scan_chunk_size_never_changes_matches_or_line_numbers(lines, size, final_newline):
    log = ("\n".join(lines) + ("\n" if final_newline and lines else "")).encode()
    sigs = [
        signature("ctx-00000000000a", "ERROR: ResolutionImpossible", "2026-01-01T00:00:00Z"),
        signature(
            "ctx-00000000000b",
            "File \"/a/b/src/shop/pricing.py\", line 9, in total\n    rate = RATES[currency]\nKeyError: 'CHF'",
            "2026-01-01T00:00:00Z",
        ),
        signature("ctx-00000000000c", "FAILED tests/test_a.py::test_b - assert 3 == 4", "2026-01-01T00:00:00Z"),
    ]
    idx = index(sigs)
    small, n_small = scan(io.BytesIO(log), idx, size)
    big, n_big = scan(io.BytesIO(log), idx)
    assert [(m.signature.id, m.hits) for m in small] == [(m.signature.id, m.hits) for m in big]
    assert n_small == n_big == len(log.splitlines())
    text = log.decode().splitlines()
    for match in big:
        assert all(
            text[hit.lineno - 1].replace("\x1b[31m", "").replace("\x1b[0m", "") == hit.text for hit in match.hits
        )
    assert b"".join(chunks(io.BytesIO(log), size)) == log


BOILERPLATE_LINES = [
    "Traceback (most recent call last):",
    "===== 3 failed, 881 passed, 22 skipped in 38.21s =====",
    "1 failed, 15 passed in 6.42s",
    "##[error]Process completed with exit code 1.",
    "make: *** [Makefile:38: compile] Error 2",
    "npm ERR! Failed at the web@1.0.0 test script.",
    "warning: build failed, waiting for other jobs to finish...",
    "error: build failed",
    "error: aborting due to previous error",
    "error: aborting due to 2 previous errors",
    "To learn more, run the command again with --verbose.",
    "Found 2 errors in 1 file.",
    "Ran 12 tests in 0.031s",
    "FAILED (failures=2)",
    "The command '/bin/sh -c npm run build' returned a non-zero code: 2",
    "During handling of the above exception, another exception occurred:",
]


def test_signature_boilerplate_lines_are_no_class():
    assert [line for line in BOILERPLATE_LINES if signature("ctx-00000000000d", line, "2026-01-01T00:00:00Z")] == []


_HEX4 = st.text("0123456789abcdef", min_size=4, max_size=6).filter(
    lambda h: any(c.isdigit() for c in h) and any(c.isalpha() for c in h)
)
_ALTERNATING = st.lists(
    st.tuples(st.text("abcdefghjkmnpqrstuvwxyz", min_size=1, max_size=2), st.integers(0, 999)), min_size=2, max_size=5
).map(lambda runs: "".join(f"{letters}{number}" for letters, number in runs))
_RUN_ID = st.one_of(
    _HEX4,
    _ALTERNATING,
    _HEX4.map(str.upper).filter(lambda h: sum(a.isdigit() != b.isdigit() for a, b in zip(h, h[1:])) >= 2),
    st.integers(0, 10**6).map(str),
)
RUN_TEMPLATE = "tar: /srv/ci/run-{id}/cache: Cannot open (worker {id}, job build-{id}, id={id})"


@settings(max_examples=300, deadline=None)
@given(_RUN_ID, _RUN_ID)
def test_normalize_mixed_run_ids_never_change_the_class(a, b):
    assert normalize(RUN_TEMPLATE.format(id=a)) == normalize(RUN_TEMPLATE.format(id=b))


REAL_WORDS = [
    "utf8",
    "sha256",
    "x86",
    "py311",
    "k8s",
    "i18n",
    "utf8mb4",
    "TS2345",
    "E501",
    "F821",
    "C0301",
    "h264",
    "ipv4",
    "oauth2",
    "es2022",
    "int64",
    "md5",
    "base64",
    "http2",
    "vue3",
    "node18",
    "e2e",
    "v2",
]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.sampled_from(REAL_WORDS),
        st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=12),
    )
)
def test_normalize_real_words_never_become_volatile(word):
    assert word in normalize(f"ImportError: cannot load {word} module").split()
