"""`ruling` and `ask`: the owner rulings ledger (`.context/rulings.jsonl`, `.context/asks.jsonl`)."""

from __future__ import annotations

import click

from gitcontext.cli.common import SuggestingGroup, emit_json, json_option, repo

_topic = click.option(
    "--topic", "topics", multiple=True, required=True, help="Kebab-case topic (repeatable, or comma-separated)."
)


@click.group("ruling", cls=SuggestingGroup)
def ruling_group() -> None:
    """Owner rulings: decisions, newest first, each naming what it supersedes.

    \b
    Examples:
      git context ruling add --topic ci-runners --summary "CI runs on ARM runners from now on" \\
          --source "standup 2026-11-20"
      git context ruling lookup ci-runner
      git context ruling digest --budget 500      # what an agent loads instead of the whole ledger
      git context ruling require R-3f9a2c --topic ci-runners && deploy
    """


@ruling_group.command("add")
@_topic
@click.option("--summary", required=True, help="The decision in a sentence (at least 20 characters).")
@click.option("--source", required=True, help="Where it was decided (review, issue, meeting).")
@click.option("--supersedes", multiple=True, help="A ruling this one overrides (repeatable).")
@click.option("--answers", default=None, help="The open ask this ruling answers.")
@click.option("--id", "rid", default=None, help="Choose the id (R-…); refused if it was ever used.")
@json_option
def ruling_add_cmd(topics, summary, source, supersedes, answers, rid, as_json) -> int:
    """Record a ruling (append-only: a changed decision is a new ruling that supersedes)."""
    from gitcontext.rulings.asks import rule

    root, _ = repo()
    r = rule(root, topics, summary, source, supersedes, answers, rid)
    if as_json:
        emit_json(r._asdict())
    else:
        click.echo(
            f"ruling {r.id} recorded"
            + (f", superseding {', '.join(r.supersedes)}" if r.supersedes else "")
            + (f", answering {r.answers}" if r.answers else "")
        )
    return 0


@ruling_group.command("list")
@click.option("--topic", "topics", multiple=True, help="Only rulings on this topic (fuzzy, alias-aware).")
@click.option("--all", "show_all", is_flag=True, help="Include superseded rulings.")
@json_option
def ruling_list_cmd(topics, show_all, as_json) -> int:
    """Current rulings, newest first (--all: superseded ones too, marked)."""
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import Hit, ledger, newest_first
    from gitcontext.rulings.topics import aliases, check_topics

    root, config = repo()
    book = ledger(read_rulings(root))
    if topics:
        hits = book.lookup(check_topics(topics), aliases(config))
    else:
        hits = [Hit(r, (), book.superseded_by.get(r.id, ())) for r in newest_first(book.rulings)]
    hits = [h for h in hits if show_all or not h.superseded_by]
    return _print_hits(hits, as_json, empty="no rulings" + (" on that topic" if topics else ""))


@ruling_group.command("show")
@click.argument("id")
@json_option
def ruling_show_cmd(id, as_json) -> int:
    """One ruling in full, with what it supersedes and what superseded it."""
    from gitcontext.errors import UserError
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import Hit, ledger

    root, _ = repo()
    book = ledger(read_rulings(root))
    if id not in book.by_id:
        raise UserError(f"no ruling {id}", fix="`git context ruling list --all` lists the ids")
    return _print_hits([Hit(book.by_id[id], (), book.superseded_by.get(id, ()))], as_json, empty="")


@ruling_group.command("lookup")
@click.argument("topics", nargs=-1, required=True)
@json_option
def ruling_lookup_cmd(topics, as_json) -> int:
    """Every ruling on TOPIC…, newest first; superseded ones marked with what replaced them."""
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import ledger
    from gitcontext.rulings.topics import aliases, check_topics

    root, config = repo()
    hits = ledger(read_rulings(root)).lookup(check_topics(topics), aliases(config))
    return _print_hits(hits, as_json, empty=f"no ruling on {', '.join(topics)}")


@ruling_group.command("digest")
@click.option(
    "--budget", type=click.IntRange(1, 1_000_000), default=None, help="Token budget (default rulings.digest_budget)."
)
@json_option
def ruling_digest_cmd(budget, as_json) -> int:
    """The current rulings, one line each, newest first, within a token budget."""
    from gitcontext.rulings.decide import digest, digest_line
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import ledger

    root, config = repo()
    budget = budget or config["rulings"]["digest_budget"]
    kept, left = digest(ledger(read_rulings(root)), budget)
    if as_json:
        emit_json({"budget": budget, "rulings": [r._asdict() for r in kept], "omitted": left})
        return 0
    for r in kept:
        click.echo(digest_line(r))
    if left:
        click.echo(f"… {left} older current ruling(s) over the budget: `git context ruling list`")
    return 0


@ruling_group.command("require")
@click.argument("id")
@_topic
def ruling_require_cmd(id, topics) -> int:
    """Exit 0 only when ruling ID exists, is not superseded and carries every --topic."""
    from gitcontext.rulings.decide import require
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import ledger
    from gitcontext.rulings.topics import check_topics

    root, config = repo()
    missing = require(ledger(read_rulings(root)), id, check_topics(topics), config)
    for m in missing:
        click.echo(f"gitcontext: {m.what}\n  fix: {m.fix}", err=True)
    return 1 if missing else 0


