"""Run one hook inside its time budget and error policy; the only place a hook writes a file.

A hook implementation is a function `(HookCall) -> Outcome`: it computes, it does not write.
It runs in a forked child the runner can kill when the budget is spent (a regular expression
holds the interpreter lock, so a thread could not be stopped, nor even waited for); where there
is no fork (Windows) it runs in a thread. The runner prints its lines, then writes the new message
atomically, so a crash or a timeout never leaves a half-written message file. Every internal
error, an unwritable `.git/gitcontext` included, fails open (or blocks, by hooks.on_error) with one
visible line.
"""

from __future__ import annotations

import importlib
import marshal
import os
import select
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.hooks.hookconfig import load_config

# hook name -> (module, function); the pre-commit framework's single message hook picks its stage itself
HOOKS = {
    "pre-commit": ("gitcontext.hooks.precommit", "pre_commit"),
    "prepare-commit-msg": ("gitcontext.hooks.prepare", "prepare_commit_msg"),
    "commit-msg": ("gitcontext.hooks.commitmsg", "commit_msg"),
    "msg": ("gitcontext.hooks.stage", "message_hook"),
}
ERROR_LOG = "gitcontext/hook-errors.log"
MAX_LOG_BYTES = 1 << 20
MAX_ENTRY_CHARS = 20_000


class HookCall(NamedTuple):
    hook: str
    root: Path
    git_dir: Path
    config: dict[str, Any]
    args: tuple[str, ...]
    staged: tuple[str, ...] = ()  # staged context files and .context/ paths (the fast path's finding)
    churn: tuple | None = None  # pre-commit: numstat rows of the files that may reach a pressure tier


class Outcome(NamedTuple):
    code: int
    lines: list[str]
    message: str | None = None  # new content of the message file (args[0]), if changed


class HookFailure(Exception):
    """An error raised in the hook's child process, carried back as text."""

    def __init__(self, message: str, details: str) -> None:
        super().__init__(message, details)
        self.message, self.details = message, details

    def __str__(self) -> str:
        return self.message


def run_hook(
    hook: str, root: Path, git_dir: Path, args: list[str], staged: list[str] | None = None, churn: list | None = None
) -> int:
    try:
        config = load_config(root)
    except Exception as exc:  # noqa: BLE001 - a bad config must not lock everyone out of committing
        return report_error(hook, git_dir, None, exc)
    if args:
        args = [str(Path(args[0]).resolve()), *args[1:]]
    call = HookCall(
        hook, root, git_dir, config, tuple(args), tuple(staged or ()), None if churn is None else tuple(churn)
    )
    budget = config["hooks"]["time_budget"]
    try:
        module, name = HOOKS[hook]
        impl = getattr(importlib.import_module(module), name)
        status, value = (_in_child if hasattr(os, "fork") else _in_thread)(impl, call, budget)
    except KeyboardInterrupt:
        _say(f"gitcontext: {hook} hook interrupted; nothing was written")
        return 130
    except Exception as exc:  # noqa: BLE001 - the runner itself must fail open too
        return report_error(hook, git_dir, config, exc)
    if status == "timeout":
        _say(
            f"gitcontext: {hook} hook stopped after its {budget:g} s budget "
            "(hooks.time_budget); the commit goes through unchecked"
        )
        return 0
    if status == "error":
        return report_error(hook, git_dir, config, value)
    outcome: Outcome = value
    try:
        for line in outcome.lines:
            _say(line)
        if outcome.message is not None:
            write_atomically(Path(call.args[0]), outcome.message)
    except Exception as exc:  # noqa: BLE001
        return report_error(hook, git_dir, config, exc)
    return outcome.code


