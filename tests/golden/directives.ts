declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

// mypy: ignore-errors
type Kind = "plain" | "rich";

// ﻿pyright: basic
type Level = "low" | "high";

declare const tools: {
  /**
Adds a note to a record.
@ ts-expect-error
# type: ignore
   */
  annotate(args: {
    /**
The text.
# pyright: basic
// @ ts-ignore
     */
    body?: string;
    kind?: Kind;
    level?: Level;
    note: string; // @ ts-expect-error
    tag?: string; // type: ignore
  }): Promise<unknown>;
  /**
pyright: basic
@ TS-NOCHECK
   */
  "odd # type: ignore"(args?: {
    class?: string; // pyre-ignore
    "x-y"?: number; // Count # type: ignore[misc]
  }): Promise<unknown>;
};
