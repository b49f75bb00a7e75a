"""The tracer's fast path (the matcher sees only the stretch a commit changed, identity.match_changed)
gives the lineage of the whole-file match, on real histories."""

from __future__ import annotations

import pytest

from gitcontext import config as config_mod
from gitcontext.history.analyze import measure
from gitcontext.history.lives import FileStep
from gitcontext.history.replay import replay
from gitcontext.history.tracer import Tracer

CONFIG = config_mod.DEFAULTS
NAMES = ["charmbracelet__crush", "cline__cline", "PrefectHQ__fastmcp", "modelcontextprotocol__python-sdk"]


def _whole_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every commit that changes rules on both sides goes to the whole-file match (the former tracer)."""
    monkeypatch.setattr(Tracer, "_changed", lambda self, chain, olds, after, head, tail: None)


def _trace(result, matcher: str) -> tuple[list, list[FileStep]]:
    steps: list[FileStep] = []
    tracer = Tracer(result, matcher, steps.append)
    tracer.run()
    return tracer.lives(), [s._replace(ends=None) for s in steps]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("matcher", ["default", "paper"])
def test_tracer_changed_stretch_equals_whole_file_match(corpus_repo, monkeypatch, name: str, matcher: str) -> None:
    result = replay(corpus_repo(name), CONFIG)
    fast = _trace(result, matcher)
    assert any(s.reworded for s in fast[1])  # the histories hold rewordings to get right
    _whole_files(monkeypatch)
    assert fast == _trace(result, matcher)


@pytest.mark.parametrize("name", NAMES[:2])
def test_tracer_changed_stretch_equals_whole_file_history_json(corpus_repo, monkeypatch, tmp_path, name: str) -> None:
    """`history`'s measurement (rows, payload sums through FileStep.ends, hazard) is the same."""
    repo = corpus_repo(name)
    fast = measure(repo, CONFIG).to_json()
    _whole_files(monkeypatch)
    monkeypatch.setattr("gitcontext.history.measurecache.save", lambda *args, **kwargs: None)
    monkeypatch.setattr("gitcontext.history.measurecache.restore", lambda *args, **kwargs: (0, None))
    assert fast == measure(repo, CONFIG).to_json()
