"""Run one hook inside its time budget and error policy; the only place a hook writes a file.

A hook implementation is a function `(HookCall) -> Outcome`: it computes, it does not write.
The runner prints its lines, then writes the new message atomically, so a crash or a timeout
never leaves a half-written message file.
"""
from __future__ import annotations

import datetime
import importlib
import os
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, NamedTuple

# hook name -> (module, function); the pre-commit framework's single message hook picks its stage itself
HOOKS = {
    "pre-commit": ("gitcontext.hooks.precommit", "pre_commit"),
    "prepare-commit-msg": ("gitcontext.hooks.prepare", "prepare_commit_msg"),
    "commit-msg": ("gitcontext.hooks.commitmsg", "commit_msg"),
    "msg": ("gitcontext.hooks.stage", "message_hook"),
}
ERROR_LOG = "gitcontext/hook-errors.log"


class HookCall(NamedTuple):
    hook: str
    root: Path
    git_dir: Path
    config: dict[str, Any]
    args: tuple[str, ...]
    staged: tuple[str, ...] = ()      # staged context files and .context/ paths (the fast path's finding)


class Outcome(NamedTuple):
    code: int
    lines: list[str]
    message: str | None = None        # new content of the message file (args[0]), if changed


def run_hook(hook: str, root: Path, git_dir: Path, args: list[str], staged: list[str] | None = None) -> int:
    from gitcontext.hooks.fast import load_config

    try:
        config = load_config(root)
    except Exception as exc:  # noqa: BLE001 - a bad config must not lock everyone out of committing
        return report_error(hook, git_dir, None, exc)
    if args:
        args = [str(Path(args[0]).resolve()), *args[1:]]
    call = HookCall(hook, root, git_dir, config, tuple(args), tuple(staged or ()))
    module, name = HOOKS[hook]
    result: list[Any] = []
    worker = threading.Thread(target=_work, args=(getattr(importlib.import_module(module), name), call, result),
                              daemon=True)
    worker.start()
    try:
        worker.join(config["hooks"]["time_budget"])
    except KeyboardInterrupt:
        _say(f"gitcontext: {hook} hook interrupted; nothing was written")
        return 130
    if not result:
        _say(f"gitcontext: {hook} hook stopped after its {config['hooks']['time_budget']:g} s budget "
             "(hooks.time_budget); the commit goes through unchecked")
        return 0
    if isinstance(result[0], BaseException):
        return report_error(hook, git_dir, config, result[0])
    outcome: Outcome = result[0]
    for line in outcome.lines:
        _say(line)
    if outcome.message is not None:
        write_atomically(Path(call.args[0]), outcome.message)
    return outcome.code


def _work(impl, call: HookCall, result: list[Any]) -> None:
    try:
        result.append(impl(call))
    except BaseException as exc:  # noqa: BLE001 - handed to the error policy in the main thread
        result.append(exc)


def report_error(hook: str, git_dir: Path | None, config: dict[str, Any] | None, exc: BaseException) -> int:
    """Say what happened, log the traceback, and pass or block by hooks.on_error."""
    policy = (config or {}).get("hooks", {}).get("on_error", "pass")
    _say(f"gitcontext: {hook} hook failed: {exc}")
    if git_dir is not None:
        log = git_dir / ERROR_LOG
        log.parent.mkdir(parents=True, exist_ok=True)
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        with log.open("a", encoding="utf-8") as fh:
            fh.write(f"--- {stamp} {hook}\n" + "".join(traceback.format_exception(exc)))
        _say(f"  details: {log}")
    if policy == "block":
        _say("  the commit is blocked (hooks.on_error: block); bypass once with --no-verify")
        return 1
    _say("  the commit goes through unchecked (hooks.on_error: pass)")
    return 0


def write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".gitcontext-tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