def _in_child(impl, call: HookCall, budget: float) -> tuple[str, Any]:
    """Run IMPL(CALL) in a forked child; ("ok", Outcome) | ("error", HookFailure) | ("timeout", None)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave without cleanup
        os.close(read_end)
        try:
            _send(write_end, _work(impl, call))
        finally:
            os._exit(0)
    os.close(write_end)
    data = None  # interrupted or out of time: the child is killed
    try:
        data = _receive(read_end, time.monotonic() + budget)
    finally:
        os.close(read_end)
        if data is None:
            kill_and_reap(pid)
        else:
            os.waitpid(pid, 0)
    if data is None:
        return "timeout", None
    if not data:
        return "error", HookFailure("the hook's process died before it answered", "")
    status, fields = marshal.loads(data)  # our own child's answer, in _send's shape
    return status, (Outcome(*fields) if status == "ok" else HookFailure(*fields))


def kill_and_reap(pid: int) -> None:
    """Stop child PID for good and collect its exit (no zombie); a child already gone is fine."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _send(fd: int, result: tuple[str, Any]) -> None:
    """RESULT as plain values through marshal (built in; pickle costs every hook 2 ms to import)."""
    status, value = result
    fields: tuple[Any, ...]
    if status == "ok":
        fields = (int(value.code), [str(line) for line in value.lines], value.message)
    else:
        fields = (value.message, value.details)
    try:
        data = marshal.dumps((status, fields))
    except ValueError as exc:  # a message that is not a str: a bug, said as one
        data = marshal.dumps(("error", (f"the hook's answer cannot be sent: {exc}", "")))
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _receive(fd: int, deadline: float) -> bytes | None:
    """Everything the child writes until it closes the pipe; None when DEADLINE passes first."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _in_thread(impl, call: HookCall, budget: float) -> tuple[str, Any]:
    result: list[tuple[str, Any]] = []
    worker = threading.Thread(target=lambda: result.append(_work(impl, call)), daemon=True)
    worker.start()
    worker.join(budget)
    return result[0] if result else ("timeout", None)


def _work(impl, call: HookCall) -> tuple[str, Any]:
    try:
        return "ok", impl(call)
    except BaseException as exc:  # noqa: BLE001 - handed to the error policy by the runner
        import traceback  # only on failure: 5 ms of imports every hook would pay

        return "error", HookFailure(str(exc), "".join(traceback.format_exception(exc)))


def report_error(hook: str, git_dir: Path | None, config: dict[str, Any] | None, exc: BaseException) -> int:
    """Say what happened, log the traceback (redacted), and pass or block by hooks.on_error.

    Never raises: an unwritable log is said in one line and the policy still applies.
    """
    policy = (config or {}).get("hooks", {}).get("on_error", "pass")
    first = str(exc).split("\n")[0]
    _say(f"gitcontext: {hook} hook failed: {first[:300]}")
    if git_dir is not None:
        _log(hook, git_dir, exc)
    if policy == "block":
        _say("  the commit is blocked (hooks.on_error: block); bypass once with --no-verify")
        return 1
    _say("  the commit goes through unchecked (hooks.on_error: pass)")
    return 0


def _log(hook: str, git_dir: Path, exc: BaseException) -> None:
    log = git_dir / ERROR_LOG
    try:
        import datetime
        import traceback

        from gitcontext.provenance.redact import redact

        details = exc.details if isinstance(exc, HookFailure) else "".join(traceback.format_exception(exc))
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        log.parent.mkdir(parents=True, exist_ok=True)
        if log.exists() and log.stat().st_size > MAX_LOG_BYTES:
            os.replace(log, log.with_suffix(".log.1"))  # bounded: one old log kept
        with log.open("a", encoding="utf-8") as fh:
            fh.write(redact(f"--- {stamp} {hook}\n{details[-MAX_ENTRY_CHARS:]}").text)
        _say(f"  details: {log}")
    except Exception as err:  # noqa: BLE001 - nowhere to log is not a reason to block a commit
        _say(f"  (could not write {log}: {getattr(err, 'strerror', None) or err})")


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
