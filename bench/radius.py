"""Blast-radius benchmark: the import graph against each language's reference, and the speed goals.

1. Accuracy on fetched repositories (their HEAD tree exported into a temporary repository; nothing
   of them is committed), edge recall and precision (goal >= 0.97 each) and time ratios against:
   - grimp for Python (`--python GITDIR --python-package NAME`; every `src/` folder of the tree
     is put on sys.path, so a namespace-package monorepo is one graph);
   - `cargo metadata --offline --no-deps` plus the `mod`/`use` paths of every target for a Rust
     workspace (`--rust GITDIR`; cargo only reads the manifests, nothing is built);
   - dependency-cruiser for TypeScript (`--ts GITDIR --depcruise PATH/TO/depcruise`, installed
     outside the project, e.g. `npm install --prefix /tmp/dc dependency-cruiser typescript@5`).
2. Speed on generated trees, one per language (Python, TypeScript, Go, Rust), at several sizes:
   raw tree-sitter parsing of the files, the analysis cold (in process), and the whole
   `git context radius` command cold and warm (a fresh process each), and how many git processes
   the warm command runs. Goals: cold analysis <= 1.5x raw parsing, whole-command warm <= 0.1x
   cold, warm < 1 s at 5,000 files. The load average is printed: on a shared machine the ratios
   within one run compare, absolute times do not.

    python bench/radius.py --python ~/m/otel.git --python-package opentelemetry \\
        --rust ~/m/ripgrep.git --ts ~/m/vue.git --depcruise /tmp/dc/node_modules/.bin/depcruise
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitcontext.radius import cache, graph
from gitcontext.radius.languages import language_of
from gitcontext.radius.treesitter import parse_raw

SCRIPT = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def make_repo(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=bench", "-c", "user.email=b@b", "commit", "-q", "-m", "tree")


def export(gitdir: Path, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", f"--git-dir={gitdir}", "archive", "HEAD"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    make_repo(into)
    return into


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def best(runs: int, fn, *args):
    """Minimum time of RUNS runs (the machine is shared; the minimum is the least disturbed)."""
    return min((fn(*args) for _ in range(runs)), key=lambda r: r[0])


def raw_parse(repo: Path) -> tuple[float, int]:
    """The floor: read and tree-sitter-parse every source file once, in one process."""
    files = [p for p in sorted(repo.rglob("*")) if p.is_file() and ".git" not in p.parts]
    sources = [(lang, p) for lang, p in ((language_of(p.relative_to(repo).as_posix()), p) for p in files) if lang]
    for lang in {lang for lang, _ in sources}:
        parse_raw(lang, b"")  # load grammars outside the timing
    start = time.perf_counter()
    for lang, path in sources:
        parse_raw(lang, path.read_bytes())
    return time.perf_counter() - start, len(sources)


def analysis(repo: Path, cold: bool = False) -> tuple[float, graph.Graph]:
    if cold:
        shutil.rmtree(cache.path_for(repo).parent, ignore_errors=True)
    start = time.perf_counter()
    conn = cache.open_cache(repo)
    found = graph.analyse(repo, conn)
    conn.close()
    return time.perf_counter() - start, found.graph


def command(repo: Path, cold: bool, trace: Path | None = None) -> tuple[float, None]:
    """The whole `git context radius --json` as a user runs it: a fresh process (bytecode cached, as
    in an installed package; this machine sets PYTHONDONTWRITEBYTECODE, which would add ~40 ms).
    TRACE: a file for GIT_TRACE (to count the git processes)."""
    if cold:
        shutil.rmtree(cache.path_for(repo).parent, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as installed: .pyc kept
    if trace:
        env["GIT_TRACE"] = str(trace)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gitcontext", "radius", "--json", "--base", "HEAD"],
        cwd=repo,
        check=True,
        capture_output=True,
        env=env,
    )
    return time.perf_counter() - start, None


def git_processes(repo: Path) -> int:
    """How many git commands a warm whole command runs."""
    trace = repo.parent / f"{repo.name}.trace"
    trace.unlink(missing_ok=True)
    command(repo, False, trace)
    count = sum(
        " trace: built-in: git " in line or " trace: exec: git" in line
        for line in trace.read_text(errors="replace").splitlines()
    )
    trace.unlink()
    return count


def score(name: str, ours: set, theirs: set, ours_s: tuple[float, float], ref_s: float) -> None:
    both = ours & theirs
    recall, precision = len(both) / max(1, len(theirs)), len(both) / max(1, len(ours))
    ok = "ok" if min(recall, precision) >= 0.97 else "BELOW GOAL"
    print(
        f"[{name}] reference {len(theirs)} edges, ours {len(ours)}, shared {len(both)}: "
        f"recall {recall:.3f}, precision {precision:.3f} (goal >= 0.97: {ok})"
    )
    print(
        f"  time: reference {ref_s:.2f}s | ours cold {ours_s[0]:.2f}s = {ours_s[0] / ref_s:.2f}x, "
        f"warm {ours_s[1]:.3f}s = {ours_s[1] / ref_s:.3f}x the reference"
    )
    for a, b in sorted(theirs - ours)[:6]:
        print(f"    only reference: {a} -> {b}")
    for a, b in sorted(ours - theirs)[:6]:
        print(f"    only ours:      {a} -> {b}")


def ours_timed(repo: Path, runs: int) -> tuple[graph.Graph, tuple[float, float]]:
    cold, deps = best(runs, analysis, repo, True)
    warm, _ = best(runs, analysis, repo)
    return deps, (cold, warm)


# ---- Python: grimp -------------------------------------------------------------------------------


def versus_grimp(repo: Path, package: str, runs: int) -> None:
    import grimp

    roots = sorted(
        {
            str(p.parent.relative_to(repo))
            for p in repo.rglob(package)
            if p.is_dir() and ".git" not in p.parts and (p.parent.name == "src" or p.parent == repo)
        }
    )
    roots = ["" if r == "." else r for r in roots]
    sys.path[:0] = [str(repo / r) for r in roots]
    ref_s, theirs_graph = best(runs, lambda: timed(grimp.build_graph, package, cache_dir=None))
    deps, ours_s = ours_timed(repo, runs)

    def module(path: str) -> str | None:
        for root in roots:
            prefix = f"{root}/" if root else ""
            if path.endswith(".py") and path.startswith(prefix + package + "/"):
                dotted = path[len(prefix) : -3].replace("/", ".")
                return dotted.removesuffix(".__init__")
        return None

    known = theirs_graph.modules
    ours = {(module(a), module(b)) for a, b in deps.edges if module(a) in known and module(b) in known}
    theirs = {(m, i) for m in known for i in theirs_graph.find_modules_directly_imported_by(m) if i != m}
    score(f"python {repo.name} vs grimp, {len(known)} modules, roots {len(roots)}", ours, theirs, ours_s, ref_s)


# ---- Rust: cargo metadata + mod/use paths ---------------------------------------------------------

_MOD = re.compile(
    r'^[ \t]*(?:#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*)?(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', re.M
)
_USE = re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?\s+)?use\s+([\w:{}\s,*]+?);", re.M)


def versus_cargo(repo: Path, runs: int) -> None:
    ref_s, theirs = best(runs, lambda: timed(cargo_edges, repo))
    deps, ours_s = ours_timed(repo, runs)
    ours = {(a, b) for a, b in deps.edges if a.endswith(".rs") and b.endswith(".rs")}
    nodes = {n for e in theirs for n in e}
    score(f"rust {repo.name} vs cargo metadata + use paths", {e for e in ours if e[0] in nodes}, theirs, ours_s, ref_s)


def cargo_edges(repo: Path) -> set[tuple[str, str]]:
    """Module files reached from every target root by `mod`, and `use` paths resolved with the
    crate names cargo reports (dependency renames included)."""
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--offline", "--no-deps", "--format-version", "1"],
            cwd=repo,
            check=True,
            capture_output=True,
        ).stdout
    )
    rel = lambda p: os.path.relpath(p, repo).replace(os.sep, "/")  # noqa: E731
    libs = {
        p["name"]: rel(t["src_path"])
        for p in meta["packages"]
        for t in p["targets"]
        if set(t["kind"]) & {"lib", "rlib", "proc-macro"}
    }
    edges: set[tuple[str, str]] = set()
    for package in meta["packages"]:
        names = {
            (d.get("rename") or d["name"]).replace("-", "_"): libs[d["name"]]
            for d in package["dependencies"]
            if d["name"] in libs
        }
        for target in package["targets"]:
            own = libs.get(package["name"])
            if own and target["kind"] != ["lib"]:
                names.setdefault(package["name"].replace("-", "_"), own)
            _walk(repo, rel(target["src_path"]), True, rel(target["src_path"]), names, edges, set())
    return edges


def _walk(repo: Path, path: str, is_root: bool, crate_root: str, names: dict, edges: set, seen: set) -> None:
    if path in seen or not (repo / path).is_file():
        return
    seen.add(path)
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", (repo / path).read_text(errors="replace"), flags=re.S)
    here = os.path.dirname(path) if is_root or os.path.basename(path) == "mod.rs" else path[:-3]
    for attr, name in _MOD.findall(text):
        child = (
            os.path.normpath(os.path.join(os.path.dirname(path), attr))
            if attr
            else next((c for c in (f"{here}/{name}.rs", f"{here}/{name}/mod.rs") if (repo / c).is_file()), None)
        )
        if child and (repo / child).is_file():
            edges.add((path, child))
            _walk(repo, child, bool(attr), crate_root, names, edges, seen)
    for use in _USE.findall(text):
        for full in _expand(use.replace(" ", "").replace("\n", "")):
            hit = _use_target(repo, full, path, here, crate_root, names)
            if hit and hit != path:
                edges.add((path, hit))


def _use_target(repo: Path, use: str, path: str, here: str, crate_root: str, names: dict) -> str | None:
    head, *rest = re.sub(r"as\w+$", "", use).lstrip(":").split("::")
    root_dir = os.path.dirname(crate_root)
    if head == "crate":
        base, fallback = root_dir, crate_root
    elif head == "self":
        base, fallback = here, path
    elif head == "super":
        base = os.path.dirname(here)
        fallback = next((c for c in (f"{base}.rs", f"{base}/mod.rs", crate_root) if (repo / c).is_file()), None)
    elif (repo / f"{here}/{head}.rs").is_file() or (repo / f"{here}/{head}/mod.rs").is_file():
        base, fallback, rest = here, path, [head, *rest]
    elif head in names:
        base, fallback = os.path.dirname(names[head]), names[head]
    else:
        return None
    rest = [s for s in rest if s not in ("self", "*", "")]
    for n in range(len(rest), 0, -1):
        stem = os.path.join(base, *rest[:n])
        for candidate in (f"{stem}.rs", f"{stem}/mod.rs"):
            if (repo / candidate).is_file():
                return os.path.normpath(candidate)
    return fallback


def _expand(text: str) -> list[str]:
    text = re.sub(r"as\w+(?=[,}]|$)", "", text.replace(" as ", "as"))
    start = text.find("{")
    if start < 0:
        return [text]
    prefix, inner = text[:start], text[start + 1 : text.rfind("}")]
    parts, depth, begin = [], 0, 0
    for i, char in enumerate(inner + ","):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(inner[begin:i])
            begin = i + 1
    return [full for part in parts if part for full in _expand(prefix + part)]


# ---- TypeScript: dependency-cruiser ---------------------------------------------------------------


def versus_depcruise(repo: Path, depcruise: str, runs: int) -> None:
    folders = sorted({p.split("/")[0] for p in _tracked(repo) if p.endswith(SCRIPT) and "/" in p})
    config = ["--ts-config", "tsconfig.json"] if (repo / "tsconfig.json").exists() else []

    def run():
        out = subprocess.run(
            [
                depcruise,
                "--no-config",
                *config,
                "--ts-pre-compilation-deps",
                "--output-type",
                "json",
                "--exclude",
                "node_modules",
                *folders,
            ],
            cwd=repo,
            capture_output=True,
            check=True,
        )
        return json.loads(out.stdout)

    ref_s, data = best(runs, lambda: timed(run))
    theirs = {
        (m["source"], d["resolved"])
        for m in data["modules"]
        for d in m["dependencies"]
        if not d.get("couldNotResolve")
        and not d.get("coreModule")
        and d["resolved"].endswith(SCRIPT)
        and m["source"].endswith(SCRIPT)
        and d["resolved"] != m["source"]
    }
    deps, ours_s = ours_timed(repo, runs)
    cruised = {m["source"] for m in data["modules"]}
    ours = {(a, b) for a, b in deps.edges if a.endswith(SCRIPT) and b.endswith(SCRIPT) and a in cruised}
    score(f"typescript {repo.name} vs dependency-cruiser ({len(cruised)} modules)", ours, theirs, ours_s, ref_s)


def _tracked(repo: Path) -> list[str]:
    return subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True).stdout.split()


# ---- generated trees: the speed goals --------------------------------------------------------------


def generate(repo: Path, total: int, kind: str, seed: int = 7) -> None:
    rng = random.Random(seed)
    (repo / "go.mod").write_text("module example.com/gen\n\ngo 1.22\n")
    (repo / "Cargo.toml").write_text('[package]\nname = "gen"\nversion = "0.1.0"\n')
    for n in range(total):
        peers = rng.sample(range(n), min(4, n))
        _write_generated(repo, kind, n, peers, rng)
    if kind == "rs":
        (repo / "src" / "lib.rs").write_text("".join(f"pub mod m{n};\n" for n in range(total)))


def _write_generated(repo: Path, kind: str, n: int, peers: list[int], rng: random.Random) -> None:
    body = "\n".join(f"    value_{i} = {rng.randint(0, 999)} * {i}" for i in range(rng.randint(20, 120)))
    if kind == "py":
        path, text = f"pkg/d{n % 50}/m{n}.py", "".join(f"from pkg.d{p % 50} import m{p}\n" for p in peers)
        text += f"\n\ndef f{n}(x):\n{body}\n    return x\n"
        (repo / f"pkg/d{n % 50}").mkdir(parents=True, exist_ok=True)
        (repo / f"pkg/d{n % 50}/__init__.py").touch()
        (repo / "pkg/__init__.py").touch()
    elif kind == "ts":
        path = f"web/d{n % 40}/m{n}.ts"
        text = "".join(f"import {{ f{p} }} from '../d{p % 40}/m{p}';\n" for p in peers)
        text += (
            f"export function f{n}(x: number): number {{\n"
            + body.replace("    value", "  const value")
            + "\n  return x;\n}\n"
        )
    elif kind == "go":
        path = f"internal/p{n}/p.go"
        text = f"package p{n}\n\nimport (\n" + "".join(f'\t"example.com/gen/internal/p{p}"\n' for p in peers)
        text += (
            ")\n\nfunc F(x int) int {\n"
            + body.replace("    value", "\tvalue").replace(" = ", " := ")
            + "\n\treturn x\n}\n"
        )
    else:
        path = f"src/m{n}.rs"
        text = "".join(f"use crate::m{p}::f;\n" for p in peers) + "pub fn f(x: i64) -> i64 {\n"
        text += body.replace("    value", "    let value") + "\n    x\n}\n"
    full = repo / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(text)


def scaling(sizes: list[int], kinds: list[str], runs: int, tmp: Path) -> None:
    print("\nscaling (best of runs; goals: cold <= 1.5x raw parse, whole-command warm <= 0.1x cold, warm < 1 s)")
    print("load average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(
        f"{'tree':<6}{'files':>7}{'raw parse':>11}{'cold':>8}{'cold/raw':>10}{'cmd cold':>10}{'cmd warm':>10}"
        f"{'warm/cold':>11}{'edit warm':>11}{'git procs':>11}"
    )
    for kind in kinds:
        for size in sizes:
            repo = tmp / f"gen-{kind}-{size}"
            repo.mkdir()
            generate(repo, size, kind)
            make_repo(repo)
            raw, count = best(runs, raw_parse, repo)
            cold, _ = best(runs, analysis, repo, True)
            cmd_cold, _ = best(runs, command, repo, True)
            command(repo, False)
            cmd_warm, _ = best(runs, command, repo, False)
            procs = git_processes(repo)
            edited = next(p for p in sorted(repo.rglob(f"*.{kind}")) if p.name not in ("__init__.py", "lib.rs"))
            edited.write_text(edited.read_text() + ("\n// edit\n" if kind in ("ts", "go", "rs") else "\n# edit\n"))
            edit_warm, _ = command(repo, False)  # one file changed: re-parse and re-resolve that file only
            print(
                f"{kind:<6}{count:>7}{raw:>10.2f}s{cold:>7.2f}s{cold / raw:>9.2f}x{cmd_cold:>9.2f}s"
                f"{cmd_warm:>9.3f}s{cmd_warm / cmd_cold:>10.3f}x{edit_warm:>10.3f}s{procs:>11}"
            )
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", type=Path, help="git dir of a Python repository (e.g. a namespace monorepo)")
    parser.add_argument("--python-package", default=None, help="its top-level package for grimp")
    parser.add_argument("--rust", type=Path, help="git dir of a Rust workspace")
    parser.add_argument("--ts", type=Path, help="git dir of a TypeScript monorepo")
    parser.add_argument("--depcruise", default=shutil.which("depcruise"), help="dependency-cruiser's executable")
    parser.add_argument("--sizes", default="500,2000,5000")
    parser.add_argument("--kinds", default="py,ts,go,rs")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.python and args.python_package:
            versus_grimp(export(args.python, tmp / args.python.parent.name), args.python_package, args.runs)
        if args.rust:
            versus_cargo(export(args.rust, tmp / args.rust.parent.name), args.runs)
        if args.ts and args.depcruise:
            versus_depcruise(export(args.ts, tmp / args.ts.parent.name), args.depcruise, args.runs)
        if args.sizes:
            scaling([int(s) for s in args.sizes.split(",")], args.kinds.split(","), args.runs, tmp)


if __name__ == "__main__":
    main()
