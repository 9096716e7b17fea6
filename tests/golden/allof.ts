declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

type Filter = { field: string; value?: string };

type Kinded = { kind: unknown };

type Note = string | null;

type Profile = { age?: number; name: string };

declare const tools: {
  // Attach a note, which may be text or null; a note object must have text.
  annotate(args: { note: Note }): Promise<unknown>;
  // An allOf that is not made of objects.
  constrained(args?: { code?: string & number }): Promise<unknown>;
  // Create a user from a base profile plus credentials.
  create_user(args: Profile & {
    password: string; // @minLength 12
  }): Promise<unknown>;
  // Label an item with text, nothing, or a label object that names it or gives its id.
  label(args: { label: string | null | { id?: number; name?: string } & ({ name: unknown } | { id: unknown }) }): Promise<unknown>;
  // Record a measurement.
  measure(args: { count: number; scale?: number | null; unit: "cm" | "in" }): Promise<unknown>;
  // Pick an item by id, or pass null to pick none.
  pick(args: { item: { id?: string } & { id: unknown } | null }): Promise<unknown>;
  // Rename a target given by path, by nothing, or as an object with its id.
  rename(args: { target: string | null | { id?: number } & { name: string } }): Promise<unknown>;
  // Schedule a job; a job that repeats must say how often.
  schedule(args: { job: string; repeat?: boolean } & {
    every?: number; // @minimum 1
  }): Promise<unknown>;
  // Search notes, optionally through a filter object, or null for none.
  search(args: { filter: Filter & { [key: string]: unknown } | null }): Promise<unknown>;
  // Tag an item with text, nothing, or a tag object that names its kind.
  tag(args: { tag: string | null | { kind?: string; note?: string } & Kinded }): Promise<unknown>;
};
