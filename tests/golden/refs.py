from __future__ import annotations
from typing import Any, Literal, NotRequired, Protocol, Sequence, TypeAlias, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

# @format uuid
AB: TypeAlias = 'str'

Branch: TypeAlias = 'str | tuple[str] | tuple[str, list[Branch]]'

Json: TypeAlias = 'str | float | bool | None | list[Json] | dict[str, Json]'

class Location(TypedDict):
    lat: ReadOnly[float]
    lon: ReadOnly[float]

NestedFilterArgs = TypedDict("NestedFilterArgs", {
    "and": 'ReadOnly[Sequence[NestedFilterArgs]]',
    "escaped": 'ReadOnly[AB]',
    "field": 'ReadOnly[str]',
    "location": 'ReadOnly[Location]',
}, total=False)

Pairs: TypeAlias = 'tuple[list[Pairs]] | str'

Path: TypeAlias = 'list[str]'

class Place(TypedDict):
    name: ReadOnly[str]

PlanRouteArgs = TypedDict("PlanRouteArgs", {
    "from": 'ReadOnly[Place]',
    "legs": 'NotRequired[ReadOnly[list[str]]]',
    "to": 'ReadOnly[PlanRouteArgsTo]',
    "via": 'NotRequired[ReadOnly[Place]]',
})

class PlanRouteArgsTo(TypedDict):
    name: ReadOnly[str]
    note: ReadOnly[str]

Steps: TypeAlias = 'tuple[str | list[Any], ...] | None'

class Tree(TypedDict):
    """A node and its children."""
    children: list[Tree]
    value: int

class Tools(Protocol):
    async def nested_filter(self, args: NestedFilterArgs = ...) -> Any:
        """A filter that refers to itself through the root."""
    async def plan_route(self, args: PlanRouteArgs) -> Any:
        """Plan a route; the keywords beside a reference apply too (draft 2020-12)."""
    async def plan_route_draft7(self, *, to: Place) -> Any:
        """The same under draft-07, where the keywords beside a reference are not read."""
    async def tree_insert(self, *, at: Path = ..., tree: Tree, value: Json) -> Tree:
        """Insert a value into a tree."""
        ...
    async def walk_steps(self, *, branch: Branch = ..., pairs: Pairs = ..., steps: Steps = ...) -> Any:
        """Walk nested steps. Steps nests below a tuple's rest element, which TypeScript cannot declare through its own alias; Pairs nests in a required element, which it can; Branch in an optional one, which it can too, written as one tuple per length."""

tools: Tools
