"""The `git-context` / `gitcontext` scripts and `python -m gitcontext`: `ls`, `blame TARGET` and `history`
in their plain forms without click (gitcontext.cli.fast, which replays a kept answer when it can:
gitcontext.cli.readcache), everything else through the click group (gitcontext.cli.main), imported only then."""
from __future__ import annotations

import sys

from gitcontext.cli.fast import run_fast


def main(argv: list[str] | None = None) -> int:
    code = run_fast(sys.argv[1:] if argv is None else list(argv))
    if code is not None:
        return code
    from gitcontext.cli.main import main as click_main

    return click_main(argv)


if __name__ == "__main__":
    sys.exit(main())
