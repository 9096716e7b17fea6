// Call tools only through `tools`: `await tools["name"](args)`.
// Every call returns a Promise; a failed call rejects with ToolCallError.
// Arguments and results are plain JSON values.
declare class ToolCallError extends Error {
  /** The tool that failed. */
  readonly toolName: string;
  readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error";
}

declare const tools: {
  /** Send a notification to a channel or a user. */
  "notify"(args: { body: string | string[]; target: { id: string; kind: "channel" } | {
    email: string; // @format email
    kind: "user";
  }; thread?: string | null }): Promise<{
    sent_at: string; // @format date-time
  } | null>;
};
