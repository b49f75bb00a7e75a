"""The embedded sample repository: a small ledger service whose agent rules grew one failure at a time.

Twenty commits over about four months (dated back from today, so nothing looks stale on day one):
a CLAUDE.md that grows rule by rule, is reworded, rewritten wholesale, regrows, and loses its git
rules to AGENTS.md; a Python package, a TypeScript client and a Go worker; a feature whose module
was later deleted while its rule stayed. The walk adds two branches on top.
"""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple


class SampleCommit(NamedTuple):
    days_ago: int
    subject: str
    files: dict[str, str | None]  # path -> content (None deletes)
    body: str = ""  # message body, may carry Context-* trailers


CODE = {
    "pyproject.toml": '[project]\nname = "ledger"\nversion = "0.1.0"\n\n[tool.setuptools]\npackages = ["ledger"]\n',
    "ledger/__init__.py": '"""Ledger: double-entry bookkeeping for the demo."""\n',
    "ledger/money.py": (
        '"""Money amounts in integer cents."""\n\n\n'
        'def parse(text: str) -> int:\n    whole, _, cents = text.partition(".")\n'
        '    return int(whole) * 100 + int((cents + "00")[:2])\n'
    ),
    "ledger/accounts.py": (
        '"""Accounts and balances."""\nfrom ledger.money import parse\n\n\n'
        "def balance(entries: list[str]) -> int:\n    return sum(parse(e) for e in entries)\n"
    ),
    "ledger/report.py": (
        '"""Monthly report."""\nfrom ledger.accounts import balance\n\n\n'
        'def monthly(entries: list[str]) -> str:\n    return f"balance: {balance(entries)}"\n'
    ),
    "ledger/invoices.py": (
        '"""Invoices."""\nfrom ledger.money import parse\n\n\n'
        "def total(lines: list[str]) -> int:\n    return sum(parse(x) for x in lines)\n"
    ),
    "tests/test_money.py": 'from ledger.money import parse\n\n\ndef test_parse():\n    assert parse("1.5") == 150\n',
    "web/package.json": '{\n  "name": "ledger-web",\n  "private": true,\n  "scripts": {\n'
    '    "test": "vitest run",\n    "lint": "eslint src"\n  }\n}\n',
    "web/src/api.ts": "export async function balance(): Promise<number> {\n"
    '  const res = await fetch("/api/balance");\n  return (await res.json()).cents;\n}\n',
    "web/src/format.ts": 'import { balance } from "./api";\n\n'
    "export async function shown(): Promise<string> {\n"
    "  return ((await balance()) / 100).toFixed(2);\n}\n",
    "worker/go.mod": "module example.com/ledger/worker\n\ngo 1.22\n",
    "Makefile": "check:\n\tpytest -q\n\truff check .\n\tcd web && npm test\n\tcd worker && go build ./...\n",
    "worker/main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("export")\n}\n',
}
FX = (
    '"""Currency conversion (rounds half to even)."""\nfrom decimal import ROUND_HALF_EVEN, Decimal\n\n\n'
    "def convert(cents: int, rate: str) -> int:\n"
    "    return int((Decimal(cents) * Decimal(rate)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))\n"
)
EVAL = '''"""A stand-in for an agent eval: does what the agent loads still cover each failure we saw?

`git context trial` runs it with a rule removed: GITCONTEXT_TRIAL_VIEWS names the rendered files
the agent would load (CLAUDE.md when run by hand). A real team runs its agent harness or tests here.
"""
import os
import sys
from pathlib import Path

views = [Path(p) for p in os.environ.get("GITCONTEXT_TRIAL_VIEWS", "").split(os.pathsep) if p]
view = "".join(p.read_text(encoding="utf-8") for p in [Path("CLAUDE.md"), *views] if p.is_file())
needed = {"float rounding (invoice #12)": "integer cents", "schema drift (CI, twice)": "alembic upgrade head"}
missing = [failure for failure, guard in needed.items() if guard not in view]
for failure in missing:
    print(f"eval: an agent without the rule would repeat: {failure}")
sys.exit(1 if missing else 0)
'''

