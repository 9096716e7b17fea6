// Call tools only through `tools`: `await tools["name"](args)`.
// Every call returns a Promise; a failed call rejects with ToolCallError.
// Arguments and results are plain JSON values.
declare class ToolCallError extends Error {
  /** The tool that failed. */
  readonly toolName: string;
  readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error";
}

declare const tools: {
  /** Schemas the renderer cannot fully express. */
  "broken"(args: { bad_enum?: unknown; bad_items?: unknown[]; bad_props?: unknown; bad_required?: unknown; fine: string; missing?: unknown; number_schema?: unknown; object_enum?: unknown; remote?: unknown; unknown_type?: unknown }): Promise<unknown>;
};
