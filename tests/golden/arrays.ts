// Call tools only through `tools`: `await tools["name"](args)`.
// Every call returns a Promise; a failed call rejects with ToolCallError.
// Arguments and results are plain JSON values.
declare class ToolCallError extends Error {
  /** The tool that failed. */
  readonly toolName: string;
  readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error";
}

declare const tools: {
  /** Plot points and labelled series. */
  "plot"(args: { empty?: []; points: [number, number][]; range?: [number, number?]; series?: (number | null)[][]; tags?: [string, ...number[]] }): Promise<string[]>;
};