HEAD = "# CLAUDE.md\n\nGuidance for coding agents working on the ledger service.\n"
TEST = "- Run the tests with `pytest -q` before every commit.\n"
RUFF = "- Use `ruff check .` for linting.\n"
RUFF2 = "- Use `ruff check . --fix` for linting and fix what it reports.\n"
NPM = "- Run `npm test` in `web/` before changing the client.\n"
CENTS = "- Never use floats for money; amounts are integer cents (see `ledger/money.py`).\n"
PR = "- Do not commit directly to `main`; open a pull request.\n"
SMALL = "- Keep commits small and focused.\n"
ALEMBIC = "- Run `alembic upgrade head` after pulling; migrations change the schema often.\n"
FXRULE = "- Convert currencies only through `ledger/fx.py`; it rounds half to even.\n"
PURE = "- Keep `ledger/report.py` free of database access; it only formats.\n"
GO = "- Build the worker with `go build ./...` from `worker/`.\n"


def _v(*sections: tuple[str, list[str]]) -> str:
    return HEAD + "".join(f"\n## {title}\n\n" + "".join(rules) for title, rules in sections)


V = [
    _v(("Build and test", [TEST, RUFF, NPM])),
    _v(("Build and test", [TEST, RUFF, NPM, CENTS])),
    _v(("Build and test", [TEST, RUFF, NPM, CENTS]), ("Git", [PR, SMALL])),
    _v(("Build and test", [TEST, RUFF, NPM, CENTS, ALEMBIC]), ("Git", [PR, SMALL])),
    _v(("Build and test", [TEST, RUFF2, NPM, CENTS, ALEMBIC]), ("Git", [PR, SMALL])),
    _v(("Build and test", [TEST, RUFF2, NPM, CENTS, ALEMBIC, FXRULE]), ("Git", [PR, SMALL])),
    _v(("Build and test", [TEST, RUFF2, NPM, CENTS, ALEMBIC, FXRULE, PURE]), ("Git", [PR, SMALL])),
    _v(("Build and test", [TEST, RUFF2, NPM, CENTS, ALEMBIC, FXRULE, PURE, GO]), ("Git", [PR, SMALL])),
]
# The wholesale rewrite: most rules restated in a new structure (new identities), a few kept verbatim.
REWRITE = _v(
    ("Commands", ["- Before you push: `make check` (pytest, ruff, the client's tests and the Go build).\n", ALEMBIC]),
    ("Money", [CENTS, FXRULE]),
    ("Architecture", ["- Reports only format numbers; SQL belongs in the repository layer.\n"]),
    ("Git", [PR]),
)
STYLE = "- Type every public function; `mypy --strict ledger` must pass.\n"
PNPM = "- Use `pnpm` (not `npm`) for the client: the lockfile is `pnpm-lock.yaml`.\n"
INVOICE = "- Invoice totals are computed once, in `ledger/invoices.py`; never re-add line items in the client.\n"
LEAK = (
    "- Incident 2026-10-03 (INC-42): the nightly export crashed on a null currency; validate currency codes "
    "before exporting.\n"
)
_STYLED = REWRITE.replace("## Git\n", "## Style\n\n" + STYLE + "\n## Git\n")
_GROWN = _STYLED.replace(CENTS, CENTS + INVOICE).replace(ALEMBIC, ALEMBIC + PNPM)
REGROW = [_STYLED, _GROWN, _GROWN.replace("## Style\n\n" + STYLE, "## Style\n\n" + STYLE + LEAK)]
MIGRATED = REGROW[2].replace("\n## Git\n\n" + PR, "")
AGENTS = (
    "# AGENTS.md\n\nFor every coding agent in this repository (Claude Code reads CLAUDE.md as well).\n\n"
    "## Git\n\n" + PR + SMALL + "\n## Client\n\n- Run `pnpm test` in `web/` before changing the client.\n"
)
WEB_CLAUDE = (
    "# web/CLAUDE.md\n\nRules for the TypeScript client.\n\n"
    "- Never use floats for money in the client; amounts are integer cents.\n"
    "- Format amounts only in `web/src/format.ts`.\n"
)
SCRIPT = "- Run `npm run gen:api` in `web/` after changing the server; it regenerates the API client.\n"

