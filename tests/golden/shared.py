from __future__ import annotations
from typing import Any, Literal, Protocol, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class GetUserArgs(TypedDict):
    id: str

class ListUsersOutput(TypedDict):
    users: list[User]

class RenameUserArgs(TypedDict):
    user: User

class User(TypedDict):
    id: str
    name: str  # Display name

class Tools(Protocol):
    async def get_user(self, args: GetUserArgs) -> User:
        """One user."""
        ...
    async def list_users(self, args: dict[str, Any]) -> ListUsersOutput:
        """Every user."""
        ...
    async def rename_user(self, args: RenameUserArgs) -> User:
        """Renames a user and returns it."""
        ...

tools: Tools
