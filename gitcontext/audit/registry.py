"""Every audit check by its stable id, with whether it runs by default and the precision that decides it.

Adding a check is adding a row. Each row names its module under gitcontext.audit.checks (which exposes
`CHECK`, a gitcontext.audit.finding.Check, and `run(ctx) -> Iterator[Finding]`; its docstring becomes its
section of docs/checks.md) and its gate: the precision rule of docs/design.md. A check is on by default
only when its findings were right at least PRECISION_RULE of the time in a hand-judged sample of real
repositories that were not used to develop it (`basis` "fresh"), or when it judges no text at all and
reports a fact of the repository's own record (`basis` "exact": a recorded verification failed, a note's
rationale is older than a threshold, a file is larger than its agent's documented read limit). Every other check runs only under `--experimental` or
`audit.experimental`, and its findings say so. A figure measured on the repositories a check was tuned on
is a development figure (`basis` "dev") and never turns a check on.
"""

from __future__ import annotations

from typing import NamedTuple

PRECISION_RULE = 0.85
BASES = ("fresh", "dev", "exact", "unmeasured")
ISSUE_26 = "hand review of a stratified sample over 6 fresh repositories (issue 26, before round 8's fixes)"
ROUND_8 = (
    "hand review of a stratified sample over 9 fresh repositories (round 8 session 2, bench/truth/, seed 26): "
    "jdx/mise, better-auth/better-auth, payloadcms/payload, instructor-ai/instructor, RooCodeInc/Roo-Code, "
    "sveltejs/svelte, remix-run/react-router, getsentry/sentry-python, pydantic/pydantic"
)
GC103_FIXED = (
    "hand review of a stratified sample of GC103 findings over remix-run/react-router and "
    "getsentry/sentry-python (fresh, round 8 session 2, seed 26), after three of this session's four fixes "
    "(1 of 12 on payloadcms/payload before them, 3 of 15 on RooCodeInc/Roo-Code after the first)"
)

GC100_SESSION_4 = (
    "hand review of GC100 findings on 7 fresh repositories (round 8 session 4, bench/truth/, seed 26), each "
    "fetched before and read after the code it measured was frozen: huggingface/trl 32/36, huggingface/chat-ui "
    "20/30, strands-agents/sdk-typescript 36/40, GoogleCloudPlatform/agent-starter-pack 19/40, huggingface/lerobot "
    "4/10, microsoft/graphrag 30/33, langchain-ai/open_deep_research 0/30 (the last two on the final code); the "
    "landed code before was 44/60 on e2b-dev/E2B and huggingface/huggingface_hub"
)
ROUND_8_DUPS = (
    "hand review of every GC200/GC203/GC204 finding over 3 fresh repositories (round 8 session 3, bench/truth/, "
    "before that session's fixes): electric-sql/electric, getsentry/sentry-cocoa, getsentry/sentry-mcp; GC204 "
    "adds TanStack/db, labelled fresh after the first fixes (0 of 6)"
)


class Gate(NamedTuple):
    module: str  # under gitcontext.audit.checks
    default: bool  # runs without --experimental
    basis: str  # one of BASES: where the precision figure comes from
    right: int = 0  # findings judged right in the sample
    sampled: int = 0  # findings judged
    sample: str = ""  # which sample, in words

    @property
    def precision(self) -> float | None:
        return self.right / self.sampled if self.sampled else None

    def describe(self) -> str:
        """The gate in one phrase, for --list-checks and experimental findings."""
        if self.basis == "exact":
            return "exact: a fact of the notes, history or tree"
        if self.precision is None:
            return "precision not measured yet"
        return f"precision {self.precision:.2f} ({self.right} of {self.sampled}, {self.basis} sample)"


def _fresh(module: str, right: int, sampled: int, sample: str = ROUND_8) -> Gate:
    return Gate(module, right / sampled >= PRECISION_RULE, "fresh", right, sampled, sample)


CHECKS: dict[str, Gate] = {
    "GC100": _fresh("gc100_orphan", 141, 219, GC100_SESSION_4),
    "GC101": Gate("gc101_unverified", True, "exact"),
    "GC102": Gate("gc102_scope_churn", False, "unmeasured"),
    "GC103": _fresh("gc103_dead_reference", 5, 15, GC103_FIXED),
    "GC104": Gate("gc104_superseded_ruling", True, "exact"),
    "GC105": Gate("gc105_reworded", True, "exact"),
    "GC106": _fresh("gc106_outlived", 0, 11),
    "GC107": Gate("gc107_verification_fails", True, "exact"),
    "GC108": Gate("gc108_stale_claim", False, "unmeasured"),
    "GC200": _fresh("gc200_duplicate", 5, 30, ROUND_8_DUPS),
    "GC201": Gate("gc201_falsified", True, "exact"),
    "GC203": _fresh("gc203_contradiction", 0, 1, ROUND_8_DUPS),
    "GC204": _fresh("gc204_twins", 0, 17, ROUND_8_DUPS),
    "GC300": _fresh("gc300_leaking_rationale", 0, 18),
    "GC301": Gate("gc301_budget", True, "exact"),  # sizes against documented limits; its docstring has the samples
    "GC302": Gate("gc302_ratchet", True, "exact"),
    "GC303": _fresh("gc303_unloaded_file", 0, 9, ISSUE_26),  # none in the round 8 sample
    "GC400": Gate("gc400_pressure", True, "exact"),
    "GC500": Gate("gc500_open_ask", True, "exact"),
}


def gate(check_id: str) -> Gate | None:
    return CHECKS.get(check_id)


def marked(check_id: str) -> str:
    """ " (experimental)" after the title of an experimental check's findings, else nothing."""
    return " (experimental)" if experimental(check_id) else ""


def experimental(check_id: str) -> bool:
    """Whether a check runs only when asked for (--experimental, audit.experimental, --check)."""
    row = CHECKS.get(check_id)
    return row is not None and not row.default
