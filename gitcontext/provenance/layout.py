"""The text `init` writes into `.context/`: the config with every default commented, and a README."""

from __future__ import annotations


def config_text() -> str:
    """`version: 1` plus every other default as a comment, so the file documents the schema."""
    import yaml

    from gitcontext.config import DEFAULTS

    rest = {k: v for k, v in DEFAULTS.items() if k != "version"}
    body = yaml.safe_dump(rest, sort_keys=False, default_flow_style=False)
    commented = "".join(f"# {line}\n" for line in body.splitlines())
    return (
        "# gitcontext settings. Every key below is shown with its default; uncomment to change it.\n"
        "# Unknown keys are an error. Reference: docs/configuration.md in the gitcontext project.\n"
        "version: 1\n" + commented
    )


README_TEXT = """\
# .context/ — why the agent instructions say what they say

This folder is written by gitcontext (`git context …`). It is for the people who
maintain this repository's agent context files (CLAUDE.md, AGENTS.md, .cursor/rules, …). The agents
themselves never read it: rationale shown to an executing agent costs context and changes nothing.

- `config.yml` — settings (every default is listed there, commented).
- `notes/<id>.jsonl` — one append-only log per instruction line: why it exists, the failure it
  answers (verbatim), recurrences, falsified attempts, links, scope, owner, safety tier,
  verifications and, once removed, a verbatim restore quote. Never edit a line: add a new event
  with `git context record|recur|falsified|verify|link`.
- `rulings.jsonl`, `asks.jsonl` — the owner's decisions and open questions.

Useful commands: `git context ls`, `git context show TARGET`, `git context blame CLAUDE.md`,
`git context retire TARGET --reason …`, `git context restore ID`.
"""
