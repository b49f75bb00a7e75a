"""The pre-commit framework's `gitcontext-msg` hook: one entry for two stages, told apart here.

The framework passes only the message file. It exports PRE_COMMIT_COMMIT_MSG_SOURCE in the
prepare-commit-msg stage when git gave a source (message, template, merge, squash, commit). Without
a source, prepare-commit-msg sees a message with no text yet (only comments), while commit-msg sees
what the author wrote; an empty message at commit-msg is aborted by git anyway.
"""

from __future__ import annotations

import os
from pathlib import Path

from gitcontext.hooks.message import body, comment_char
from gitcontext.hooks.runner import HookCall, Outcome


def message_hook(call: HookCall) -> Outcome:
    from gitcontext.hooks.commitmsg import commit_msg
    from gitcontext.hooks.prepare import prepare_commit_msg

    source = os.environ.get("PRE_COMMIT_COMMIT_MSG_SOURCE")
    if source:
        return prepare_commit_msg(call._replace(hook="prepare-commit-msg", args=(call.args[0], source)))
    message = Path(call.args[0]).read_text(encoding="utf-8")
    if not body(message, comment_char(call.root)).strip():
        return prepare_commit_msg(call._replace(hook="prepare-commit-msg"))
    return commit_msg(call._replace(hook="commit-msg"))
