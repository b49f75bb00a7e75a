"""The replay state: which file lives where, its current lines, and every version of every file.

A *chain* is one file's life: it follows renames (the path changes) and re-additions at the same
path. `feed` applies one commit's sections; removals are taken from the state before the commit,
so swaps, type changes (delete + add of one path) and renames resolve in any section order.
"""

from __future__ import annotations

from gitcontext.history.patch import Commit, apply

Entry = tuple[int, str, "str | None", str]  # (commit index, path, text or None, mode)


class ReplayState:
    def __init__(self) -> None:
        self.commits: list[tuple[str, str, str]] = []  # (sha, author date, subject), oldest first
        self.chains: list[list[Entry]] = []
        self.live: dict[str, int] = {}  # present path -> chain
        self.dead: dict[str, int] = {}  # path a chain was deleted at -> chain
        self.lines: dict[str, list[bytes]] = {}
        self.warnings: list[str] = []

    def feed(self, commit: Commit) -> None:
        index = len(self.commits)
        self.commits.append((commit.sha, commit.date, commit.subject))
        before_lines, before_live = dict(self.lines), dict(self.live)
        touched: dict[int, Entry] = {}
        freed: dict[str, int] = {}
        for s in commit.sections:
            if s.old_path is not None and s.old_path != s.new_path and s.old_path in self.live:
                chain = self.live.pop(s.old_path)
                self.lines.pop(s.old_path, None)
                freed[s.old_path] = chain
                if s.new_path is None:
                    touched[chain] = (index, s.old_path, None, "")
        for s in commit.sections:
            if s.new_path is None:
                continue
            base = before_lines.get(s.old_path, []) if s.old_path is not None else []
            lines = apply(base, s.hunks)
            chain = self._chain_for(s.old_path, s.new_path, before_live, freed)
            self.live[s.new_path] = chain
            self.lines[s.new_path] = lines
            self.dead.pop(s.new_path, None)
            touched[chain] = (index, s.new_path, self._decode(lines, s.new_path, commit.sha), s.mode)
        for chain, entry in sorted(touched.items()):
            if entry[2] is None:
                self.dead[entry[1]] = chain
            self.chains[chain].append(entry)

    def _chain_for(self, old: str | None, new: str, before_live: dict[str, int], freed: dict[str, int]) -> int:
        for candidate in (before_live.get(old) if old is not None else None, freed.get(new), self.dead.get(new)):
            if candidate is not None:
                return candidate
        self.chains.append([])
        return len(self.chains) - 1

    def _decode(self, lines: list[bytes], path: str, sha: str) -> str:
        data = b"".join(lines)
        if b"\0" in data:
            self.warnings.append(f"{path} at {sha[:12]}: contains NUL bytes (binary?); replayed as text")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.warnings.append(
                f"{path} at {sha[:12]}: not valid UTF-8 (byte {exc.start}); undecodable bytes kept as surrogates"
            )
            return data.decode("utf-8", "surrogateescape")
