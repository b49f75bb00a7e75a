"""Blast-radius benchmark: prints ratios (cold vs raw tree-sitter parsing, warm vs cold, vs grimp).

Trees: a real repository fetched for benchmarking (`--repo GITDIR`, its HEAD tree exported into a
temporary repository; nothing of it is committed), a large pure-Python package installed in this
virtualenv (numpy by default; `--package NAME`) copied into a temporary git repository, and a
generated tree: 5,000 files across Python, TypeScript, Go and Rust with random imports.

    python bench/radius.py [--repo PATH/TO/click.git --repo-package click --repo-root src]
                           [--package numpy] [--files 5000] [--runs 3]
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.radius import cache, graph, scan
from gitcontext.radius.blast import compute
from gitcontext.radius.languages import language_of
from gitcontext.radius.treesitter import parse_raw


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def make_repo(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=bench", "-c", "user.email=b@b", "commit", "-q", "-m", "tree")


def raw_parse(repo: Path) -> tuple[float, int]:
    """The floor: read and tree-sitter-parse every source file once, in one process."""
    files = [p for p in sorted(repo.rglob("*")) if p.is_file() and ".git" not in p.parts]
    sources = [(language_of(p.relative_to(repo).as_posix()), p) for p in files]
    sources = [(lang, p) for lang, p in sources if lang]
    parse_raw(sources[0][0], b"")   # load grammars outside the timing
    start = time.perf_counter()
    for lang, path in sources:
        parse_raw(lang, path.read_bytes())
    return time.perf_counter() - start, len(sources)


def analysis(repo: Path) -> tuple[float, graph.Graph]:
    """Scan (cache, parse) + graph build: the radius analysis proper."""
    start = time.perf_counter()
    conn = cache.open_cache(repo)
    found = scan.scan(repo, conn)
    deps = graph.build(repo, found.files, found.parsed, found.blobs, conn)
    conn.close()
    return time.perf_counter() - start, deps


def cold_analysis(repo: Path) -> tuple[float, graph.Graph]:
    shutil.rmtree(cache.path_for(repo).parent, ignore_errors=True)
    return analysis(repo)


def best(runs: int, fn, *args):
    """Minimum time of RUNS runs (the machine is shared; the minimum is the least disturbed)."""
    results = [fn(*args) for _ in range(runs)]
    return min(results, key=lambda r: r[0])


def measure(name: str, repo: Path, runs: int) -> graph.Graph:
    raw, count = best(runs, raw_parse, repo)
    cold, deps = best(runs, cold_analysis, repo)
    warm, _ = best(runs, analysis, repo)
    config = config_mod.load(repo)
    start = time.perf_counter()
    compute(repo, config)
    full_warm = time.perf_counter() - start
    print(f"[{name}] {count} source files, {len(deps.edges)} import edges (best of {runs} runs)")
    print(f"  raw tree-sitter parse {raw:.2f}s | cold {cold:.2f}s = {cold / raw:.2f}x raw (goal <= 1.5x)")
    print(f"  warm {warm:.3f}s = {warm / cold:.3f}x cold (goal <= 0.1x) | "
          f"full `radius` warm {full_warm:.2f}s")
    return deps


def versus_grimp(package: str, repo: Path, deps: graph.Graph, runs: int, root: str = "") -> None:
    """ROOT is the folder inside REPO that holds PACKAGE (e.g. "src" for a src layout)."""
    import grimp

    sys.path.insert(0, str(repo / root))
    prefix = root.strip("/") + "/" if root.strip("/") else ""

    grimp_time, theirs = best(runs, lambda: _timed(grimp.build_graph, package, cache_dir=None))
    ours_time, _ = best(runs, analysis, repo)
    ours_cold, _ = best(runs, cold_analysis, repo)

    def module(path: str) -> str | None:
        if not path.endswith(".py") or not path.startswith(prefix):
            return None
        dotted = path[len(prefix):-3].replace("/", ".")
        return dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted

    # grimp only knows modules inside regular packages and keeps self-imports; compare like with like
    known = theirs.modules
    ours = {(module(a), module(b)) for a, b in deps.edges if module(a) in known and module(b) in known}
    their_edges = {(m, i) for m in known for i in theirs.find_modules_directly_imported_by(m) if i != m}
    both = ours & their_edges
    print(f"[grimp {grimp.__version__ if hasattr(grimp, '__version__') else ''}] {package}: "
          f"grimp {len(their_edges)} edges, ours {len(ours)}, shared {len(both)} "
          f"(recall {len(both) / max(1, len(their_edges)):.3f}, precision {len(both) / max(1, len(ours)):.3f})")
    print(f"  time: grimp {grimp_time:.2f}s | ours cold {ours_cold:.2f}s = {ours_cold / grimp_time:.2f}x, "
          f"warm {ours_time:.3f}s = {ours_time / grimp_time:.3f}x grimp")
    for a, b in sorted(their_edges - ours)[:5]:
        print(f"    only grimp: {a} -> {b}")
    for a, b in sorted(ours - their_edges)[:5]:
        print(f"    only ours:  {a} -> {b}")


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def generate(repo: Path, total: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    (repo / "go.mod").write_text("module example.com/gen\n\ngo 1.22\n")
    (repo / "Cargo.toml").write_text('[package]\nname = "gen"\nversion = "0.1.0"\n')
    kinds = ["py"] * 5 + ["ts"] * 3 + ["go", "rs"]
    made: dict[str, list[int]] = {k: [] for k in set(kinds)}
    for n in range(total):
        kind = rng.choice(kinds)
        peers = rng.sample(made[kind], min(4, len(made[kind])))
        made[kind].append(n)
        _write_generated(repo, kind, n, peers, rng)
    (repo / "src" / "lib.rs").write_text("".join(f"pub mod m{n};\n" for n in made["rs"]))


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
        text += f"export function f{n}(x: number): number {{\n" + body.replace("    value", "  const value") + "\n  return x;\n}\n"
    elif kind == "go":
        path = f"internal/p{n}/p.go"
        text = f"package p{n}\n\nimport (\n" + "".join(f'\t"example.com/gen/internal/p{p}"\n' for p in peers)
        text += ")\n\nfunc F(x int) int {\n" + body.replace("    value", "\tvalue").replace(" = ", " := ") + "\n\treturn x\n}\n"
    else:
        path = f"src/m{n}.rs"
        text = "".join(f"use crate::m{p}::f;\n" for p in peers) + f"pub fn f(x: i64) -> i64 {{\n"
        text += body.replace("    value", "    let value") + "\n    x\n}\n"
    full = repo / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="numpy")
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repo", type=Path, help="a fetched repository's git directory: its HEAD tree is "
                        "measured too (not committed; e.g. pallets/click with --repo-package click --repo-root src)")
    parser.add_argument("--repo-package", default=None, help="the Python package in --repo to compare with grimp")
    parser.add_argument("--repo-root", default="", help="the folder of --repo that holds that package")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.repo:
            fetched = Path(tmp) / "fetched"
            fetched.mkdir()
            archive = subprocess.run(["git", f"--git-dir={args.repo}", "archive", "HEAD"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(fetched)], input=archive, check=True)
            make_repo(fetched)
            deps = measure(f"{args.repo.parent.name} (fetched, HEAD)", fetched, args.runs)
            if args.repo_package:
                versus_grimp(args.repo_package, fetched, deps, args.runs, args.repo_root)
        real = Path(tmp) / "real"
        spec = importlib.util.find_spec(args.package)
        shutil.copytree(Path(spec.origin).parent, real / args.package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        make_repo(real)
        deps = measure(f"{args.package} (site-packages copy)", real, args.runs)
        versus_grimp(args.package, real, deps, args.runs)
        generated = Path(tmp) / "generated"
        generated.mkdir()
        generate(generated, args.files)
        make_repo(generated)
        measure(f"generated {args.files}-file tree", generated, args.runs)


if __name__ == "__main__":
    main()
