"""`completion bash|zsh|fish`: shell completion for `git context …`, `git-context …` and `gitcontext …`.

The scripts ask the program itself (click's completion protocol, `_GIT_CONTEXT_COMPLETE`), so they
complete every command, option and choice of the installed version, and a TARGET from the repository:
the instructions' ids (with their file, line and text as the description zsh and fish show), `FILE:LINE`
once a `:` is typed, and the context files. Under `git context`, bash's git completion calls
`_git_context` and zsh's calls `_git-context`; both drop the leading `git`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from click.shell_completion import CompletionItem

from gitcontext.errors import GitContextError

BASH = r"""# gitcontext completion for bash: eval "$(git context completion bash)"
__gitcontext_complete() {   # $1: how many leading words to drop ("git" under `git context`)
    local IFS=$'\n' completion type value
    local -a words_=("${COMP_WORDS[@]:$1}")
    words_[0]=git-context
    COMPREPLY=()
    for completion in $(env COMP_WORDS="${words_[*]}" COMP_CWORD=$((COMP_CWORD - $1)) \
                        _GIT_CONTEXT_COMPLETE=bash_complete git-context 2>/dev/null); do
        IFS=',' read -r type value <<< "$completion"
        case $type in
            dir) compopt -o dirnames 2>/dev/null ;;
            file) compopt -o default 2>/dev/null ;;
            plain) COMPREPLY+=("$value") ;;
        esac
    done
}
_gitcontext() { __gitcontext_complete 0; }
_git_context() { __gitcontext_complete 1; }     # called by git's own completion for `git context`
complete -o nosort -F _gitcontext git-context gitcontext 2>/dev/null || complete -F _gitcontext git-context gitcontext
"""

ZSH = r"""#compdef git-context gitcontext
# gitcontext completion for zsh: eval "$(git context completion zsh)"
__gitcontext_complete() {   # $1: how many leading words to drop
    local -a response completions described
    local type key descr
    response=("${(@f)$(env COMP_WORDS="git-context ${words[*]:$(( $1 + 1 ))}" \
        COMP_CWORD=$((CURRENT - 1 - $1)) _GIT_CONTEXT_COMPLETE=zsh_complete git-context 2>/dev/null)}")
    for type key descr in ${response}; do
        case $type in
            plain) if [[ $descr == _ ]]; then completions+=("$key"); else described+=("$key":"$descr"); fi ;;
            dir) _path_files -/ ;;
            file) _path_files -f ;;
        esac
    done
    (( ${#described} )) && _describe -V unsorted described -U
    (( ${#completions} )) && compadd -U -V unsorted -a completions
}
_gitcontext() { __gitcontext_complete 0; }
_git-context() { __gitcontext_complete 1; }     # called by zsh's git completion for `git context`
compdef _gitcontext git-context gitcontext
"""

FISH = r"""# gitcontext completion for fish: git context completion fish | source
function __gitcontext_complete
    set -l words (commandline -cp | string split -n ' ')
    if test "$words[1]" = git; set -e words[1]; end
    set words[1] git-context
    set -l response (env _GIT_CONTEXT_COMPLETE=fish_complete COMP_WORDS="$words" \
        COMP_CWORD=(commandline -t) git-context 2>/dev/null)
    for completion in $response
        set -l metadata (string split "," $completion)
        switch $metadata[1]
            case dir; __fish_complete_directories $metadata[2]
            case file; __fish_complete_path $metadata[2]
            case plain; echo $metadata[2]
        end
    end
end
complete --no-files --command git-context --arguments "(__gitcontext_complete)"
complete --no-files --command gitcontext --arguments "(__gitcontext_complete)"
complete --no-files --command git --condition "__fish_seen_subcommand_from context" --arguments "(__gitcontext_complete)"
"""

SCRIPTS = {"bash": BASH, "zsh": ZSH, "fish": FISH}


def targets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A TARGET: instruction ids, `FILE:LINE` after a colon, and the context files."""
    found = _repository()
    if found is None:
        return []
    root, config = found
    from gitcontext.report.listing import listing

    try:
        rows = listing(root, config, [])
    except (GitContextError, OSError):
        rows = []
    if ":" in incomplete:
        places = ((f"{r['file']}:{r['line']}", r) for r in rows)
        return [CompletionItem(place, help=_short(r["text"])) for place, r in places if place.startswith(incomplete)]
    items = [
        CompletionItem(r["id"], help=f"{r['file']}:{r['line']} {_short(r['text'])}")
        for r in rows
        if r["id"].startswith(incomplete)
    ]
    return items + _files(root, config, incomplete)


def context_files(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A context file (as discovery finds them), for `ls`, `render`, `budget` and `history`."""
    found = _repository()
    return _files(*found, incomplete) if found else []


def _files(root: Path, config: dict[str, Any], incomplete: str) -> list[CompletionItem]:
    from gitcontext.instructions.discover import discover

    try:
        paths = discover(root, config)
    except (GitContextError, OSError):
        return []
    return [CompletionItem(p, help="context file") for p in paths if p.startswith(incomplete)]


def _repository() -> tuple[Path, dict[str, Any]] | None:
    """The repository the shell is in and its config, or None (no completion rather than an error)."""
    from gitcontext import config as config_mod
    from gitcontext import git

    try:
        root = git.toplevel(Path.cwd())
        return root, config_mod.load(root)
    except (GitContextError, OSError):
        return None


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 60 else line[:59] + "…"


@click.command("completion")
@click.argument("shell", type=click.Choice(sorted(SCRIPTS)))
def completion_cmd(shell: str) -> int:
    """Print the completion script for SHELL.

    \b
    bash:  eval "$(git context completion bash)"     (in ~/.bashrc, after git's completion)
    zsh:   eval "$(git context completion zsh)"      (in ~/.zshrc, after compinit)
    fish:  git context completion fish > ~/.config/fish/completions/git-context.fish
    """
    click.echo(SCRIPTS[shell], nl=False)
    return 0
