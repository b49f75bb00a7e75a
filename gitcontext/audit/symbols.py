"""The code symbols a context file names (GC103): calls with their keyword parameters, classes named as
such, keyword parameters; only names specific enough to say something when no source file has them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitcontext.audit.ref import Ref
from gitcontext.instructions.blocks import split_lines
from gitcontext.instructions.sentences import code_spans

_CALL = re.compile(r"^(?:[A-Za-z_$][\w$]*(?:\.|::))*([A-Za-z_$][\w$]{2,})\((.*)\)$")
_KEYWORD = re.compile(r"(?:^|[(,]\s*)([A-Za-z_]\w*)\s*=(?!=)")
_CLASS = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")
_IDENT = re.compile(r"^[A-Za-z_]\w{2,}=?$")
_TYPE_AFTER = re.compile(
    r"^\W{0,2}\s*(?:base\s+)?(?:class|classes|type|interface|struct|enum|trait|component|model|exception|"
    r"subclass|subclasses|mixin|protocol|decorator|dataclass)\b",
    re.I,
)
_TYPE_BEFORE = re.compile(
    r"\b(?:class|struct|enum|trait|interface|extends|implements|inherits?\s+from|subclass(?:es)?\s+of|"
    r"derives?\s+from|instances?\s+of)\s*$",
    re.I,
)
_PARAM_AFTER = re.compile(
    r"^\W{0,2}\s*(?:keyword\s+)?(?:parameter|param|argument|arg|kwarg|keyword)s?\b",
    re.I,
)


def symbols(file: str, line: str, number: int, span: str, at: tuple[int, int]) -> Iterator[Ref]:
    """A call (`name()`, `load(path, strict=True)` with its keyword parameters), a class named as one
    ("the `RetryPolicy` class", "extends `BaseAgent`") or a keyword parameter ("the `max_retries`
    parameter", `timeout=`)."""
    after, before = line[at[1] + 1 :], line[: max(0, at[0] - 1)]
    call = _CALL.match(span)
    if call and "$" in call.group(1):
        return  # `$transaction(...)`, `$emit()`: framework names git grep's words cannot spell
    if call and call.group(1).lower().startswith("mcp_"):
        return  # `mcp__figma__get_metadata(...)`: a tool of an MCP server, called by the agent
    if call:
        if specific(call.group(1)):
            yield Ref(file, number, "symbol", call.group(1), written=span, tool="call")
        for keyword in _KEYWORD.findall("(" + call.group(2)):
            if specific(keyword):
                yield Ref(file, number, "symbol", keyword, written=span, tool="parameter")
    elif _CLASS.match(span) and (_TYPE_AFTER.match(after) or _TYPE_BEFORE.search(before)):
        yield Ref(file, number, "symbol", span, written=span, tool="class")
    elif _IDENT.match(span) and (span.endswith("=") or _PARAM_AFTER.match(after)) and specific(span.rstrip("=")):
        yield Ref(file, number, "symbol", span.rstrip("="), written=span, tool="parameter")


# a camel-case word that is one placeholder letter (`WithX`, `getXById`, `SurfacedX`), not an acronym (`parseXML`)
_PLACEHOLDER_WORD = re.compile(r"(?<=[a-z0-9])(?:[XYZ]|Xxx|Foo|Bar)(?=$|_|[A-Z][a-z]|\d)")


def specific(name: str) -> bool:
    """A name specific enough to say something when no source file has it: `parse_config`, `defineJob`,
    `reconnect`; not `run`, `set` or `text`, which some file of nearly every tree holds, nor a name
    with a placeholder letter for a camel-case word (`WithX()` for every `With…` method)."""
    core = name.strip("_")
    if _PLACEHOLDER_WORD.search(core):
        return False
    return "_" in core or bool(re.search(r"[a-z][A-Z]", core)) or len(core) >= 8


def is_call(span: str) -> bool:
    return bool(_CALL.match(span))


_MCP_HEADING = re.compile(r"^#+\s.*\bMCP\b")
_TOOL_NAME = re.compile(r"^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\(.*\))?$")


def mcp_tools(text: str) -> set[str]:
    """The tool names a context file lists under a heading about an MCP server ("### Playwright MCP":
    `browser_navigate` - …): names the agent calls, that no source file of the repository defines."""
    tools: set[str] = set()
    inside = False
    for line in split_lines(text):
        if line.startswith("#"):
            inside = bool(_MCP_HEADING.match(line))
        elif inside:
            tools.update(m.group(1) for _, a, b, _ in code_spans(line) if (m := _TOOL_NAME.match(line[a:b].strip())))
    return tools
