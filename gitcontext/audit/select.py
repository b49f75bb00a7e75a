"""Which checks run, and running them: the registry's modules, `--check`, `audit.disable`."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from gitcontext.audit.candidates import judge
from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Finding
from gitcontext.audit.registry import CHECKS
from gitcontext.errors import UserError


def modules() -> dict[str, ModuleType]:
    return {id: importlib.import_module(f"gitcontext.audit.checks.{name}") for id, name in CHECKS.items()}


def select(config: dict[str, Any], only: Sequence[str] | None = None) -> list[ModuleType]:
    """The check modules to run: ONLY (ids or names) if given, else all minus `audit.disable`."""
    mods = modules()
    by_key = {**{id: m for id, m in mods.items()}, **{m.CHECK.name: m for m in mods.values()}}
    for key in [*(only or ()), *config["audit"]["disable"]]:
        if key not in by_key:
            where = "--check" if key in (only or ()) else "audit.disable in .context/config.yml"
            known = ", ".join(f"{m.CHECK.id} {m.CHECK.name}" for m in mods.values())
            raise UserError(f"unknown check {key!r} in {where}", fix=f"use one of: {known}")
    if only:
        chosen = {by_key[k].CHECK.id for k in only}
    else:
        chosen = set(mods) - {by_key[k].CHECK.id for k in config["audit"]["disable"]}
    return [mods[id] for id in sorted(chosen)]


def run_checks(ctx: AuditContext, mods: Iterable[ModuleType]) -> list[Finding]:
    found = [f for m in mods for f in m.run(ctx)]
    return judge(ctx, found)
