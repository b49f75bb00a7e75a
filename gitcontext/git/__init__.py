"""The one door to git: every process gitcontext starts goes through `run` or `stream`.

Small named queries on top, `-z`/`%x00` formats parsed once. No GitPython here: the hook fast
path, the merge driver and history replay all stream the git CLI.

A package of small modules by topic (process, revisions, repo, objects, trailers, churn, history, merging,
removals, worktrees); every public name is re-exported here, so callers write `from gitcontext import git` and
`git.run(...)`, and nothing else starts a git process."""
from __future__ import annotations

from gitcontext.git.process import (  # noqa: F401
    PINNED_TRAILER_CONFIG,
    failure,
    run,
    run_status,
    stream,
    text,
)
from gitcontext.git.revisions import (  # noqa: F401
    EOO,
    check_rev,
)
from gitcontext.git.repo import (  # noqa: F401
    common_dir,
    config_get,
    config_matching,
    config_set,
    git_dir,
    has_commits,
    hooks_dir,
    is_shallow,
    own_git_dir,
    rev_parse,
    toplevel,
)
from gitcontext.git.objects import (  # noqa: F401
    Status,
    blob_at,
    check_ignore,
    commit_meta,
    common_dir_and_head,
    listed_once,
    ls_files,
    ls_tree,
    remember_listing,
    staged_paths,
    status_paths,
)
from gitcontext.git.trailers import (  # noqa: F401
    add_trailers,
    parse_trailers,
    read_blobs,
    tree_entries,
)
from gitcontext.git.churn import (  # noqa: F401
    MAX_PATHSPECS,
    NumstatRow,
    RawRow,
    diff_numstat,
    index_sizes,
    log_numstat,
    object_sizes,
    staged_raw,
    write_tree,
)
from gitcontext.git.history import (  # noqa: F401
    added_files,
    changed_since,
    default_branch,
    diff_names,
    existing,
    first_added,
    log_bodies,
    log_numstat_dated,
    log_trailers,
    merge_base,
    message_text,
    renamed_or_deleted,
    rev_list,
    run_shell,
)
from gitcontext.git.merging import (  # noqa: F401
    attr_set,
    check_attr,
    merge_bases,
    merge_commits,
    merge_file,
    modified_paths,
    tree_entry,
)
from gitcontext.git.removals import (  # noqa: F401
    Removal,
    blame_lines,
    grep_words,
    log_removals,
)
from gitcontext.git.worktrees import (  # noqa: F401
    commit_messages,
    renamed_paths,
    run_command,
    worktree_add,
    worktree_paths,
    worktree_remove,
)
from gitcontext.errors import GitError, UnknownRevision, UserError  # noqa: F401
