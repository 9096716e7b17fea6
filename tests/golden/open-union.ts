declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

type Key = {
  key: string; // The record's key.
};

type Keyed = {
  key: string; // The record's key.
  scope?: "team" | "org";
};

declare const tools: {
  // Archive a record, with a note for the audit log.
  archive_record(args: { record: {
    id: number;
    note?: unknown; // Why it is archived.
    source?: unknown;
  } }): Promise<unknown>;
  // Merge into one record.
  merge_records(args: { into: { id?: unknown; title?: string } }): Promise<unknown>;
  // Rename a record, found by its key when one is given.
  rename_record(args: { record: {
    key?: unknown; // The record's key.
    name: string;
    scope?: unknown;
  } }): Promise<unknown>;
  // Tag a record, named by its key or not at all.
  tag_record(args: { target: {
    key?: unknown; // The record's key.
    tag?: string;
  } }): Promise<unknown>;
  // Update a record, by id when one is given.
  update_record(args: { record: {
    id?: number; // The record's id.
    title?: string;
  } }): Promise<unknown>;
};
