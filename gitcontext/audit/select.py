"""Which checks run, and running them: the registry's modules, `--check`, `--experimental`, the config.

By default the checks the registry turns on run, minus `audit.disable`. `--experimental` adds every
other check, `audit.experimental` in .context/config.yml the ones it names; `--check` runs exactly the
checks it names, experimental or not, whatever is disabled. Ids or names are accepted everywhere, and
an unknown one is a usage error naming where it was written.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from gitcontext.audit.baseline import subjects
from gitcontext.audit.candidates import judge
from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Finding
from gitcontext.audit.registry import CHECKS, experimental, in_part, part_of
from gitcontext.errors import UserError


def modules() -> dict[str, ModuleType]:
    return {id: importlib.import_module(f"gitcontext.audit.checks.{row.module}") for id, row in CHECKS.items()}


def select(config: dict[str, Any], only: Sequence[str] | None = None, *, everything: bool = False) -> list[ModuleType]:
    """The check modules to run: ONLY (ids or names) if given; else the default-on checks and the
    experimental ones with a default part (`narrowed` says which run only for it), plus the experimental
    ones EVERYTHING or `audit.experimental` asks for, minus `audit.disable`."""
    mods = modules()
    ids = _ids(mods, config, only)
    if only:
        chosen = {ids[k] for k in only}
    else:
        wanted = {ids[k] for k in config["audit"]["experimental"]}
        chosen = {id for id in mods if everything or not experimental(id) or id in wanted or part_of(id)}
        chosen -= {ids[k] for k in config["audit"]["disable"]}
    return [mods[id] for id in sorted(chosen)]


def narrowed(config: dict[str, Any], only: Sequence[str] | None = None, *, everything: bool = False) -> frozenset[str]:
    """The experimental checks `select` runs only for their default part (gitcontext.audit.registry.Part):
    not named by --check, --experimental or `audit.experimental`."""
    if only or everything:
        return frozenset()
    ids = _ids(modules(), config, None)
    wanted = {ids[k] for k in config["audit"]["experimental"]}
    return frozenset(id for id in CHECKS if part_of(id) and id not in wanted)


def left_out(config: dict[str, Any], ran: Iterable[ModuleType], part_only: frozenset[str] = frozenset()) -> list[str]:
    """The experimental checks that did not run, or ran only for their default part (PART_ONLY), and were
    not disabled: the report names them."""
    ids = _ids(modules(), config, None)
    disabled = {ids[k] for k in config["audit"]["disable"]}
    done = {m.CHECK.id for m in ran} - part_only
    return [id for id in sorted(CHECKS) if experimental(id) and id not in done and id not in disabled]


def _ids(mods: dict[str, ModuleType], config: dict[str, Any], only: Sequence[str] | None) -> dict[str, str]:
    """Id or name -> id, for every key the caller wrote; a UserError for one that names no check."""
    by_key = {**{id: id for id in mods}, **{m.CHECK.name: id for id, m in mods.items()}}
    places = (
        (only or (), "--check"),
        (config["audit"]["disable"], "audit.disable in .context/config.yml"),
        (config["audit"]["experimental"], "audit.experimental in .context/config.yml"),
    )
    for keys, where in places:
        for key in keys:
            if key not in by_key:
                known = ", ".join(f"{m.CHECK.id} {m.CHECK.name}" for m in mods.values())
                raise UserError(f"unknown check {key!r} in {where}", fix=f"use one of: {known}")
    return by_key


def run_checks(ctx: AuditContext, mods: Iterable[ModuleType], part_only: frozenset[str] = frozenset()) -> list[Finding]:
    """Every finding of MODS, judged as deletion candidates; of a check in PART_ONLY, those in its part."""
    found = [f for m in mods for f in m.run(ctx) if m.CHECK.id not in part_only or in_part(f.check, f.evidence)]
    return judge(ctx, subjects(ctx, found))
