"""Secret redaction: every secret kind is replaced and marked, ordinary text is untouched."""

from __future__ import annotations

import pytest

from gitcontext.provenance.redact import redact

CASES = [
    ("aws-access-key", "key AKIAIOSFODNN7EXAMPLE in env", "AKIAIOSFODNN7EXAMPLE"),
    ("aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"),
    ("gcp-api-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890"),
    (
        "azure-key",
        "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=abcdEFGHijklMNOPqrstUVWX0123456789+/==;",
        "abcdEFGH",
    ),
    ("github-token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked", "ghp_abc"),
    ("github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "github_pat_11"),
    ("gitlab-token", "glpat-abcdefghij0123456789", "glpat-abc"),
    ("slack-token", "xoxb-1234567890-abcdefghij", "xoxb-123"),
    ("private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "MIIEow"),
    ("bearer-token", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "eyJhbGci"),
    ("connection-password", "DATABASE_URL=postgres://app:s3cr3tpass@db:5432/app", "s3cr3tpass"),
]


@pytest.mark.parametrize("label, text, secret", CASES)
def test_redact_marks_each_secret_kind(label, text, secret):
    result = redact(text)
    assert secret not in result.text
    assert f"[REDACTED:{label}]" in result.text
    assert label in result.labels


def test_redact_keeps_ordinary_text_and_context():
    text = "Run `uv sync` before tests; postgres://localhost/db has no password."
    assert redact(text) == (text, ())
    assert redact("postgres://app:pw@db/x").text == "postgres://app:[REDACTED:connection-password]@db/x"
