"""Fuzz every parser that reads repository content: crashes, hangs over 1 s and invariant breaks.

    python bench/fuzz.py                 # 100,000 inputs per parser (restore quotes alone: ~20 min of CPU)
    python bench/fuzz.py --n 5000 --seed 3

Inputs are mutations of real seeds (the segmentation golden cases, notes and configs as gitcontext
writes them, the attack's hostile inputs) plus random bytes: tokens inserted, cut, repeated up to
3,000 times (long runs are what made the old code-span regex cubic). A "crash" is any exception but
the parser's documented UserError; a "hang" is one input over 1 s of CPU time (each input is stopped at
5 s of CPU time: the machine is shared, and wall time there measures the other processes); an
"invariant break" is a result that breaks the parser's contract (see CHECKS). All must be zero. A "miss"
(restore quotes only) is a quote history holds that the un-redaction did not find: restore then says so
and asks for the markers to be replaced by hand; it is counted apart, not as a break.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gitcontext import config  # noqa: E402
from gitcontext.errors import UserError  # noqa: E402
from gitcontext.instructions.blocks import split_lines  # noqa: E402
from gitcontext.instructions.discover import decode  # noqa: E402
from gitcontext.instructions.frontmatter import front_matter, scope_globs  # noqa: E402
from gitcontext.instructions.globs import compile_globs  # noqa: E402
from gitcontext.instructions.segment import segment  # noqa: E402
from gitcontext.provenance import quote  # noqa: E402
from gitcontext.provenance.events import dumps, new_event  # noqa: E402
from gitcontext.provenance.quote import _unredact  # noqa: E402
from gitcontext.provenance.redact import is_redacted, redact  # noqa: E402
from gitcontext.provenance.store import validate_note_text  # noqa: E402
from gitcontext.provenance.sync import _fields  # noqa: E402
from gitcontext.provenance.trailers import from_pairs  # noqa: E402
from tests.provenance.redaction import corpus as redaction_corpus  # noqa: E402

NOTE = ".context/notes/ctx-0123456789ab.jsonl"
TOKENS = [
    "`",
    "```",
    "~~~",
    "-",
    "* ",
    "1. ",
    "#",
    "# ",
    ">",
    "|",
    "---",
    "\n",
    "\r\n",
    " ",
    "\t",
    "<!--",
    "-->",
    "**",
    "__",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ":",
    ".",
    "e.g.",
    "\u2028",
    "\ufeff",
    "\x00",
    "\xff",
    "é",
    "&a",
    "*a",
    "!!python/object",
    "9" * 50,
    '"',
    "'",
    "\\",
    "ctx-0123456789ab",
    "Context-Why: ",
    "[REDACTED:",
    "sk_live_",
    "ghp_",
    "://u:p@h",
    "password=",
    "Bearer ",
    "-----END PRIVATE KEY-----",
    "-----BEGIN RSA PRIVATE KEY-----\n",
    "PuTTY-User-Key-File-3: ",
    "\\n",
    "Authorization: ",
    "Cookie: a=",
    "eyJ",
    "api_key=",
    '"token": "',
    "mysql -p",
    "-u a:",
    "<password>",
    "name: X_TOKEN\nvalue: ",
    "=",
    "AAAA",
]


_MARKER = re.compile(r"\[REDACTED:[a-z0-9\-]+\]")


class Hang(Exception):
    pass


def _alarm(*_: object) -> None:
    raise Hang()


def seeds() -> dict[str, list[str]]:
    cases = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests/cases/segment").glob("*.md"))]
    event = new_event(
        "added",
        "ctx-0123456789ab",
        "cli",
        at="2026-01-01T00:00:00Z",
        eid="e-0000000000000001",
        file="CLAUDE.md",
        text="Use uv for installs.",
    )
    retired = {
        **event,
        "eid": "e-0000000000000002",
        "kind": "retired",
        "reason": "r",
        "restore": {"text": "- Use uv.\n", "file": "CLAUDE.md", "before": "", "after": "", "line": 3},
    }
    del retired["file"], retired["text"]
    return {
        "markdown": cases or ["# Rules\n\n- Use uv for installs.\n- Run `pytest -q`. Then push.\n"],
        "note": [dumps(event), dumps(event) + dumps(retired)],
        "config": [
            "version: 1\nhooks:\n  time_budget: 5\naudit:\n  stale_days: 90\n",
            "discovery:\n  include: ['**/CLAUDE.md', '{a,b}/*.md']\n",
        ],
        "front": ["---\ndescription: x\nglobs: **/*.ts\nalwaysApply: false\n---\n- Rule one.\n"],
        "trailer": [
            "Context-Why: pip broke the lockfile",
            "Context-Id: ctx-0123456789ab added",
            "Context-Falsified: ctx-0123456789ab: pip -> broke",
            "Context-Refs: #1, #2",
        ],
        "glob": ["**/CLAUDE.md", ".cursor/rules/**/*.mdc", "{a,{b,c}}/?.md"],
        "history": [
            "# Rules\n\n- Use uv.\n- Call the API with " + row.text + " in CI.\n- Run the tests.\n"
            for row in redaction_corpus.secrets()[:60]
        ]
        + [  # multi-line secrets (key blocks) in a rule and in its surroundings
            f"# Keys\n\n- Use uv.\n- Sign with:\n{row.text}\n- Run the tests.\n"
            for row in redaction_corpus.secrets()
            if row.cls == "private-key"
        ],
        "secrets": [row.text for row in redaction_corpus.secrets()] + [t for _, t in redaction_corpus.ordinary()],
    }


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 6)):
        op, pos = rng.random(), rng.randint(0, len(text))
        token = rng.choice(TOKENS)
        if op < 0.45:
            text = text[:pos] + token + text[pos:]
        elif op < 0.6:
            text = text[:pos] + token * rng.choice([2, 10, 100, 1000, 3000]) + text[pos:]
        elif op < 0.8:
            text = text[:pos] + text[pos + rng.randint(1, 20) :]
        elif op < 0.9 and text:
            a = rng.randint(0, len(text) - 1)
            text = text[:pos] + text[a : a + rng.randint(1, 200)] + text[pos:]
        else:
            text = text[:pos] + "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(1, 8))) + text[pos:]
    return text[:200_000]


# ---- each parser and its contract: return None when the result holds, else what broke ---------------


def check_segment(text: str) -> str | None:
    lines = max(1, len(split_lines(text)))
    for n, inst in enumerate(segment(text, "CLAUDE.md")):
        if inst.index != n or not 1 <= inst.line <= inst.end_line <= lines or not inst.text.strip():
            return f"bad instruction {inst!r}"[:200]
    return None


def check_decode(text: str) -> str | None:
    try:
        decode("CLAUDE.md", text.encode("utf-8", "surrogatepass"))
    except UserError as exc:
        return None if exc.path == "CLAUDE.md" and len(str(exc)) < 1000 else "unbounded or unnamed error"
    return None


def check_note(text: str) -> str | None:
    try:
        events = validate_note_text(NOTE, text if text.endswith("\n") else text + "\n")
    except UserError as exc:
        ok = exc.path == NOTE and (exc.line or 0) >= 1 and len(str(exc)) < 1500
        return None if ok else f"error without file:line or unbounded ({len(str(exc))} chars)"
    for e in events:
        dumps(e).encode("utf-8")
    return None


def check_config(text: str) -> str | None:
    try:
        loaded = config.parse(text.encode("utf-8", "surrogatepass"))
    except UserError as exc:
        return None if config.CONFIG_PATH in str(exc) and len(str(exc)) < 800 else "unnamed or unbounded error"
    budget = loaded["hooks"]["time_budget"]
    return None if 0.1 <= budget <= 600 and loaded["version"] == 1 else f"out of range accepted: {budget!r}"


def check_front(text: str) -> str | None:
    meta = front_matter(text)
    if not isinstance(meta, dict) or not all(isinstance(g, str) for g in scope_globs(meta)):
        return "front matter is not a dict of str globs"
    return None


def check_trailer(text: str) -> str | None:
    key, _, value = text.partition(":")
    for t in from_pairs([(key, value)]):
        kind, fields = _fields(t)
        if kind is not None:
            try:
                dumps(new_event(kind, "ctx-0123456789ab", "trailer:0123456789abcdef", **fields)).encode("utf-8")
            except UserError:
                pass
    return None


def check_redact(text: str) -> str | None:
    """Redacting twice changes nothing, and what is left outside the markers is the input, in order."""
    once = redact(text).text
    if redact(once).text != once:
        return "redacting twice changed the text"
    pos = 0
    for piece in _MARKER.split(once):
        found = text.find(piece, pos)
        if found < 0:
            return f"text outside the markers is not the input's: {piece[:60]!r}"
        pos = found + len(piece)
    return None


def check_quote(text: str) -> str | None:
    """A restore quote cut from TEXT and redacted as a retire stores it comes back from TEXT (the history)
    byte-exact, or not at all: never other bytes."""
    lines = quote._lines(text)  # only \n ends a line, as in a quote
    if not lines:
        return None
    at = next((n for n, line in enumerate(lines) if is_redacted(redact(line).text)), len(lines) // 2)
    start = sum(len(line) for line in lines[:at])
    stored = {
        "before": "".join(lines[max(0, at - 3) : at]),
        "text": lines[at],
        "after": "".join(lines[at + 1 : at + 4]),
    }
    kept = {**{k: redact(v).text for k, v in stored.items()}, "offset": start}
    found = _unredact(text, kept)
    if found is None:
        return (
            None
            if kept == {**stored, "offset": start} or _ambiguous(text, stored)
            else "miss: lost a quote history holds"
        )
    if any(redact(found[k]).text != kept[k] for k in stored):
        return "un-redacted parts do not redact back to the quote"
    if found["before"] + found["text"] + found["after"] not in text:
        return "un-redacted quote is not in the history"
    return None


def _ambiguous(text: str, stored: dict[str, str]) -> bool:
    """The quote's bytes are not where restore looks: split across parts a redaction reads as one, or one
    of several equal windows with no context to tell them apart."""
    whole = stored["before"] + stored["text"] + stored["after"]
    if any(len(line) > quote.MAX_LINE and is_redacted(redact(line).text) for line in quote._lines(whole)):
        return True  # a documented bound: a line longer than quote.MAX_LINE holding a secret is not searched
    return text.count(whole) != 1 or redact(whole).text != "".join(redact(v).text for v in stored.values())


def check_paste(text: str) -> str | None:
    """Up to three instructions cut from TEXT one after another: pasted back newest first, TEXT comes back
    byte-exact; pasted in retire order (each with the others' quotes as neighbours, as `restore` does),
    no paste loses its piece or fails."""
    cuts, current = [], text
    for pick in (0, 0.5, 1.0):
        now = segment(current, "CLAUDE.md")
        if not now:
            break
        inst = now[int(pick * (len(now) - 1))]
        current, one = quote.cut(current, inst, [o for o in now if o.index != inst.index])
        cuts.append(one)
    back = current
    for one in reversed(cuts):
        back = quote.paste(back, one)[0]
    if back != text:
        return "newest-first pastes did not give the text back"
    forward = current
    for one in cuts:
        pasted = quote.paste(forward, one, [c for c in cuts if c is not one])[0]
        if one["text"].strip() not in pasted:  # a piece cut from inside a line goes back as a line of its own
            return "a paste lost its piece"
        forward = pasted
    return None


def check_glob(text: str) -> str | None:
    try:
        compile_globs(tuple(text.split("\n")[:4])).match("a/b/CLAUDE.md")
    except UserError as exc:
        return None if "glob" in str(exc) and len(str(exc)) < 600 else "unbounded error"
    return None


def check_audit_text(text: str) -> str | None:
    """What the audit extracts from a context file: references (GC103) and counts claimed (GC108)."""
    from gitcontext.audit.claims import claims
    from gitcontext.audit.references import references

    lines = text.count("\n") + 1
    if any(not 1 <= c.line <= lines for c in claims("AGENTS.md", text, lambda tree: ("", 0))):
        return "a claim outside the file"
    if any(not 1 <= r.line <= lines for r in references("AGENTS.md", text)):
        return "a reference outside the file"
    return None


PARSERS: dict[str, tuple[str, Callable[[str], str | None]]] = {
    "segment": ("markdown", check_segment),
    "decode": ("markdown", check_decode),
    "note": ("note", check_note),
    "config": ("config", check_config),
    "front-matter": ("front", check_front),
    "trailer": ("trailer", check_trailer),
    "redact": ("secrets", check_redact),
    "restore-quote": ("history", check_quote),
    "paste": ("markdown", check_paste),
    "glob": ("glob", check_glob),
    "audit-text": ("markdown", check_audit_text),
}


def run(name: str, n: int, seed: int) -> dict[str, object]:
    kind, check = PARSERS[name]
    pool, rng = seeds()[kind], random.Random(f"{seed}:{name}")
    counts = {"inputs": 0, "crashes": 0, "hangs": 0, "breaks": 0, "misses": 0, "slowest_s": 0.0}
    first: list[str] = []
    started = time.monotonic()
    for _ in range(n):
        text = (
            mutate(rng, rng.choice(pool))
            if rng.random() < 0.9
            else bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 300))).decode("latin-1")
        )
        signal.setitimer(signal.ITIMER_PROF, 5.0)
        t0, hung = time.process_time(), False
        try:
            problem = check(text)
        except Hang:
            problem, hung = None, True
        except Exception as exc:  # noqa: BLE001 - a crash is what we count
            problem, counts["crashes"] = None, counts["crashes"] + 1
            first.append(f"crash {type(exc).__name__}: {exc!s:.80} on {text[:80]!r}")
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        took = time.process_time() - t0
        counts["slowest_s"] = max(counts["slowest_s"], round(took, 3))
        if hung or took > 1.0:
            counts["hangs"] += 1
            first.append(f"over 1 s ({took:.2f} s{', stopped' if hung else ''}): {text[:80]!r}")
        if problem and problem.startswith("miss:"):  # not wrong, only incomplete: counted apart
            counts["misses"] += 1
            first.append(problem)
        elif problem:
            counts["breaks"] += 1
            first.append(f"break: {problem}")
        counts["inputs"] += 1
    counts["seconds"] = round(time.monotonic() - started, 1)
    counts["examples"] = first[:3]
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="inputs per parser")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(PARSERS), action="append")
    args = parser.parse_args()
    signal.signal(signal.SIGPROF, _alarm)
    print(
        f"{'parser':<13} {'inputs':>8} {'crashes':>8} {'hangs>1s':>9} {'breaks':>7} {'misses':>7} "
        f"{'slowest s':>10} {'total s':>8}"
    )
    bad = 0
    for name in args.only or PARSERS:
        c = run(name, args.n, args.seed)
        bad += int(c["crashes"]) + int(c["hangs"]) + int(c["breaks"])
        print(
            f"{name:<13} {c['inputs']:>8} {c['crashes']:>8} {c['hangs']:>9} {c['breaks']:>7} {c['misses']:>7} "
            f"{c['slowest_s']:>10} {c['seconds']:>8}",
            flush=True,
        )
        for example in c["examples"]:
            print(f"    {example}")
    print(json.dumps({"failures": bad}))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
