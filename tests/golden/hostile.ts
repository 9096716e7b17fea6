declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

type ToolCallErrorType = string;

declare const tools: {
  // The empty name
  ""(args?: { [key: string]: unknown }): Promise<unknown>;
  // Closes *\/ a comment and opens /* another
  "*/ end comment"(args?: {
    "*/"?: string; // key */ here
  }): Promise<unknown>;
  // A dunder name
  __init__(args?: { [key: string]: unknown }): Promise<unknown>;
  __private(args?: { [key: string]: unknown }): Promise<unknown>;
  // A Python keyword """ with a triple quote
  class(args: { class: string; from?: number; list?: string; ok?: readonly string[] }): Promise<unknown>;
  // Control \u{0} \u{7} \u{1b} characters
  "ctrl\u0001\u007f"(args?: { [key: string]: unknown }): Promise<unknown>;
  /**
# not a comment
"""
'''
   */
  get_weather(args?: {
    city?: string; // @pattern ^[^*/]+$ @default "*/ \"\"\" \\"
  }): Promise<unknown>;
  /**
Separators
 inside
 text
and a newline
and CRLF
   */
  "line\u2028sep\u2029para"(args?: { "\u2028"?: "\u2029" }): Promise<unknown>;
  // Ends with a backslash \
  "quote\"back\\slash"(args?: { "a\"b"?: string; "c\\d"?: number }): Promise<unknown>;
  // Named like the global
  tools(args?: { ToolCallError?: ToolCallErrorType }): Promise<unknown>;
  // Unicode identifiers are fine in Python
  "unicodé"(args?: { "naïve"?: string }): Promise<unknown>;
  // Not NFKC-stable: the ligature fi
  "ﬁle"(args?: { "ﬁeld"?: boolean }): Promise<unknown>;
};
