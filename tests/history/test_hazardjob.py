"""The hazard computed in a helper process (numpy imported beside the trace) is the hazard computed here."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from gitcontext.history import hazardjob
from gitcontext.history.hazardjob import HazardJob

pytestmark = pytest.mark.skipif(not hasattr(os, "posix_spawnp"), reason="no posix_spawn: the job computes in-process")


def _rows(seed: int, n: int = 300) -> list[tuple[int, int, bool]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        entry = rng.randrange(6) if rng.random() < 0.3 else 0
        exit_ = entry + rng.randrange(25)
        rows.append((entry, exit_, exit_ > entry and rng.random() < 0.4))
    return rows


# A fresh Python, as `git context history` is: numpy is not loaded, so the job starts its helper.
PROBE = """
import json, os, sys
sys.modules.pop("numpy", None)
from gitcontext.history import hazardjob
hazardjob._cpus = lambda: 2                              # the test machine may lend us one CPU only
from gitcontext.history.hazardjob import HazardJob
rows, mode = json.loads(sys.argv[1]), sys.argv[2]
job = HazardJob.start(500)
forked = job._helper is not None
if mode == "dead":
    os.kill(job._helper[0], 9)
before = "numpy" in sys.modules
got = job.estimate([tuple(r) for r in rows], 200)
job.close()
from gitcontext.history import hazard as hz
want = hz.estimate(hz.subjects([tuple(r) for r in rows]), 200)
print(json.dumps([forked, before, got.to_json() == want.to_json(), got.log_slope is not None]))
"""


def _probe(rows, mode: str = "ask") -> list:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(rows), mode], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_helper_answers_exactly_what_this_process_would(seed):
    forked, numpy_here, same, has_slope = _probe(_rows(seed))
    assert forked and not numpy_here and same and has_slope


def test_a_helper_that_died_is_computed_here_instead():
    forked, numpy_here, same, _ = _probe(_rows(2), "dead")
    assert forked and same


def test_a_job_closed_unasked_leaves_no_helper(monkeypatch):
    monkeypatch.setattr(hazardjob, "worthwhile", lambda commits: True)
    job = HazardJob.start(500)
    pid = job._helper[0]
    job.close()
    job.close()  # twice is fine
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left


def test_the_helper_never_imports_gitcontext_from_the_repository(tmp_path):
    """A repository holding a `gitcontext/` package (this one does) must not run it: `-c` puts the
    current folder first on sys.path, and the helper takes it off."""
    fake = tmp_path / "gitcontext" / "history"
    fake.mkdir(parents=True)
    (tmp_path / "gitcontext" / "__init__.py").write_text("raise SystemExit('the repository ran')\n")
    (fake / "__init__.py").write_text("")
    probe = (
        "import sys; sys.modules.pop('numpy', None)\n"
        "from gitcontext.history import hazardjob\n"
        "hazardjob._cpus = lambda: 2\n"
        "job = hazardjob.HazardJob.start(500)\n"
        "rows = [(0, k % 7 + 1, k % 2 == 0) for k in range(40)]\n"
        "print(job._ask(rows, 20) is not None)\n"
    )
    import gitcontext

    package_parent = str(__import__("pathlib").Path(gitcontext.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": package_parent}
    out = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path = [p for p in sys.path if p]\n" + probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert out.stdout.strip() == "True", out.stderr


def test_no_helper_with_numpy_loaded_for_a_short_trace_or_on_one_cpu(monkeypatch):
    import numpy  # noqa: F401  (loaded, as in a `corpus` worker after its first repository)

    from gitcontext.history import hazard as hz

    assert not hazardjob.worthwhile(10_000)
    job = HazardJob.start(10_000)
    assert job._helper is None
    rows = _rows(3)
    assert job.estimate(rows, 50) == hz.estimate(hz.subjects(rows), 50)
    monkeypatch.delitem(sys.modules, "numpy")  # as if not loaded; restored when the test ends
    monkeypatch.setattr(hazardjob, "_cpus", lambda: 2)
    assert hazardjob.worthwhile(hazardjob.MIN_COMMITS) and not hazardjob.worthwhile(hazardjob.MIN_COMMITS - 1)
    monkeypatch.setattr(hazardjob, "_cpus", lambda: 1)
    assert not hazardjob.worthwhile(10_000)
    monkeypatch.setattr(hazardjob, "_cpus", lambda: 2)
    monkeypatch.setattr(sys, "executable", "")  # an embedded interpreter: nothing to start
    assert not hazardjob.worthwhile(10_000)
