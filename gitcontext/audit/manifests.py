"""What the tree's manifests define for the commands a context file names: package.json scripts, names,
dependencies and binaries; Make targets; just recipes; cargo packages; and the text of test files named
by id. Read from the index once per audit, through one `git cat-file --batch`, and only for the kinds of
command the context files use.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections.abc import Iterable
from typing import NamedTuple

from gitcontext import git
from gitcontext.audit.ref import generated
from gitcontext.radius.resolvers.manifests import Malformed, parse

MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
JUSTFILES = ("justfile", "Justfile", ".justfile")
ANY = frozenset({"%"})  # a manifest that includes another: it may define anything


# Packages whose binaries are not named after them (a binary named like its package needs no row).
BINARIES = {
    "typescript": ("tsc", "tsserver"),
    "@playwright/test": ("playwright",),
    "@changesets/cli": ("changeset",),
    "@sveltejs/kit": ("svelte-kit",),
    "@angular/cli": ("ng",),
    "nuxt": ("nuxi",),
    "storybook": ("sb",),
    "webpack-cli": ("webpack",),
    "@vue/cli-service": ("vue-cli-service",),
    "@biomejs/biome": ("biome",),
    "@nestjs/cli": ("nest",),
    "@tauri-apps/cli": ("tauri",),
    "@redocly/cli": ("redocly",),
    "@microsoft/api-extractor": ("api-extractor",),
}


class Package(NamedTuple):
    """One package.json: its name, scripts, and the binaries its (dev)dependencies may install."""

    name: str
    scripts: frozenset[str]
    deps: frozenset[str]  # dependency names and their last segment (`@biomejs/biome` -> biome)


class Manifests:
    def __init__(self, root, tracked: frozenset[str], kinds: set[str], texts: Iterable[str] = ()) -> None:
        names = set()
        if "script" in kinds:
            names.add("package.json")
        if "make" in kinds:
            names.update(MAKEFILES)
        if "just" in kinds:
            names.update(JUSTFILES)
        if "cargo" in kinds:
            names.update(("Cargo.toml", "Cargo.lock"))
        wanted = sorted(
            {p for p in tracked if posixpath.basename(p) in names and not generated(p)} | set(texts) & tracked
        )
        blobs = git.read_blobs([f":{p}" for p in wanted if "\n" not in p], root)
        self.texts = {p: blobs[f":{p}"].decode("utf-8", "replace") for p in wanted if f":{p}" in blobs}
        self.packages = {posixpath.dirname(p): pkg for p, t in self.texts.items() if (pkg := _package(p, t))}
        self.by_name = {pkg.name: folder for folder, pkg in self.packages.items() if pkg.name}
        self.script_bins = frozenset(_first_words(self.texts))
        self.make = {posixpath.dirname(p): make_targets(t) for p, t in self.texts.items() if _named(p, MAKEFILES)}
        self.just = {posixpath.dirname(p): just_recipes(t) for p, t in self.texts.items() if _named(p, JUSTFILES)}
        self.crates = frozenset(
            c for p, t in self.texts.items() if _named(p, ("Cargo.toml", "Cargo.lock")) for c in _crates(p, t)
        )

    def text(self, path: str) -> str:
        return self.texts.get(path, "")

    def binaries(self, folders: Iterable[str]) -> frozenset[str]:
        """What `pnpm NAME`/`npx NAME` can run from FOLDERS: their packages' dependencies (and the root's),
        and every command the repository's scripts start with (`tsx`, `vitest`, `turbo`)."""
        deps = {d for f in [*folders, ""] if (pkg := self.packages.get(f)) for d in pkg.deps}
        return frozenset(deps) | self.script_bins


def _named(path: str, names: tuple[str, ...]) -> bool:
    return posixpath.basename(path) in names


