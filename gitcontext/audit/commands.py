"""What a shell command written in a context file runs, read the way its runner reads it.

`pnpm --filter web run dev` runs the `dev` script of the workspace package `web`; `pnpm tsx src/x.ts`
runs the binary `tsx` on the file `src/x.ts`; `uv run --group test pytest tests/test_x.py` runs pytest on
a file; `make -C docs html` runs a target of docs/Makefile; `just lint` a recipe; `cargo test -p core` a
workspace crate; `./scripts/release.sh` a file. Each yields a Ref (see audit/references.py): a `script`,
`make`, `just`, `cargo` or `test` reference to judge against the tree's manifests, or a `path` (form
`arg`) for a file the command is given. A `cd` sets the folder for what follows on the line (and in the
rest of a code fence). Nothing here reads the repository: gc103_dead_reference judges.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitcontext.audit.ref import Ref, clean_path, placeholder

PACKAGE_RUNNERS = {"npm", "pnpm", "yarn", "bun"}
_BUILTINS = {
    "pnpm": set(
        "install i add remove rm uninstall un update up upgrade exec dlx create init publish link ln unlink list ls "
        "outdated why audit store config c get set env import fetch rebuild rb prune patch patch-commit patch-remove "
        "pack root bin setup server licenses deploy install-test it approve-builds self-update help x dedupe "
        "doctor cache view info recursive catalog sbom ignored-builds run run-script test t tst start stop "
        "restart multi m".split()
    )
    # the npm commands pnpm passes through to npm (pnpm.io/cli: "Commands that pnpm passes to npm")
    | set(
        "access adduser bugs deprecate dist-tag docs edit login logout owner ping prefix profile pkg repo s se "
        "search set-script show star stars team token undeprecate unpublish unstar version whoami xmas".split()
    ),
    "yarn": set(
        "install add remove upgrade up init dlx workspace workspaces why info config cache set plugin node exec "
        "create link unlink pack publish version npm constraints explain help run test start bin global "
        "generate-lock-entry import licenses list login logout outdated owner policies tag team upgrade-interactive "
        "audit autoclean check rebuild search stage unplug patch patch-commit dedupe".split()
    ),
    "bun": set(
        "install i add a remove rm update upgrade outdated link unlink pm build init create c x exec test run "
        "publish patch patch-commit audit info why repl completions discord help".split()
    ),
}
_NPM_SCRIPTS = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop", "restart": "restart"}
_BIN_RUNNERS = {"npx", "pnpx", "bunx", "uvx", "pipx"}
_WRAPPERS = {"sudo", "time", "env", "nohup", "exec", "command", "xvfb-run", "dotenv", "cross-env"}
_ENV_RUNNERS = {"uv", "poetry", "pipenv", "pdm", "rye", "hatch", "conda", "mamba", "pixi"}
_INTERPRETERS = {
    "python", "python3", "py", "node", "tsx", "ts-node", "bash", "sh", "zsh", "source", ".", "ruby", "perl",
    "php", "Rscript", "julia", "lua", "deno", "esno", "vite-node", "bun",
}  # fmt: skip
_TEST_RUNNERS = {"pytest", "py.test", "vitest", "jest", "mocha", "ava", "tap", "playwright", "cypress"}
# options of runners whose next word is a value, not a file or a script
_VALUED = set(
    "-k -m -c -p -o -n -t -C -F -w -f --filter --workspace --dir --cwd --prefix --group --extra "
    "--python --with --project --directory --env --config --package --bin --example --test --features "
    "--target --manifest-path --maxfail --tb --durations --cov --cov-report --junitxml --log-level --timeout "
    "--basetemp --confcutdir --rootdir --ignore --deselect --reporter --project-name --shard --grep --out "
    "--output --outdir --out-dir --output-dir --outfile --reporter-options --testNamePattern --toolchain "
    "--index --index-url --extra-index-url --only-group --no-group --inventory --profile".split()
)
_OUTPUT_FLAGS = {"-o", "--out", "--output", "--outdir", "--out-dir", "--output-dir", "--outfile", "--junitxml"}
_FILE_ARG = re.compile(r"^(?:\.{1,2}/)?[\w@.\-]+(?:/[\w@.\-\[\]]+)*\.[A-Za-z][A-Za-z0-9]{0,7}(?:::[\w:\[\]\-.]+)?$")


def commands(file: str, text: str, number: int, cwd: list[str | None] | None) -> Iterator[Ref]:
    """Scripts, targets, recipes, crates, test ids and file arguments of the shell line TEXT; a `cd` sets
    CWD[0] (shared with the lines that follow: None = where the file is, "" = a folder we cannot name)."""
    cwd = cwd if cwd is not None else [None]
    line = re.sub(r"^\s*(?:\$|>|%|#\s*\$)\s+", "", text)
    line = re.split(r"\s#\s|\s#$|^#|\s//\s", line)[0]
    for part in re.split(r"&&|\|\||;|\|", line):
        words = [w.strip("'\"") for w in part.strip().strip("`").split()]
        if not words:
            continue
        if words[0] == "cd":
            cwd[0] = _cd(cwd[0], words[1] if len(words) > 1 else "~")
            continue
        if cwd[0] == "":
            continue  # after a `cd` into a folder we cannot name, nothing can be judged
        refs = _command(Ref(file, number, "", "", cwd[0], written=part.strip().strip("`")), words)
        yield from (r for r in refs if not (r.form == "arg" and placeholder(r.text)))  # `test/my-test.test.js`


def leading_cd(span: str) -> str | None:
    """The folder a command that starts with a `cd` names (`cd tools/scripts`, `cd packages/evals && pnpm
    generate`): an agent's shell stays there, so the steps after it run there too; None for anything
    else, or a folder we cannot name."""
    words = span.strip().strip("`").split()
    if len(words) < 2 or words[0] != "cd" or len(words) > 2 and words[2] not in ("&&", ";"):
        return None
    return _cd(None, words[1].strip("'\";")) or None


def _cd(current: str | None, target: str) -> str | None:
    """The folder after `cd TARGET` from CURRENT (None: the file's own folder; "": one we cannot name)."""
    if target == ".":
        return current
    if target == "..":
        return "" if current is None else None if "/" not in current else current.rsplit("/", 1)[0]
    if placeholder(target) or target.startswith(("~", "/", "$", "-")) or "\\" in target or current == "":
        return ""
    folder = clean_path(target).rstrip("/")
    return f"{current}/{folder}" if current else folder


def _command(base: Ref, words: list[str]) -> Iterator[Ref]:
    words = _unwrapped(words)
    if not words or any(placeholder(w) for w in words[:3]):
        return
    tool = words[0]
    if tool in PACKAGE_RUNNERS:
        yield from _package_runner(base, tool, words[1:])
    elif tool in _BIN_RUNNERS:
        yield from _binary(base, words[1:])
    elif tool == "turbo":
        yield from _turbo(base, words[1:])
    elif tool in _ENV_RUNNERS:
        yield from _env_runner(base, tool, words[1:])
    elif tool == "make":
        yield from _make(base, words[1:])
    elif tool == "just":
        yield from _just(base, words[1:])
    elif tool == "cargo":
        yield from _cargo(base, words[1:])
    elif tool == "go" and len(words) > 2 and words[1] in ("run", "test", "build", "vet"):
        yield from (_arg(base, w.removesuffix("/...")) for w in words[2:] if w.startswith("./") and w != "./...")
    else:
        yield from _program(base, words)


def _unwrapped(words: list[str]) -> list[str]:
    """WORDS without leading `VAR=value` assignments and wrappers (`sudo`, `env`, `time`)."""
    n = 0
    while n < len(words) and (re.match(r"^[A-Za-z_]\w*=", words[n]) or words[n] in _WRAPPERS):
        n += 1
    return words[n:]


def _program(base: Ref, words: list[str]) -> Iterator[Ref]:
    """An interpreter, a test runner, or a file run directly (`./scripts/x.sh`)."""
    tool = words[0]
    if tool in ("python", "python3", "py") and len(words) > 2 and words[1] == "-m":
        if words[2] in ("pytest", "py.test"):
            yield from _tests(base, "pytest", words[3:])
        return
    if tool in _INTERPRETERS:
        first = _positionals(words[1:])
        if first and not (tool == "deno" and first[0] in ("task", "fmt", "lint", "test")):
            target = first[1] if tool == "deno" and first[0] == "run" and len(first) > 1 else first[0]
            if _FILE_ARG.match(target) and "::" not in target:
                yield _arg(base, target)
    elif tool in _TEST_RUNNERS:
        yield from _tests(base, tool, words[1:])
    elif "/" in tool and _FILE_ARG.match(tool) or tool.startswith("./"):
        yield _arg(base, tool)


def _tests(base: Ref, tool: str, args: list[str]) -> Iterator[Ref]:
    for word in _positionals(args):
        if tool == "playwright" and word == "test" or not _FILE_ARG.match(word):
            continue
        if "::" in word:
            yield base._replace(kind="test", text=word, tool=tool)
        else:
            yield _arg(base, word)


def _positionals(args: list[str]) -> list[str]:
    """ARGS that are neither options nor an option's value (`-k expr`, `--group test`); none after an
    output option (`-o out.json`) or a `--`-less redirect."""
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
            continue
        if word in (">", ">>", "2>", "<"):
            break
        if word.startswith("-"):
            skip = word in _VALUED or word in _OUTPUT_FLAGS
            continue
        out.append(word)
    return out


def _arg(base: Ref, word: str) -> Ref:
    return base._replace(kind="path", text=clean_path(word), form="arg")


def _package_runner(base: Ref, tool: str, args: list[str]) -> Iterator[Ref]:
    """npm, pnpm, yarn, bun: options (a filter, a folder), then the script, binary or file they run."""
    where, rest, cwd = _selection(tool, args)
    if cwd is not None:
        base = base._replace(cwd=cwd if not base.cwd or cwd == "" else f"{base.cwd}/{cwd}")
    base = base._replace(tool=tool, where=base.where + where)
    if not rest:
        return
    first, more = rest[0], rest[1:]
    if tool == "yarn" and first == "workspace" and more:
        yield from _package_runner(base._replace(where=base.where + (_selector(more[0]),)), tool, more[1:])
    elif first in ("run", "run-script"):
        if more:  # `pnpm run` alone lists the scripts
            yield from _script(base, tool, more[0], more[1:], explicit=True)
    elif first in _NPM_SCRIPTS and tool != "bun":
        yield from _script(base, tool, _NPM_SCRIPTS[first], more, explicit=True)
    elif first in ("exec", "dlx", "x"):
        yield from _binary(base, more)
    elif tool != "npm" and first not in _BUILTINS[tool]:
        yield from _script(base, tool, first, more, explicit=False)


_SELECTING = {"--filter", "-F", "--workspace", "-w"}
_FOLDER_FLAGS = {"--dir", "-C", "--cwd", "--prefix"}


def _selection(tool: str, args: list[str]) -> tuple[tuple[str, ...], list[str], str | None]:
    """(the packages the options select, the words after the leading options, the folder `-C`/`--dir`/
    `--cwd` names). A filter after the script name (`pnpm run test --filter web`) selects too."""
    where: list[str] = []
    cwd, lead, n = None, None, 0
    while n < len(args):
        word = args[n]
        if not word.startswith("-"):
            lead = n if lead is None else lead
            n += 1
            continue
        flag, _, value = word.partition("=")
        if tool == "pnpm" and flag == "-w":
            where.append("")  # pnpm -w: the workspace root
        elif flag in _SELECTING or flag in _FOLDER_FLAGS:
            if not value and n + 1 < len(args):
                value, n = args[n + 1], n + 1
            if flag in _SELECTING and value:
                where.append(_selector(value))
            elif value and lead is None:
                cwd = "" if placeholder(value) or value.startswith(("/", "~", "$")) else clean_path(value).rstrip("/")
        elif flag in ("-r", "--recursive", "--workspaces", "-ws"):
            where.append("*")
        n += 1
    rest = args[lead:] if lead is not None else []
    return tuple(where), _without_selection(rest), cwd


def _without_selection(words: list[str]) -> list[str]:
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word.partition("=")[0] in _SELECTING | _FOLDER_FLAGS:
            skip = "=" not in word
        else:
            out.append(word)
    return out


def _selector(value: str) -> str:
    """A package selector: `pkg:NAME` for a plain name, `dir:FOLDER` for `./apps/web`, `*` for anything else
    (globs, `...` graphs, `[since]`): the judge tries every workspace package then."""
    if value.startswith("./") or value.startswith("{") and value.endswith("}"):
        return "dir:" + clean_path(value.strip("{}"))
    if re.fullmatch(r"(?:@[\w.\-]+/)?[\w.\-]+", value):
        return f"pkg:{value}"
    return "*"


def _script(base: Ref, tool: str, name: str, args: list[str], explicit: bool) -> Iterator[Ref]:
    name = name.strip("`'\"").rstrip(",.;:)")  # not a leading dot: `bun --hot ./index.ts` runs a file
    if not re.fullmatch(r"[\w:.\-/@]+", name) or name.startswith("-"):
        return
    if tool == "bun" and _FILE_ARG.match(name):
        yield _arg(base, name)
        return
    yield base._replace(kind="script", text=name, tool=tool, form="run" if explicit else "implicit")
    yield from (_arg(base, w) for w in _positionals(args) if _FILE_ARG.match(w) and "::" not in w)


def _binary(base: Ref, args: list[str]) -> Iterator[Ref]:
    """`npx tsx src/x.ts`: a binary (never judged: it may come from anywhere) on its file arguments."""
    words = [w for w in args if not w.startswith("-")]
    if words:
        yield from _command(base, words[:1] + args[args.index(words[0]) + 1 :])


def _turbo(base: Ref, args: list[str]) -> Iterator[Ref]:
    """`turbo run test --filter web src/x.test.ts`: tasks are not judged (turbo.json or any package's
    script); file arguments resolve in the filtered packages."""
    where = tuple(_selector(v) for f, v in zip(args, args[1:], strict=False) if f in ("--filter", "-F"))
    where += tuple(_selector(a.split("=", 1)[1]) for a in args if a.startswith("--filter="))
    base = base._replace(tool="turbo", where=base.where + where)
    yield from (_arg(base, w) for w in _positionals(args) if _FILE_ARG.match(w) and "::" not in w)


def _env_runner(base: Ref, tool: str, args: list[str]) -> Iterator[Ref]:
    """`uv run [options] CMD`, `poetry run CMD`...: CMD as it would run in the folder `--directory` names."""
    if not args or args[0] != "run":
        return
    rest, n = args[1:], 0
    while n < len(rest) and rest[n].startswith("-"):
        flag, _, value = rest[n].partition("=")
        if flag in ("--directory", "--project") and (value or n + 1 < len(rest)):
            folder = value or rest[n + 1]
            base = base._replace(cwd="" if placeholder(folder) or folder.startswith(("/", "~")) else clean_path(folder))
        n += 2 if flag in _VALUED and not value else 1
    if n < len(rest) and not (tool == "hatch" and ":" in rest[n]):
        yield from _command(base, rest[n:])


def _make(base: Ref, args: list[str]) -> Iterator[Ref]:
    if "-f" in args or "--file" in args or any(a.startswith("--file=") for a in args):
        return  # another makefile than the folder's
    if "-C" in args and args.index("-C") + 1 < len(args):
        folder = args[args.index("-C") + 1]
        base = base._replace(
            cwd="" if placeholder(folder) or folder.startswith(("/", "~", "$")) else clean_path(folder)
        )
    for word in _positionals(args):
        if "=" not in word and re.fullmatch(r"[\w.\-/]+", word):
            yield base._replace(kind="make", text=word, tool="make")
            return  # the first target; the others are usually variables or its arguments


def _just(base: Ref, args: list[str]) -> Iterator[Ref]:
    if any(a.startswith(("--justfile", "-f", "--working-directory", "-d", "-l", "--list", "--")) for a in args[:1]):
        return
    words = _positionals(args)
    if words and re.fullmatch(r"[A-Za-z_][\w-]*", words[0]):
        yield base._replace(kind="just", text=words[0], tool="just")


def _cargo(base: Ref, args: list[str]) -> Iterator[Ref]:
    """`cargo test -p NAME`: NAME is a package of the workspace (or of its lock file); subcommands are
    not judged (an alias in .cargo/config.toml, an installed cargo-NAME plugin, `xtask`)."""
    for n, word in enumerate(args):
        flag, _, value = word.partition("=")
        if flag in ("-p", "--package") and (value or n + 1 < len(args)):
            name = (value or args[n + 1]).split("@")[0]
            if re.fullmatch(r"[A-Za-z0-9_\-]+", name):
                yield base._replace(kind="cargo", text=name, tool="cargo")
