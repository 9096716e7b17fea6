from __future__ import annotations
from typing import Any, Literal, Protocol, Sequence, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class AddRowsArgsRowsItem(TypedDict):
    name: ReadOnly[str]

class MoveToArgsTargetItem0(TypedDict):
    place: ReadOnly[str]

class Tools(Protocol):
    async def add_rows(self, *, rows: Sequence[AddRowsArgsRowsItem | int]) -> Any:
        """Add rows, given as records or as ids."""
    async def move_to(self, *, target: Sequence[MoveToArgsTargetItem0 | int]) -> Any:
        """Move to a place, and a floor when given."""

tools: Tools
