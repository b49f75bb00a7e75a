from __future__ import annotations

from gitcontext.identity.assign import greedy


def test_greedy_takes_best_first_and_uses_each_index_once() -> None:
    taken = greedy([(0.9, 0, 0), (0.8, 0, 1), (0.7, 1, 0), (0.6, 1, 1)])
    assert [(o, n) for _, o, n in taken] == [(0, 0), (1, 1)]


def test_greedy_global_best_beats_file_order() -> None:
    taken = greedy([(0.5, 0, 0), (0.9, 1, 0), (0.6, 0, 1)])
    assert sorted((o, n) for _, o, n in taken) == [(0, 1), (1, 0)]


def test_greedy_ties_break_the_same_way_when_old_and_new_swap() -> None:
    candidates = [(0.7, 0, 1), (0.7, 1, 1), (0.7, 1, 0), (0.7, 2, 1)]
    forward = {(o, n) for _, o, n in greedy(candidates)}
    backward = {(n, o) for _, o, n in greedy([(s, n, o) for s, o, n in candidates])}
    assert forward == backward
