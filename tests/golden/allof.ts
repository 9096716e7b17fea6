// Call tools only through `tools`: `await tools["name"](args)`.
// Every call returns a Promise; a failed call rejects with ToolCallError.
// Arguments and results are plain JSON values.
declare class ToolCallError extends Error {
  /** The tool that failed. */
  readonly toolName: string;
  readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error";
}

type Profile = { age?: number; name: string };

declare const tools: {
  /** An allOf that is not made of objects. */
  "constrained"(args?: { code?: string & number }): Promise<unknown>;
  /** Create a user from a base profile plus credentials. */
  "create_user"(args: Profile & {
    password: string; // @minLength 12
  }): Promise<unknown>;
};
