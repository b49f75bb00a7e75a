"""Progress lines: only on a terminal, only after a second, cleared afterwards; never in pipes or JSON."""

from __future__ import annotations

import io
import time

from gitcontext.progress import Progress, working


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_draws_only_on_a_terminal() -> None:
    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        bar = Progress("history", stream, min_interval=0, delay=0)
        for n in range(1, 5):
            bar(n, 4)
        bar.close()
    assert "4/4" in tty.getvalue() and tty.getvalue().endswith("\r\x1b[K")
    assert pipe.getvalue() == ""


def test_progress_waits_a_second_before_drawing() -> None:
    tty = Tty()
    bar = Progress("backfill", tty, min_interval=0)
    bar(1, 4)
    bar.close()
    assert tty.getvalue() == ""  # work under a second draws nothing


def test_working_says_what_is_slow_and_clears_it() -> None:
    slow, quick, pipe = Tty(), Tty(), io.StringIO()
    with working("radius: parsing 812 files", slow, delay=0.01):
        deadline = time.monotonic() + 10
        while not slow.getvalue() and time.monotonic() < deadline:  # however loaded the machine is
            time.sleep(0.01)
    with working("audit", quick, delay=5):
        pass
    with working("audit", pipe, delay=0):
        time.sleep(0.05)
    assert slow.getvalue() == "\rradius: parsing 812 files…\r\x1b[K"
    assert quick.getvalue() == "" and pipe.getvalue() == ""


def test_progress_says_what_is_slow_until_the_first_count_then_counts() -> None:
    tty, pipe = Tty(), io.StringIO()
    with Progress("backfill: tracing", tty, min_interval=0, delay=0.01) as bar:
        deadline = time.monotonic() + 10
        while not tty.getvalue() and time.monotonic() < deadline:  # however loaded the machine is
            time.sleep(0.01)
        bar(1, 2)
        bar(2, 2)
    with Progress("backfill: tracing", pipe, min_interval=0, delay=0) as bar:
        bar(2, 2)
    assert tty.getvalue().startswith("\r\x1b[Kbackfill: tracing…\r\x1b[Kbackfill: tracing [")
    assert "] 2/2" in tty.getvalue() and tty.getvalue().endswith("\r\x1b[K")
    assert pipe.getvalue() == ""
