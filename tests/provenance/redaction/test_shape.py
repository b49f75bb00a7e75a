"""What makes a value a secret: names, placeholders, code, randomness."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.provenance.redaction.shape import code, looks_random, name_kind, path, placeholder, words


@pytest.mark.parametrize(
    "name, kind",
    [
        ("DB_PASSWORD", "password"),
        ("PGPASSWORD", "password"),
        ("client_secret", "password"),
        ("--password", "password"),
        ("pwd", "password"),
        ("apiKey", "key"),
        ("X-Api-Key", "key"),
        ("SECRET_KEY_BASE", "key"),
        ("AccountKey", "key"),
        ("GITHUB_TOKEN", "key"),
        ("token", "key"),
        ("_authToken", "key"),
        ("PHPSESSID", "key"),
        ("session_id", "key"),
        ("X-Amz-Signature", "key"),
        ("key", None),
        ("cache_key", None),
        ("primary_key", None),
        ("next_token", None),
        ("max_tokens", None),
        ("token_ttl", None),
        ("password_hash", None),
        ("AWS_ACCESS_KEY_ID", None),
        ("secretName", None),
        ("Cookie", None),
        ("tokenizer", None),
    ],
)
def test_name_kind_by_the_last_word(name, kind):
    assert name_kind(name) == kind


def test_words_split_camel_snake_kebab_and_runs_of_capitals():
    assert words("X-Api-Key") == ["x", "api", "key"]
    assert words("APIKey") == ["api", "key"]
    assert words("db.userPassword") == ["db", "user", "password"]


@pytest.mark.parametrize(
    "value",
    [
        "****",
        "********",
        "<your key>",
        "${API_TOKEN}",
        "$TOKEN",
        "{{ vault_pw }}",
        "%(password)s",
        "sk-...",
        "your_api_key_here",
        "changeme",
        "REGISTRY_PASSWORD",
        "xxxxxxxx",
        "",
        "[REDACTED:password]",
        "None",
        "•••••",
    ],
)
def test_placeholder_stands_for_a_secret(value):
    assert placeholder(value)


@pytest.mark.parametrize("value", ["hunter22", "p@ss-w0rd", "Tr0ub4dor&3", "s3cr3t!"])
def test_placeholder_is_not_a_real_password(value):
    assert not placeholder(value)


@pytest.mark.parametrize("value", ["request.form[", "os.getenv(", "settings.SECRET_KEY", "user_password", "oldToken"])
def test_code_is_program_text(value):
    assert code(value)


@pytest.mark.parametrize("value", ["/home/runner/work", "~/.ssh/id_rsa", "./secrets.env", "C:\\Users\\ci"])
def test_path_is_a_file_path(value):
    assert path(value)


@pytest.mark.parametrize(
    "value",
    [
        "9f86d081884c7d659a2feaf0c55ad015",
        "123e4567-e89b-12d3-a456-426614174000",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "kQvTzPwXmRbYtLnAsDfGhJ",
    ],
)
def test_looks_random_generated_values(value):
    assert looks_random(value)


@pytest.mark.parametrize(
    "value",
    [
        "user-42-profile",
        "1.4.2-rc.1",
        "node-cache-Linux",
        "test-token",
        "settings.SECRET_KEY",
        "/usr/local/bin/python3",
        "ThisIsAVeryLongIdentifierName",
        "1234567890123456",
        "short1",
    ],
)
def test_looks_random_not_words_versions_paths_or_identifiers(value):
    assert not looks_random(value)


def test_looks_random_a_key_holding_a_mixed_case_x_run():
    # seed 1859 of the property below: "…8PXXXxbq…" is no mask ("xxxx", "XXXX" are)
    assert looks_random("VxYJDUq0KojPm8WXa1WUHvvpNIDmhUjQ0GGAlZYxKFcD1y3f8PXXXxbqDfJCbQOD")
    assert not looks_random("sk-proj-xxxxxxxxxxxxxxxxxxxx1234")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(20, 64))
def test_looks_random_every_generated_alphanumeric_key(seed, size):
    rng = random.Random(seed)
    value = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(size))
    if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
        assert looks_random(value)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["build", "cache", "node", "linux", "x64", "v2", "42", "2024", "rc", "main"]),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from("-_./:"),
)
def test_looks_random_never_words_joined(pieces, joiner):
    assert not looks_random(joiner.join(pieces))
