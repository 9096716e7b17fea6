from __future__ import annotations
from typing import Any, Literal, Protocol

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Tools(Protocol):
    async def broken(self, *, bad_enum: Any = ..., bad_items: list[Any] = ..., bad_props: Any = ..., bad_required: Any = ..., fine: str, missing: Any = ..., number_schema: Any = ..., object_enum: Any = ..., remote: Any = ..., unknown_type: Any = ...) -> Any:
        """Schemas the renderer cannot fully express."""

tools: Tools
