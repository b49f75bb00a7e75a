"""audit.managers: which package manager a rule picks and which one a command runs."""

from __future__ import annotations

import pytest

from gitcontext.audit.managers import picks, uses


@pytest.mark.parametrize(
    ("line", "ruled_out"),
    [
        ("Always use pnpm for this project, not npm or yarn.", {"npm", "yarn", "bun"}),
        ("- ONLY use uv, NEVER pip", {"pip", "poetry", "pipenv", "pdm"}),
        ("**Do NOT use npm or yarn.**", {"npm", "yarn"}),
        ("- `pnpm install` (not npm install)", {"npm"}),
        ("pnpm is the package manager", {"npm", "yarn", "bun"}),
        ("- Do NOT run `npm ci` or `npm install` directly in the mounted workspace", set()),  # one command, one place
        ("Commit uv.lock; never edit yarn.lock by hand", set()),  # lockfiles, not managers
        ("Use pnpm for node and uv for python.", set()),
    ],
)
def test_picks_rule_out_the_rivals(line: str, ruled_out: set[str]) -> None:
    assert {p.forbidden for p in picks(line)} == ruled_out


@pytest.mark.parametrize(
    ("code", "used"),
    [
        ("cd web && npm run build", [("npm", "npm run build")]),
        ("pip3 install -r requirements.txt", [("pip", "pip3 install -r requirements.txt")]),
        ("pnpm build", [("pnpm", "pnpm build")]),
        ("npm i -g vercel", []),  # a global tool install
        ("npx playwright test", []),  # a one-off runner
        ("npm publish", []),  # a registry operation
        ("bun test", []),  # bun as a test runner
        ("yarn.lock", []),
        ("uvicorn main:app", []),
    ],
)
def test_uses_are_project_commands(code: str, used: list[tuple[str, str]]) -> None:
    assert uses(code) == used
