from __future__ import annotations
from typing import Any, Literal, Protocol, Required, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class ArchiveRecordArgsRecord(TypedDict, total=False):
    id: Required[ReadOnly[int]]
    note: ReadOnly[Any]  # Why it is archived.
    source: ReadOnly[Any]

class MergeRecordsArgsInto(TypedDict, total=False):
    id: ReadOnly[Any]
    title: ReadOnly[str]

class RenameRecordArgsRecord(TypedDict, total=False):
    key: ReadOnly[Any]  # The record's key.
    name: Required[ReadOnly[str]]
    scope: ReadOnly[Any]

class TagRecordArgsTarget(TypedDict, total=False):
    key: ReadOnly[Any]  # The record's key.
    tag: ReadOnly[str]

class UpdateRecordArgsRecord(TypedDict, total=False):
    id: ReadOnly[int]  # The record's id.
    title: ReadOnly[str]

class Tools(Protocol):
    async def archive_record(self, *, record: ArchiveRecordArgsRecord) -> Any:
        """Archive a record, with a note for the audit log."""
    async def merge_records(self, *, into: MergeRecordsArgsInto) -> Any:
        """Merge into one record."""
    async def rename_record(self, *, record: RenameRecordArgsRecord) -> Any:
        """Rename a record, found by its key when one is given."""
    async def tag_record(self, *, target: TagRecordArgsTarget) -> Any:
        """Tag a record, named by its key or not at all."""
    async def update_record(self, *, record: UpdateRecordArgsRecord) -> Any:
        """Update a record, by id when one is given."""

tools: Tools
