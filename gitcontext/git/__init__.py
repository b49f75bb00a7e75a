"""The one door to git: every process gitcontext starts goes through `run` or `stream`.

Small named queries on top, `-z`/`%x00` formats parsed once. No GitPython here: the hook fast
path, the merge driver and history replay all stream the git CLI.

A package of small modules by topic (process, revisions, repo, objects, trailers, churn, history, merging,
removals, worktrees; spawn starts the processes); every public name is re-exported here, so callers write
`from gitcontext import git` and `git.run(...)`, and nothing else starts a git process.

The re-exports are resolved on first use (PEP 562): a command imports only the modules whose queries it
runs, so the hook's fast path, which needs two of them, does not pay for ten."""

from __future__ import annotations

_HOME = {
    name: module
    for module, names in (
        (
            "gitcontext.git.process",
            "PINNED_TRAILER_CONFIG Started close_ahead failure run run_status started stream text",
        ),
        ("gitcontext.git.revisions", "EOO check_rev"),
        (
            "gitcontext.git.repo",
            "common_dir config_get config_matching config_set forget_head git_dir has_commits hooks_dir is_shallow "
            "know_head known_head own_git_dir rev_parse toplevel",
        ),
        (
            "gitcontext.git.objects",
            "Status blob_at check_ignore commit_meta common_dir_and_head listed_once ls_files ls_tree "
            "remember_listing staged_paths start_status status_paths",
        ),
        (
            "gitcontext.git.trailers",
            "add_trailers log_bodies log_trailers message_text parse_trailers read_blobs start_log_trailers "
            "start_read_blobs start_trailer_logs start_tree_entries tree_entries",
        ),
        (
            "gitcontext.git.churn",
            "MAX_PATHSPECS NumstatRow RawRow diff_numstat index_sizes log_numstat object_sizes staged_raw write_tree",
        ),
        (
            "gitcontext.git.history",
            "added_files changed_since default_branch diff_names existing first_added log_numstat_dated merge_base "
            "renamed_or_deleted rev_list run_shell",
        ),
        (
            "gitcontext.git.merging",
            "attr_set check_attr merge_bases merge_commits merge_file modified_paths tree_entry",
        ),
        ("gitcontext.git.removals", "Removal blame_lines grep_words log_removals"),
        (
            "gitcontext.git.worktrees",
            "commit_messages renamed_paths run_command worktree_add worktree_paths worktree_remove",
        ),
        ("gitcontext.errors", "GitError UnknownRevision UserError"),
    )
    for name in names.split()
}


def __getattr__(name: str) -> object:
    """NAME from the module that defines it, imported now and kept here for the next lookup."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(__import__(module, fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
