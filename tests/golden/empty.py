from __future__ import annotations
from typing import Literal, Protocol

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Tools(Protocol):
    pass

tools: Tools
