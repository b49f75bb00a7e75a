"""Private key blocks: whole, cut at either end, escaped in JSON, PGP and PuTTY; the text around stays."""

from __future__ import annotations

from gitcontext.provenance.redact import redact

BODY = "MIIEowIBAAKCAQEAvQ9dY1Yq2JvV3r3ZkLm0Xc7Pq1sT5uWv8xYzA1bC2dE3fG4hI5\nJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5cD6eF7gH8iJ9k"
MARK = "[REDACTED:private-key]"


def test_blocks_whole_pem_block_and_the_text_around_it_kept():
    text = f"before\n-----BEGIN RSA PRIVATE KEY-----\n{BODY}\n-----END RSA PRIVATE KEY-----\nafter"
    assert redact(text).text == f"before\n{MARK}\nafter"


def test_blocks_cut_after_the_body_began_keeps_the_following_prose():
    text = f"Load key: invalid format\n-----BEGIN OPENSSH PRIVATE KEY-----\n{BODY}\nend of log"
    assert redact(text).text == f"Load key: invalid format\n{MARK}\nend of log"


def test_blocks_end_without_begin_hides_the_body_lines_before_it():
    text = f"...\n{BODY}==\n-----END PRIVATE KEY-----\nwriting key file failed"
    assert redact(text).text == f"...\n{MARK}\nwriting key file failed"


def test_blocks_escaped_newlines_inside_a_json_string():
    escaped = BODY.replace("\n", "\\n")
    whole = f'{{"private_key": "-----BEGIN PRIVATE KEY-----\\n{escaped}\\n-----END PRIVATE KEY-----\\n", "x": 1}}'
    assert redact(whole).text == f'{{"private_key": "{MARK}\\n", "x": 1}}'
    cut = f'{{"private_key": "-----BEGIN PRIVATE KEY-----\\n{escaped}", "x": 1}}'
    assert redact(cut).text == f'{{"private_key": "{MARK}", "x": 1}}'
    tail = f'{{"private_key": "{escaped}\\n-----END PRIVATE KEY-----\\n"}}'
    assert redact(tail).text == f'{{"private_key": "{MARK}\\n"}}'


def test_blocks_pgp_armor_with_headers_and_a_blank_line():
    text = f"-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n{BODY}\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----"
    assert redact(text).text == MARK


def test_blocks_putty_ppk_through_its_mac_line():
    ppk = (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ci\nPublic-Lines: 2\n"
        f"{BODY}\nPrivate-Lines: 1\nAAAAIEnk3Jx7m2Vq1pLr8sT0uW4yZ6bC8dE0fG2hI4jK6lM8\nPrivate-MAC: 1f2e3d4c5b6a79880f1e2d3c4b5a6978\n"
    )
    assert redact("pageant:\n" + ppk + "done").text == f"pageant:\n{MARK}\ndone"


def test_blocks_public_keys_and_certificates_stay():
    text = "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----"
    assert redact(text).text == text


def test_blocks_ordinary_text_between_a_cut_key_and_a_far_end_stays():
    """A BEGIN whose body stops, then prose, then another key's END: the prose is no key."""
    line = BODY.split("\n")[0]
    text = (
        f"-----BEGIN RSA PRIVATE KEY-----\n{line}\nthe build then went on\n{line}\n-----END RSA PRIVATE KEY-----\ntail"
    )
    assert redact(text).text == f"{MARK}\nthe build then went on\n{MARK}\ntail"
