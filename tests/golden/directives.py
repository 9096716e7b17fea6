from __future__ import annotations
from typing import Any, Awaitable, Callable, Literal, Protocol, TypeAlias, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

# mypy : ignore-errors
Kind: TypeAlias = 'Literal["plain", "rich"]'

# ﻿pyright : basic
Level: TypeAlias = 'Literal["low", "high"]'

OddTypeIgnoreArgs = TypedDict("OddTypeIgnoreArgs", {
    "class": 'ReadOnly[str]',  # pyre -ignore
    "x-y": 'ReadOnly[int]',  # Count # type : ignore[misc]
}, total=False)

class Tools(Protocol):
    async def annotate(self, *,
        # The text.
        # # pyright : basic
        # // @ts-ignore
        body: str = ...,
        kind: Kind = ...,
        level: Level = ...,
        note: str,  # @ts-expect-error
        tag: str = ...,  # type : ignore
    ) -> Any:
        """Adds a note to a record.
@ts-expect-error
# type: ignore
        """
    def __getitem__(self, name: Literal["odd # type: ignore"]) -> Callable[[OddTypeIgnoreArgs], Awaitable[Any]]:
        """pyright: basic
@TS-NOCHECK
        """
        ...

tools: Tools
