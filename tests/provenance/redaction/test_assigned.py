"""Secrets by the name they are given, in every syntax; code, placeholders, prose and paths stay."""

from __future__ import annotations

import pytest

from gitcontext.provenance.redact import redact

KEY = "aK29vLq7Rt4Zx81mNp0Qw"


@pytest.mark.parametrize(
    "text",
    [
        f"export DD_API_KEY={KEY}",
        f'STRIPE_SECRET="{KEY}"',
        "PGPASSWORD=hunter22 psql -h db",
        f'{{"db": {{"password": "{KEY}"}}}}',
        f"database:\n  password: {KEY}\n",
        f"signing_key = '{KEY}'",
        f"[pypi]\npassword = {KEY}",
        f'new Client({{ apiKey: "{KEY}" }})',
        f"mysqldump --password={KEY} app",
        f"gh auth login --token {KEY}",
        f"mysql -u root -p{KEY} -h 127.0.0.1",
        f"sshpass -p {KEY} ssh ci@host",
        f"curl -u deploy:{KEY} https://example.com",
        f"machine api.example.com login ci password {KEY}",
        f"aws configure set aws_secret_access_key {KEY} --profile ci",
        f"npm config set //registry.npmjs.org/:_authToken {KEY}",
        f'dotnet user-secrets set "Stripe:SecretKey" "{KEY}"',
        f"gh secret set NPM_TOKEN --body {KEY}",
        f"cat ~/.pgpass\ndb.internal:5432:orders:app:{KEY}",
        "~/.pgpass: localhost:*:*:postgres:hunter22",
        f"- name: REDIS_PASSWORD\n  value: {KEY}",
        f'<add key="ClearTextPassword" value="{KEY}" />',
        f"<password>{KEY}</password>",
        f'$env:OPENAI_API_KEY = "{KEY}"',
        f"Server=db;User ID=sa;Password={KEY};Encrypt=True",
        f"GET /cb?state=x&access_token={KEY}&next=/home",
        f"the bot token {KEY} was pasted in the PR",
        f"AuthenticationError: api_key {KEY} is invalid",
        f"ngrok config add-authtoken {KEY} failed",
        f"ApiError: API key is invalid: re_{KEY}",
        f"doppler run --token dp.st.dev.{KEY} -- npm test",
        "SECRET_KEY = 'k35kdz(f*nw=c+44y(f4c51tgah1%%8n3c1ic!7^+k-#on#fr&'",
    ],
)
def test_assigned_secret_in_every_syntax(text):
    out = redact(text).text
    assert KEY not in out and "hunter22" not in out and "k35kdz" not in out and "[REDACTED:" in out


@pytest.mark.parametrize(
    "text",
    [
        'password = request.form["password"]',
        "token = get_token(session)",
        "secret_key = settings.SECRET_KEY",
        "client.refresh(token=old_token)",
        "password: ********",
        "KEY=<your key>",
        "API_TOKEN=${API_TOKEN:?set API_TOKEN}",
        "Usage: deploy [--token TOKEN] [--password-stdin] [--api-key string]",
        "Password: Authentication failed for user app",
        "token: expected identifier, found `}`",
        "PWD=/home/runner/work/app/app",
        "cache_key: node-modules-3f2a9c8e1b7d4e6f0a1b2c3d4e5f6071",
        "max_tokens: 4096",
        'token = "test-token"',
        "docker run -u 1000:1000 img",
        "mysql -u root -p app < dump.sql",
        "key=value pairs must be separated by commas",
        "Cookie: _ga=GA1.1.1234567890.1700000000",
        "Users can set password reset emails from the admin page",
        'gh secret set NPM_TOKEN --body "$NPM_TOKEN"',
        "git config set user.signingKey ~/.ssh/id_ed25519.pub",
        "listening on 0.0.0.0:8080:tcp:ipv4:ready",
        f"the monkey {KEY} ran off",
        f"cache_key {KEY} was evicted",
        "Cache restored from key: node-cache-Linux-x64-npm-3f2a9c8e1b7d4e6f0a1b2c3d4e5f60718293a4b5c6d7e8f9",
        "token is invalid: expected three segments in header.payload.signature",
        "AttributeError: module os.path.Abc1Def2Ghi3 has no attribute join",
    ],
)
def test_assigned_ordinary_text_stays(text):
    assert redact(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        "twilio.rest.Client('SK0123456789abcdef0123456789abcdef', 'daD2u3OF5fkQ4iNYDT2aqyEEtHwHQ5OT')",
        "AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
        'new Credential("LTAI5tQ8mN3pR7sV2wX9yZ1a", "Zk3mQ8pR2vT7wY1aB4cD6eF9gH0jK5")',
    ],
)
def test_assigned_secret_half_of_a_redacted_key_pair(text):
    """The secret beside a key id the redactor hid (AWS, Twilio, Alibaba, Tencent) is hidden too."""
    result = redact(text).text
    assert result.count("[REDACTED:") == 2, result


def test_assigned_key_id_beside_ordinary_values_stays_alone():
    text = "key AKIAIOSFODNN7EXAMPLE, region eu-west-1, bucket 'release-artifacts-2024'"
    assert redact(text).text == "key [REDACTED:aws-access-key], region eu-west-1, bucket 'release-artifacts-2024'"
