"""`.context/config.yml` from a pull request: numbers range-checked, YAML bounded, no alias bomb."""

from __future__ import annotations

import pytest

from gitcontext import config
from gitcontext.errors import UserError
from tests.helpers import write

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(9)
)


@pytest.mark.parametrize(
    "text, needle",
    [
        ("hooks:\n  time_budget: .inf\n", "hooks.time_budget"),
        ("hooks:\n  time_budget: .nan\n", "hooks.time_budget"),
        ("hooks:\n  time_budget: 1.0e10\n", "hooks.time_budget"),
        ("hooks:\n  time_budget: -1\n", "hooks.time_budget"),
        ("hooks:\n  time_budget: 0\n", "hooks.time_budget"),
        ("version: 2\n", "'version'"),
        ("version: -7\n", "'version'"),
        ("audit:\n  stale_days: -3\n", "audit.stale_days"),
        ("radius:\n  lambda: .nan\n", "radius.lambda"),
        ("radius:\n  hops: 1000000\n", "radius.hops"),
        ("audit:\n  stale_days: " + "9" * 5000 + "\n", "cannot read config"),
        ("discovery:\n  include: ['" + "{" * 40 + "a" + "}" * 40 + "']\n", "discovery.include"),
        ("discovery:\n  include: ['" + "{a,b}" * 200 + "']\n", "discovery.include"),
        (BOMB, "aliases"),
        ("x: " + "[" * 20_000 + "]" * 20_000 + "\n", "nested"),
        ("x: " + "y" * 70_000 + "\n", "limit"),
        ("audit:\n  limits: {codex: -1}\n", "audit.limits.codex"),
        ("audit:\n  limits: {codex: 1.5}\n", "audit.limits.codex"),
        ("audit:\n  limits: {codex: true}\n", "audit.limits.codex"),
        ("audit:\n  limits: [codex]\n", "audit.limits"),
    ],
)
def test_config_hostile_values_are_user_errors_naming_the_key(repo, text, needle):
    write(repo, ".context/config.yml", text)
    with pytest.raises(UserError) as info:
        config.load(repo)
    message = str(info.value)
    assert needle in message and ".context/config.yml" in message and len(message) < 600


def test_config_in_range_values_load(repo):
    write(repo, ".context/config.yml", "version: 1\nhooks:\n  time_budget: 2\naudit:\n  stale_days: 1\n")
    loaded = config.load(repo)
    assert loaded["hooks"]["time_budget"] == 2 and loaded["audit"]["stale_days"] == 1


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_config_that_is_not_a_regular_file_is_an_error_not_a_hang(repo, kind):
    import os

    path = repo / ".context" / "config.yml"
    path.parent.mkdir()
    {
        "fifo": lambda: os.mkfifo(path),
        "dev-zero": lambda: os.symlink("/dev/zero", path),
        "directory": lambda: path.mkdir(),
    }[kind]()
    with pytest.raises(UserError, match="cannot read config"):
        config.load(repo)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

YAMLISH = st.lists(
    st.sampled_from(
        list("ab:-[]{}&*!|>'\"#\n ,.0123456789") + ["hooks", "time_budget", "version", ".inf", ".nan", "  ", "audit"]
    ),
    max_size=200,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(YAMLISH, st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_config_parse_is_a_config_or_a_user_error(text):
    try:
        loaded = config.parse(text.encode("utf-8", "surrogatepass"))
    except UserError as exc:
        assert ".context/config.yml" in str(exc) and len(str(exc)) < 800
    else:
        assert 0.1 <= loaded["hooks"]["time_budget"] <= 600 and loaded["version"] == 1


_LINES = [
    "version: 1",
    "# a comment",
    "  # indented",
    "\t# tab",
    "",
    "  ",
    "\t",
    "version: 1 # x",
    " version: 1",
    "---",
    "\ufeffversion: 1",
    "version:  1",
    "version: 2",
    "matcher: paper",
    "\x0c",
    "# a\u2028matcher: paper",
    "# a\rmatcher: paper",
    "# a\x85matcher: paper",
    "# \x00",
    "# é\ufeff",
    "...",
    "{}",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=6), st.sampled_from(["\n", "\r\n", "\r"]), st.text(max_size=5))
def test_config_load_skips_yaml_only_when_the_parser_gives_the_defaults(lines: list[str], end: str, tail: str) -> None:
    """`load` answers the defaults without yaml for a file of comments and `version: 1`; the parser agrees."""
    data = end.join([*lines, "# " + tail]).encode("utf-8", "surrogatepass")
    if config._says_nothing(data):
        assert config.parse(data) == config.DEFAULTS