HISTORY = [
    SampleCommit(120, "Add ledger service", {**CODE, "CLAUDE.md": V[0]}),
    SampleCommit(
        114,
        "Add money rule after float rounding bug",
        {"CLAUDE.md": V[1]},
        "Context-Why: invoices were off by a cent; floats rounded 0.1+0.2 wrong in prod (#12)\n"
        "Context-Failure: AssertionError: 30 != 29.999999999999996",
    ),
    SampleCommit(108, "Add git rules", {"CLAUDE.md": V[2]}),
    SampleCommit(101, "Document migrations", {"CLAUDE.md": V[3]}),
    SampleCommit(95, "Tighten the lint rule", {"CLAUDE.md": V[4]}),
    SampleCommit(
        88,
        "Add currency conversion",
        {"CLAUDE.md": V[5], "ledger/fx.py": FX},
        "Context-Why: a hand-rolled conversion rounded half up and drifted by a cent per 1,000 invoices",
    ),
    SampleCommit(82, "Keep the report pure", {"CLAUDE.md": V[6]}),
    SampleCommit(77, "Add the export worker", {"CLAUDE.md": V[7], "scripts/eval_agent.py": EVAL}),
    SampleCommit(70, "Rewrite CLAUDE.md by topic", {"CLAUDE.md": REWRITE}),
    SampleCommit(
        63,
        "Require type hints",
        {"CLAUDE.md": REGROW[0]},
        "Context-Why: an untyped helper returned str cents into balance(); mypy would have caught it",
    ),
    SampleCommit(56, "Invoice totals in one place", {"CLAUDE.md": REGROW[1]}),
    SampleCommit(50, "Note the export incident", {"CLAUDE.md": REGROW[2]}),
    SampleCommit(44, "Move the git rules to AGENTS.md for every agent", {"CLAUDE.md": MIGRATED, "AGENTS.md": AGENTS}),
    SampleCommit(38, "Rules for the web client", {"web/CLAUDE.md": WEB_CLAUDE}),
    SampleCommit(31, "Drop currency conversion: the payments service owns it now", {"ledger/fx.py": None}),
    SampleCommit(25, "Document API client generation", {"web/CLAUDE.md": WEB_CLAUDE + SCRIPT}),
    SampleCommit(
        18,
        "Add a balance endpoint test",
        {
            "tests/test_accounts.py": (
                "from ledger.accounts import balance\n\n\ndef test_balance():\n    assert balance(['1.50', '2']) == 350\n"
            )
        },
    ),
    SampleCommit(
        12,
        "Export worker prints totals",
        {"worker/main.go": CODE["worker/main.go"].replace('"export"', '"export totals"')},
    ),
    SampleCommit(6, "Client shows two decimals", {"web/src/format.ts": CODE["web/src/format.ts"] + "\n"}),
    SampleCommit(2, "Tidy the report", {"ledger/report.py": CODE["ledger/report.py"] + "\n"}),
]

# What the walk adds on top: a big edit to the money module, and a new rule.
PENDING_CODE = "ledger/money.py"
PENDING_RULE = "- Round half to even when converting currencies (`ledger/money.py`).\n"


def commit_date(days_ago: int, today: _dt.date, hour: int = 10) -> str:
    """An ISO date DAYS_AGO before TODAY at a fixed hour (the same bytes for every build on one day)."""
    day = today - _dt.timedelta(days=days_ago)
    return f"{day.isoformat()}T{hour:02d}:00:00+00:00"
