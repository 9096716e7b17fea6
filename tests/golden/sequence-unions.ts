declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Add rows, given as records or as ids.
  add_rows(args: { rows: readonly { name: string }[] | readonly number[] }): Promise<unknown>;
  // Move to a place, and a floor when given.
  move_to(args: { target: readonly [{ place: string }] | readonly [{ place: string }, number] }): Promise<unknown>;
};
