"""Package managers: which one a line tells the agent to use, and which one a command runs.

A rule picks a manager and so rules out its rivals of the same ecosystem: "Always use pnpm", "Use `uv`
only", "pnpm is the package manager", "`pnpm install` (not npm install)", "Do NOT use npm or yarn",
"ONLY use uv, NEVER pip" (a prohibition must name the manager itself: "Do NOT run `npm ci` in the mounted
workspace" rules out one command in one place, which audit.checks.gc203 reads as such). A command uses
one when it manages the project with it: `npm install`, `npm run build`, `yarn add x`, `pip install -e .`,
`poetry run pytest` — not a global tool install
(`npm i -g x`), a one-off runner (`npx`), a registry operation (`npm publish`), nor `bun` as a test
runner or runtime (`bun test`), which a pnpm project may well use.
"""

from __future__ import annotations

import re
from typing import NamedTuple

ECOSYSTEM = {"npm": "js", "pnpm": "js", "yarn": "js", "bun": "js"}
ECOSYSTEM |= {"pip": "py", "pip3": "py", "uv": "py", "poetry": "py", "pipenv": "py", "pdm": "py"}
# The subcommands that manage a project with that manager ("" is the bare command); None: any (`pnpm build`).
_MANAGES: dict[str, set[str] | None] = {
    "npm": {"install", "i", "ci", "add", "uninstall", "remove", "rm", "run", "run-script", "test", "start"},
    "pnpm": None,
    "yarn": None,
    "bun": {"install", "i", "add", "remove", "rm"},
    "pip": {"install"},
    "pip3": {"install"},
    "uv": {"sync", "add", "remove", "run", "pip", "lock"},
    "poetry": {"install", "add", "remove", "run", "lock"},
    "pipenv": {"install", "run", "sync"},
    "pdm": {"install", "add", "remove", "run", "sync"},
}
_WORD = "(?:" + "|".join(sorted(ECOSYSTEM, key=len, reverse=True)) + r")(?![\w@/-]|\.\w)"
_NAME = r"(?:`" + _WORD + r"[^`\n]*`|" + _WORD + ")"  # `npm install` or npm
_LIST = _NAME + r"(?:\s*(?:,|/|\bor\b|\band\b|\bnor\b)\s*" + _NAME + r")*"
_PROHIBIT = re.compile(r"\b(?:never|don'?t|do not|avoid|must not|should not)\s+(?:use\s+|run\s+)?" + _LIST, re.I)
_PREFER = re.compile(
    "(?P<chosen>"
    + _NAME
    + r")[^.;!?]{0,40}?(?:,\s*|\(\s*|\s+)(?:and\s+)?(?:not|instead of|rather than|never)\s+"
    + _LIST,
    re.I,
)
_EXCLUSIVE = re.compile(
    r"\b(?:always|only)\s+use\s+(?P<a>" + _NAME + r")|\buse\s+(?P<b>" + _NAME + r")\s+(?:only|exclusively|as\s+"
    r"(?:the|our)\s+package\s+manager|for\s+(?:all\s+)?(?:package\s+management|dependenc|installing))|(?P<c>"
    + _NAME
    + r")\s+is\s+(?:the|our)\s+(?:only\s+)?package\s+manager",
    re.I,
)
_COMMAND = re.compile(
    r"(?:^|&&|\|\||;|\$\s)\s*(?:[A-Z_]+=\S*\s+)*(" + "|".join(_MANAGES) + r")(?![\w.@/-])(?:\s+([\w:-]+))?"
)


class Pick(NamedTuple):
    forbidden: str
    preferred: str | None
    at: int  # where the rule starts in its line: what precedes it says whom it binds and under what condition


def picks(line: str) -> list[Pick]:
    """The managers LINE rules out, each with the one it prefers (None for a bare prohibition)."""
    out: list[Pick] = []
    for m in _PREFER.finditer(line):
        chosen = _names(m.group("chosen"))[0]
        out += [Pick(name, chosen, m.start()) for name in _names(line[m.end("chosen") : m.end()])]
    for m in _PROHIBIT.finditer(line):  # "Do NOT use npm or yarn"; not "Do NOT run `npm ci` in the sandbox"
        out += [Pick(_names(n)[0], None, m.start()) for n in re.findall(_NAME, m.group(0), re.I) if " " not in n]
    for m in _EXCLUSIVE.finditer(line):
        chosen = _names(next(g for g in m.groups() if g))[0]
        out += [Pick(rival, chosen, m.start()) for rival in rivals(chosen)]
    return [p for p in dict.fromkeys(out) if p.forbidden != p.preferred and _same_kind(p)]


def rivals(manager: str) -> list[str]:
    return [m for m, eco in ECOSYSTEM.items() if eco == ECOSYSTEM[manager] and m != manager and m != "pip3"]


def _names(text: str) -> list[str]:
    """The manager each name or code span of TEXT names first (`npm install` names npm only)."""
    return [re.match(_WORD, n.strip("`"), re.I).group(0).lower() for n in re.findall(_NAME, text, re.I)]  # type: ignore[union-attr]


def _same_kind(p: Pick) -> bool:
    return p.preferred is None or ECOSYSTEM[p.preferred] == ECOSYSTEM[p.forbidden]


def uses(code: str) -> list[tuple[str, str]]:
    """(manager, the command as written) for each command of CODE (one shell line) that manages the
    project with a package manager."""
    out = []
    for m in _COMMAND.finditer(code):
        name, sub = m.group(1), (m.group(2) or "")
        rest = code[m.end() :]
        manages = _MANAGES[name]
        if (manages is None or sub in manages) and not re.search(r"(?:^|\s)(?:-g|--global)\b", rest.split("&&")[0]):
            out.append(("pip" if name == "pip3" else name, code[m.start(1) :].split("&&")[0].strip()))
    return out
