// Call tools only through `tools`: `await tools["name"](args)`.
// Every call returns a Promise; a failed call rejects with ToolCallError.
// Arguments and results are plain JSON values.
declare class ToolCallError extends Error {
  /** The tool that failed. */
  readonly toolName: string;
  readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error";
}

declare const tools: {
  /** Say hello to someone. */
  "greet"(args: {
    loud?: boolean;
    name: string; // Who to greet.
    times?: number; // @minimum 1 @default 1
  }): Promise<{ message: string }>;
  "ping"(args?: { [key: string]: unknown }): Promise<unknown>;
};
