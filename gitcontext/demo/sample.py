"""The embedded sample repository: a small Python service whose CLAUDE.md grew one failure at a time."""
from __future__ import annotations

from typing import NamedTuple


class SampleCommit(NamedTuple):
    date: str
    subject: str
    files: dict[str, str | None]      # path -> content (None deletes)
    body: str = ""                    # message body, may carry Context-* trailers


CODE = {
    "pyproject.toml": '[project]\nname = "ledger"\nversion = "0.1.0"\n',
    "ledger/__init__.py": '"""Ledger: double-entry bookkeeping for the demo."""\n',
    "ledger/money.py": (
        '"""Money amounts in integer cents."""\n\n\n'
        'def parse(text: str) -> int:\n    whole, _, cents = text.partition(".")\n'
        '    return int(whole) * 100 + int((cents + "00")[:2])\n'
    ),
    "ledger/accounts.py": (
        '"""Accounts and balances."""\nfrom ledger.money import parse\n\n\n'
        'def balance(entries: list[str]) -> int:\n    return sum(parse(e) for e in entries)\n'
    ),
    "ledger/report.py": (
        '"""Monthly report."""\nfrom ledger.accounts import balance\n\n\n'
        'def monthly(entries: list[str]) -> str:\n    return f"balance: {balance(entries)}"\n'
    ),
    "tests/test_money.py": 'from ledger.money import parse\n\n\ndef test_parse():\n    assert parse("1.5") == 150\n',
}

V1 = """# CLAUDE.md

Guidance for coding agents working on the ledger service.

## Build and test

- Run the tests with `pytest -q` before every commit.
- Use `ruff check .` for linting.
"""

V2 = V1 + """- Never use floats for money; amounts are integer cents (see `ledger/money.py`).
"""

V3 = V2.replace("- Use `ruff check .` for linting.", "- Use `ruff check . --fix` for linting and fix what it reports.") + """
## Git

- Do not commit directly to `main`; open a pull request.
- Keep commits small and focused.
"""

V4 = V3 + """- Run `alembic upgrade head` after pulling; migrations change the schema often.
"""

V5 = V4.replace("- Keep commits small and focused.\n", "") + """
## Style

- Keep `ledger/report.py` free of database access; it only formats.
"""

AGENTS = """# AGENTS.md

@CLAUDE.md

- Keep commits small and focused.
"""

HISTORY = [
    SampleCommit("2026-01-05T09:00:00+00:00", "Add ledger service", {**CODE, "CLAUDE.md": V1}),
    SampleCommit("2026-01-19T10:30:00+00:00", "Add money rule after float rounding bug",
                 {"CLAUDE.md": V2},
                 "Context-Why: invoices were off by a cent; floats rounded 0.1+0.2 wrong in prod (#12)\n"
                 "Context-Failure: AssertionError: 30 != 29.999999999999996"),
    SampleCommit("2026-02-02T14:00:00+00:00", "Tighten lint rule and add git rules", {"CLAUDE.md": V3}),
    SampleCommit("2026-02-20T16:45:00+00:00", "Document migrations", {"CLAUDE.md": V4}),
    SampleCommit("2026-03-09T11:15:00+00:00", "Move commit-size rule to AGENTS.md; report stays pure",
                 {"CLAUDE.md": V5, "AGENTS.md": AGENTS}),
]

# The change the walk makes on top: a big edit to the money module, and a new rule.
PENDING_CODE = "ledger/money.py"
PENDING_RULE = "- Round half to even when converting currencies (`ledger/money.py`).\n"
