"""`git context diff` between revisions: formatting is not a change, uncertain pairings are marked,
and git's rename detection reaches the matcher."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import commit, git, run_cli, run_json


def test_diff_formatter_commit_shows_no_change(repo: Path, capsys) -> None:
    a = commit(repo, {"AGENTS.md": "# A\n\n* Keep the build\n  green.  \n1) Use __uv__ for \\*everything\\*.\n"})
    b = commit(repo, {"AGENTS.md": "# A\n\n- Keep the build green.\n1. Use **uv** for *everything*.\n"})
    code, out, _ = run_cli(capsys, "diff", a, b)
    assert code == 0
    assert out == "no instruction changes (2 unchanged)\n"


def test_diff_uncertain_rewording_is_marked_with_old_text(repo: Path, capsys) -> None:
    a = commit(repo, {"AGENTS.md": "# A\n\n- Run the tests before pushing.\n- Use tabs in Go files.\n"})
    b = commit(
        repo,
        {
            "AGENTS.md": "# A\n\n- Tests must be green on your machine before you push anything.\n"
            "- Use tabs in Go files.\n"
        },
    )
    [row] = run_json(capsys, "diff", a, b)["reworded"]
    assert row["uncertain"] is True and row["similarity"] < 70
    _, out, _ = run_cli(capsys, "diff", a, b)
    assert f"reworded? {row['similarity']:.0f}%, was: Run the tests before pushing." in out


def test_diff_two_revisions_passes_git_renames(repo: Path, capsys) -> None:
    rules = "# A\n\n- The main pipeline is `.github/workflows/ci.yml`; keep it under ten minutes.\n"
    workflow = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n"
    a = commit(repo, {"AGENTS.md": rules, ".github/workflows/ci.yml": workflow})
    b = commit(
        repo,
        {
            "AGENTS.md": rules.replace("ci.yml", "test.yml"),
            ".github/workflows/ci.yml": None,
            ".github/workflows/test.yml": workflow,
        },
    )
    [row] = run_json(capsys, "diff", a, b)["reworded"]
    assert row["text"] == "The main pipeline is `.github/workflows/test.yml`; keep it under ten minutes."
    assert row["uncertain"] is False
    git(repo, "checkout", "-q", a)  # without the file rename, a swapped file name is doubtful at best
    c = commit(repo, {"AGENTS.md": rules.replace("ci.yml", "test.yml")})
    [row] = run_json(capsys, "diff", a, c)["reworded"]
    assert row["uncertain"] is True


def test_blame_text_a_rewording_is_never_shown_as_100_percent() -> None:
    from gitcontext.report.blame_text import _change

    line = _change(
        {
            "date": "2026-06-03T00:00:00Z",
            "commit": "a1884e7c0c",
            "change": "reworded",
            "subject": "docs",
            "similarity": 100.0,
            "old_text": "Keep it scoped; avoid refactors.",
        }
    )
    assert "(99%)" in line[0]
