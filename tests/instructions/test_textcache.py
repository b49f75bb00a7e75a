"""Segmentation kept by content (`.git/gitcontext/segments.json`): every load equals segmenting the files
afresh, whatever the cache holds, and only new content is segmented."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.instructions import textcache
from gitcontext.instructions.discover import discover, load
from gitcontext.instructions.segment import segment
from tests.helpers import commit, git, write

RULES = "# Rules\n\n- Run the tests before every push.\n- Never force-push to main.\n\n@docs/style.md\n"
STYLE = "# Style\n\n- Wrap lines at 100 columns.\n- Name tests for what they check.\n"


@pytest.fixture
def files(repo: Path) -> Path:
    commit(repo, {"CLAUDE.md": RULES, "docs/style.md": STYLE, "pkg/AGENTS.md": "- Use the package linter.\n"})
    return repo


def _fresh(repo: Path) -> dict:
    config = config_mod.load(repo)
    return {path: segment((repo / path).read_text(), path) for path in discover(repo, config)}


def _computed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = textcache._compute

    def counting(text: str):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(textcache, "_compute", counting)
    return seen


def _cache(repo: Path) -> Path:
    return repo / ".git" / textcache.CACHE


def test_load_warm_equals_fresh_and_segments_nothing(files: Path, monkeypatch) -> None:
    config = config_mod.load(files)
    computed = _computed(monkeypatch)
    assert load(files, config) == _fresh(files) and len(computed) == 3  # the import is found and kept too
    fresh = _fresh(files)
    computed.clear()
    assert load(files, config) == fresh and computed == []
    assert sorted(load(files, config)) == ["CLAUDE.md", "docs/style.md", "pkg/AGENTS.md"]


def test_load_same_size_edit_with_the_old_mtime_is_seen(files: Path) -> None:
    """The key is the bytes (their blob id): an edit that keeps the size and the mtime is still seen."""
    config = config_mod.load(files)
    load(files, config)
    path = files / "CLAUDE.md"
    info = path.stat()
    path.write_text(RULES.replace("every push", "every pull"))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns
    got = load(files, config)
    assert got == _fresh(files) and got["CLAUDE.md"][0].text == "Run the tests before every pull."


def test_load_after_checkout_import_removed_and_config_change(files: Path) -> None:
    config = config_mod.load(files)
    load(files, config)
    git(files, "checkout", "-q", "-b", "topic")
    commit(files, {"CLAUDE.md": "- Only this rule is left here.\n"}, "no import")
    assert load(files, config) == _fresh(files) and "docs/style.md" not in load(files, config)
    git(files, "checkout", "-q", "main")
    assert load(files, config) == _fresh(files) and "docs/style.md" in load(files, config)
    write(files, ".context/config.yml", "version: 1\ndiscovery:\n  exclude: ['pkg/**']\n")
    config = config_mod.load(files)
    assert "pkg/AGENTS.md" not in load(files, config) and load(files, config) == _fresh(files)


def test_load_same_text_in_two_files_each_under_its_own_path(files: Path) -> None:
    write(files, "other/AGENTS.md", "- Use the package linter.\n")
    got = load(files, config_mod.load(files))
    assert [i.file for i in got["other/AGENTS.md"]] == ["other/AGENTS.md"]
    assert got == _fresh(files)


@pytest.mark.parametrize(
    "hostile",
    [
        "{broken",
        "[]",
        '{"format": 1}',
        "null",
        lambda d: {**d, "code": [[0, 0]] * len(d["code"])},  # another gitcontext
        lambda d: {
            **d,
            "texts": {
                k: [[[1, 999, "Out of the file.", "out of the file", [], "item", 0]], [], []] for k in d["texts"]
            },
        },  # a line past the end
        lambda d: {**d, "texts": {k: [[[1, 1, 7, "x", [], "item", 0]], [], []] for k in d["texts"]}},
        lambda d: {
            **d,
            "texts": {k: [[[1, 1, "Fake rule here.", "fake rule here", [], "law", 0]], [], []] for k in d["texts"]},
        },  # an unknown kind
        lambda d: {**d, "texts": {k: [[], ["../../etc/passwd.md"], 5] for k in d["texts"]}},
        lambda d: {**d, "texts": {k: 7 for k in d["texts"]}},
    ],
)
def test_load_corrupt_or_hostile_cache_is_ignored(files: Path, hostile) -> None:
    config = config_mod.load(files)
    load(files, config)
    cache = _cache(files)
    text = hostile if isinstance(hostile, str) else json.dumps(hostile(json.loads(cache.read_text())))
    cache.write_text(text)
    assert load(files, config) == _fresh(files)
    assert load(files, config) == _fresh(files)  # rewritten (or ignored) the same


def test_load_cache_that_is_a_symlink_or_a_folder_is_ignored(files: Path, tmp_path: Path) -> None:
    config = config_mod.load(files)
    load(files, config)
    cache = _cache(files)
    target = tmp_path / "elsewhere.json"
    target.write_text(cache.read_text().replace("Run the tests", "Skip the tests"))
    cache.unlink()
    cache.symlink_to(target)
    assert load(files, config) == _fresh(files)
    cache.unlink()
    cache.mkdir()
    assert load(files, config) == _fresh(files)


def test_load_text_with_a_secret_is_never_kept(files: Path, monkeypatch) -> None:
    token = "ghp_" + "R2d2C3poBB8ELukeLeia0123456789abcdEF"
    write(files, "CLAUDE.md", RULES + f"- Call the API with {token} in CI.\n")
    config = config_mod.load(files)
    assert load(files, config) == _fresh(files)
    kept = _cache(files).read_text()
    assert token not in kept and "Wrap lines at 100 columns." in kept
    fresh = _fresh(files)
    computed = _computed(monkeypatch)
    assert load(files, config) == fresh and len(computed) == 1  # only the file with the secret


def test_load_without_a_writable_git_dir_still_loads(files: Path) -> None:
    folder = files / ".git" / "gitcontext"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o500)
    try:
        assert load(files, config_mod.load(files)) == _fresh(files)
    finally:
        folder.chmod(0o700)


def test_load_sees_a_new_untracked_or_removed_context_file(files: Path, monkeypatch) -> None:
    config = config_mod.load(files)
    load(files, config)
    write(files, "sub/CLAUDE.md", "- A new rule for the sub folder.\n")  # untracked, not ignored
    assert "sub/CLAUDE.md" in load(files, config) and load(files, config) == _fresh(files)
    write(files, ".gitignore", "sub/\n")  # now ignored
    assert "sub/CLAUDE.md" not in load(files, config) and load(files, config) == _fresh(files)
    (files / "pkg" / "AGENTS.md").unlink()
    git(files, "rm", "-q", "--cached", "pkg/AGENTS.md")
    assert "pkg/AGENTS.md" not in load(files, config) and load(files, config) == _fresh(files)


@pytest.mark.parametrize("odd", [["0" * 40, ["CLAUDE.md"]], "x", [None, 7], lambda f: [f[0], [*f[1], "not/listed.md"]]])
def test_load_odd_listing_entry_is_filtered_afresh(files: Path, odd) -> None:
    config = config_mod.load(files)
    load(files, config)
    cache = _cache(files)
    data = json.loads(cache.read_text())
    data["found"] = odd(data["found"]) if callable(odd) else odd
    cache.write_text(json.dumps(data))
    assert load(files, config) == _fresh(files)


def test_load_with_a_file_name_that_is_not_utf8(files: Path) -> None:
    """ls-files names such a file with surrogate escapes: the listing is still kept, and read back."""
    (files / os.fsdecode(b"notes-\xff.txt")).write_text("x\n")
    config = config_mod.load(files)
    assert load(files, config) == _fresh(files)
    assert json.loads(_cache(files).read_text())["found"][1] == ["CLAUDE.md", "pkg/AGENTS.md"]
    assert load(files, config) == _fresh(files)


def _uncached(repo: Path, rev: str) -> dict:
    return load(repo, config_mod.load(repo), rev)


@pytest.mark.parametrize("rev", ["HEAD", ""])  # a commit, the index
def test_load_of_a_revision_cached_equals_uncached_and_segments_its_blobs_once(files: Path, monkeypatch, rev) -> None:
    """The hooks load HEAD and the index with CACHED: each blob is segmented once, then read by its id,
    and every answer is the uncached one (the staged text differs from the work tree's here)."""
    config = config_mod.load(files)
    write(files, "CLAUDE.md", RULES + "- Staged, not committed.\n")
    git(files, "add", "CLAUDE.md")
    write(files, "CLAUDE.md", RULES + "- Neither staged nor committed.\n")
    expected = _uncached(files, rev)
    computed = _computed(monkeypatch)
    assert load(files, config, rev, cached=True) == expected and len(computed) == 3
    computed.clear()
    assert load(files, config, rev, cached=True) == expected and computed == []
    assert ("Staged, not committed." in str(expected)) == (rev == "")


def test_load_of_a_revision_with_a_hostile_cache_entry_is_segmented_afresh(files: Path) -> None:
    """An entry for the revision's blob that does not fit its text (a line past the end) is not believed."""
    config = config_mod.load(files)
    expected = _uncached(files, "HEAD")
    load(files, config, "HEAD", cached=True)
    cache = _cache(files)
    data = json.loads(cache.read_text())
    data["texts"] = {
        k: [[[1, 999, "Out of the file.", "out of the file", [], "item", 0]], [], []] for k in data["texts"]
    }
    cache.write_text(json.dumps(data))
    assert load(files, config, "HEAD", cached=True) == expected


def test_budget_counts_through_the_cache_as_segmenting_afresh(files: Path, monkeypatch) -> None:
    """`budget`'s count of a view's instructions (imports expanded) is kept by the view's bytes."""
    from gitcontext.instructions.render import budget

    fresh = budget(files, "CLAUDE.md")
    kept = textcache.TextCache(files / ".git")
    assert budget(files, "CLAUDE.md", kept) == fresh and fresh["instructions"] == 4
    kept.save()
    computed = _computed(monkeypatch)
    assert budget(files, "CLAUDE.md", textcache.TextCache(files / ".git")) == fresh and computed == []