def _package(path: str, text: str) -> Package | None:
    if posixpath.basename(path) != "package.json":
        return None
    try:
        data = parse(path, text)
    except (Malformed, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    scripts = data.get("scripts")
    deps: set[str] = set()
    for key in ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies"):
        if isinstance(data.get(key), dict):
            deps |= {d for name in data[key] for d in (name, name.rsplit("/", 1)[-1], *BINARIES.get(name, ()))}
    if isinstance(data.get("bin"), dict):
        deps |= set(data["bin"])
    own = data.get("name")
    return Package(
        own if isinstance(own, str) else "",
        frozenset(scripts) if isinstance(scripts, dict) else frozenset(),
        frozenset(deps),
    )


def _first_words(texts: dict[str, str]) -> set[str]:
    words = set()
    for path, text in texts.items():
        if posixpath.basename(path) != "package.json":
            continue
        for command in re.findall(r'"[\w:.\-]+"\s*:\s*"([^"]*)"', text):
            for part in re.split(r"&&|\|\||;|\|", command):
                first = [w for w in part.split() if not re.match(r"^[A-Z_]+=", w)]
                if first:
                    words.add(first[0])
    return words


def make_targets(text: str) -> frozenset[str]:
    """The targets a Makefile's TEXT defines; ANY when it includes another file."""
    if re.search(r"^-?include\s", text, re.M):
        return ANY
    return frozenset(t for m in re.finditer(r"^([^\s:#=][^:#=]*):(?!=)", text, re.M) for t in m.group(1).split())


def just_recipes(text: str) -> frozenset[str]:
    """The recipes and aliases a justfile's TEXT defines; ANY when it imports another, loads modules or
    falls back to a parent justfile."""
    if re.search(r"^(?:import|mod)\s|^set\s+fallback", text, re.M):
        return ANY
    recipes = {m.group(1) for m in re.finditer(r"^@?([A-Za-z_][\w-]*)\b[^:=\n]*:(?!=)", text, re.M)}
    aliases = set(re.findall(r"^alias\s+([A-Za-z_][\w-]*)\s*:=", text, re.M))
    return frozenset(recipes | aliases)


def _crates(path: str, text: str) -> set[str]:
    try:
        data = parse(path if path.endswith(".toml") else path + ".toml", text)
    except (Malformed, ValueError):
        return set()
    if not isinstance(data, dict):
        return set()
    names = {p.get("name") for p in data.get("package", []) if isinstance(p, dict)} if path.endswith(".lock") else set()
    package = data.get("package")
    if isinstance(package, dict):
        names.add(package.get("name"))
    for key in ("dependencies", "dev-dependencies", "build-dependencies"):
        if isinstance(data.get(key), dict):
            names |= set(data[key])
    return {form for n in names if isinstance(n, str) for form in (n, n.replace("-", "_"), n.replace("_", "-"))}


def publishes(manifest: str | None, path: str) -> bool:
    """The package.json text MANIFEST publishes PATH (relative to its folder): the package is not private
    and an entry of its `files` names PATH, a folder holding it, or a glob matching it. What a package
    publishes is read from node_modules by its users, apart from the repository around it."""
    try:
        data = json.loads(manifest) if manifest else None
    except ValueError:
        return False
    listed = data.get("files") if isinstance(data, dict) and not data.get("private") else None
    if not isinstance(listed, list):
        return False
    entries = [e.strip("/").removeprefix("./").rstrip("/") for e in listed if isinstance(e, str)]
    return any(e and (path == e or path.startswith(e + "/") or fnmatch.fnmatchcase(path, e)) for e in entries)


def installed_skills(manifest: str | None) -> list[str]:
    """The skill folders a dotagents `agents.toml` MANIFEST installs from another repository (`[[skills]]`
    with `source = "getsentry/dotagents"`; not a `path:` source, which is this repository's own): skills
    written for every project that installs them, whose paths name the user's project, not this one."""
    try:
        data = parse("agents.toml", manifest) if manifest else None
    except Malformed:
        return []
    skills = data.get("skills") if isinstance(data, dict) else None
    return [
        f".agents/skills/{s['name']}"
        for s in (skills if isinstance(skills, list) else [])
        if isinstance(s, dict)
        and isinstance(s.get("name"), str)
        and isinstance(s.get("source"), str)
        and re.fullmatch(r"[\w.-]+", s["name"])
        and not s["source"].startswith(("path:", ".", "/"))
    ]
