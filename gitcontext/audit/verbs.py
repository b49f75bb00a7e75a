"""The verbs an instruction opens with, and the few of them that also name a kind of thing.

A line opening with one of VERBS tells the agent to do something ("Run the tests", "Pin a memory"); a
label opening with a verb that also names a thing ("Test files", "Build output") is a name, not a command.
"""

from __future__ import annotations

from collections.abc import Sequence

VERBS = frozenset(
    """add adjust align allow analyse analyze annotate apply ask assert assign assume attach avoid await back be bootstrap
build bump bundle call cancel capture catch change check choose cite clean clear clone close collect colocate combine commit
compare compile compose configure confirm consider consult continue convert coordinate copy create cut debounce debug declare decline dedupe deduplicate
define delegate delete deploy describe design detect diagnose disable discuss document double-check download draft
drop edit embed emit enable encode enforce ensure enter escape evaluate examine exclude execute expand expect explain explore
export extend extract fail favor favour fetch fill filter find fix flag focus follow force format fuse gather generate get
give grep group handle hide highlight identify ignore implement import include increment infer inform inherit
initialize insert insist inspect install introduce investigate invoke isolate iterate jump justify keep kill label launch
lead leave leverage limit link lint list load lock log look maintain make manage mark maximize measure memoize mention merge
migrate minimize mirror mock modify monitor move name normalize note notify omit open optimize order organize outline
output overwrite parse pass paste pause perform persist pick pin place plan poll populate post prefer prepare preserve
print prioritize proceed produce prompt propose protect provide prune publish pull push put query question raise
re-run read rebase rebuild recommend recompile record redact reduce refactor refer reference refrain refresh
regenerate register reinstall reject relax release reload rely remember remind remove rename render reopen reorder
repeat replace report reproduce request require rerun reset resolve respect restart restore resume retain retry return
reuse revert review revisit rewrite run sanitize save scan scrutinize search select send separate serialize set share show sign
simplify skip sort spawn specify split squash stage start state stay step stick stop store strip structure study
submit suggest summarize supply suppress swap switch sync tag take tell terminate test think throw tidy toggle touch
trace track transform translate treat trigger trim try tune turn type uninstall unset unwrap update upgrade upload use
validate verify view visit wait warn watch wrap write""".split()
)


# verbs that also name a kind of thing before a noun ("Test files", "Build output", "Read operations"): a label
# opening with one of them and a plural or a noun of kind is a name, not a command ("Update snapshots" is one)
_NOUN_VERBS = frozenset(
    "build change commit debug deploy design export filter format import list load log order plan process read record "
    "release report review search set sort stage state step test trace track type view watch write".split()
)


_KINDS = frozenset(
    "output outputs artifact artifacts directory folder system process pipeline time tool config configuration mode "
    "status result target cache order step script file dir".split()
)


def names_thing(words: Sequence[str]) -> bool:
    """WORDS (casefolded, a label's) name a thing though a verb opens them: a verb that also names a kind of
    thing, then a plural, a gerund or a noun of kind ("Test files", "Read operations", "Type checking", "Build
    output"); not "Update snapshots", "Run tests" nor "Create directory" (a verb that names no thing)."""
    if len(words) < 2 or words[0] not in _NOUN_VERBS:
        return False
    return words[1] in _KINDS or words[1].endswith(("s", "ing"))