def _print_hits(hits, as_json: bool, empty: str) -> int:
    if as_json:
        emit_json(
            {
                "rulings": [
                    {
                        **h.ruling._asdict(),
                        "superseded_by": list(h.superseded_by),
                        "matched": [m._asdict() for m in h.matched],
                    }
                    for h in hits
                ]
            }
        )
        return 0
    if not hits:
        click.echo(empty)
    for h in hits:
        click.echo(format_hit(h))
    return 0


def format_hit(h) -> str:
    r = h.ruling
    head = f"{r.id}  {r.ruled_at[:10]}  [{', '.join(r.topics)}]"
    if h.superseded_by:
        head += f"  SUPERSEDED by {', '.join(h.superseded_by)}"
    fuzzy = sorted({m.topic for m in h.matched if m.how == "fuzzy"})
    lines = [head, f"    {r.summary}", f"    source: {r.source}"]
    if r.supersedes:
        lines.append(f"    supersedes: {', '.join(r.supersedes)}")
    if fuzzy:
        lines.append(f"    (did you mean {', '.join(fuzzy)}?)")
    return "\n".join(lines)


@click.group("ask", cls=SuggestingGroup)
def ask_group() -> None:
    """Questions for the owner; a settled question is refused unless you say what changed.

    \b
    Examples:
      git context ask propose --topic ci-runners --question "May CI move to ARM runners?"
      git context ask propose --topic ci-runners --question "…" \\
          --reask-reason "ARM runners are now half the price (vendor mail 2026-11-30)"
      git context ask list --open
    """


@ask_group.command("propose")
@_topic
@click.option("--question", required=True, help="The question for the owner.")
@click.option("--reask-reason", default=None, help="What changed since the ruling on this topic (20+ chars).")
@json_option
def ask_propose_cmd(topics, question, reask_reason, as_json) -> int:
    """Put a question to the owner (exit 1, listing the rulings, when one already settles it)."""
    from gitcontext.rulings.asks import Settled, propose

    root, config = repo()
    try:
        a = propose(root, config, topics, question, reask_reason)
    except Settled as refused:
        if as_json:
            emit_json(
                {
                    "refused": True,
                    "rulings": [
                        {**h.ruling._asdict(), "matched": [m._asdict() for m in h.matched]} for h in refused.hits
                    ],
                }
            )
        else:
            click.echo("refused: a ruling already settles this topic (newest first):", err=True)
            for h in refused.hits:
                click.echo(format_hit(h), err=True)
            click.echo(f"  fix: {refused.fix}", err=True)
        return int(refused.status)
    if as_json:
        emit_json(a._asdict())
    else:
        click.echo(f"ask {a.id} proposed" + (f" (re-ask: {a.reask_reason})" if a.reask_reason else ""))
    return 0


@ask_group.command("answer")
@click.argument("id")
@click.option("--ruling", required=True, help="The ruling that answers it.")
def ask_answer_cmd(id, ruling) -> int:
    """Mark an open ask answered by an existing ruling."""
    from gitcontext.rulings.asks import answer

    root, _ = repo()
    answer(root, id, ruling)
    click.echo(f"ask {id} answered by {ruling}")
    return 0


@ask_group.command("withdraw")
@click.argument("id")
@click.option("--reason", required=True, help="Why the question no longer needs an answer.")
def ask_withdraw_cmd(id, reason) -> int:
    """Withdraw an open ask."""
    from gitcontext.rulings.asks import withdraw

    root, _ = repo()
    withdraw(root, id, reason)
    click.echo(f"ask {id} withdrawn")
    return 0


@ask_group.command("revise")
@click.argument("id")
@click.option("--question", required=True, help="The new wording (a new line, same id).")
def ask_revise_cmd(id, question) -> int:
    """Reword an open ask (the old wording stays in the ledger)."""
    from gitcontext.rulings.asks import revise

    root, _ = repo()
    revise(root, id, question)
    click.echo(f"ask {id} revised")
    return 0


@ask_group.command("list")
@click.option("--open", "only_open", is_flag=True, help="Only open asks.")
@json_option
def ask_list_cmd(only_open, as_json) -> int:
    """Asks with their status; open ones with their age in days."""
    from gitcontext.rulings.asks import age_days, states

    root, _ = repo()
    asks = sorted(states(root).values(), key=lambda a: (a.asked_at, a.id), reverse=True)
    asks = [a for a in asks if a.status == "open" or not only_open]
    if as_json:
        emit_json({"asks": [{**a._asdict(), "age_days": age_days(a)} for a in asks]})
        return 0
    if not asks:
        click.echo("no open asks" if only_open else "no asks")
    for a in asks:
        state = f"open {age_days(a)}d" if a.status == "open" else a.status + (f" by {a.ruling}" if a.ruling else "")
        click.echo(f"{a.id}  {a.asked_at[:10]}  [{', '.join(a.topics)}]  {state}\n    {a.question}")
        if a.reask_reason:
            click.echo(f"    re-asked because: {a.reask_reason}")
        if a.reason:
            click.echo(f"    withdrawn: {a.reason}")
    return 0
