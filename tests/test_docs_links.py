"""Every relative link in the README and docs/ names a file that exists, and an anchor names one of its headings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def links(page: Path) -> list[str]:
    text = _CODE.sub("", _FENCE.sub("", page.read_text(encoding="utf-8")))
    return [t for t in _LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def test_docs_links_slug_follows_github() -> None:
    assert slug("Squash and rebase merges") == "squash-and-rebase-merges"
    assert slug("`hooks.policy`") == "hookspolicy"
    assert (
        slug("Hosted merges (GitHub's merge button) and `doctor --check-merge`")
        == "hosted-merges-githubs-merge-button-and-doctor---check-merge"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_docs_links_resolve(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_docs_links_readme_links_every_guide() -> None:
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in links(ROOT / "README.md")}
    unlinked = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert not unlinked, f"README.md links no guide named {', '.join(unlinked)}: add it under Documentation"
