declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  Any(args?: { [key: string]: unknown }): Promise<unknown>;
  // Named like the arguments of find.
  FindArgs(args?: { n?: number }): Promise<unknown>;
  // Named like the mark of a read-only field.
  ReadOnly(args: { frame: { ReadOnly: string; xs: readonly number[] } }): Promise<unknown>;
  // Private to a class for pyright, so reached by subscript.
  _hidden(args: { r: string }): Promise<unknown>;
  "a\u034fb"(args?: { [key: string]: unknown }): Promise<unknown>;
  "a\u200cb"(args?: { [key: string]: unknown }): Promise<unknown>;
  blank(args: { "": string; id?: number }): Promise<unknown>;
  // Finds records.
  find(args: { q: string }): Promise<unknown>;
  "get"(args?: { id?: string }): Promise<unknown>;
  limits(args?: { big?: 9223372036854775807 | 9223372036854775808; huge?: 18446744073709551615; least?: -9223372036854775808 }): Promise<unknown>;
  // Named like a construct signature.
  "new"(args: { kind: string }): Promise<unknown>;
  overload(args?: { [key: string]: unknown }): Promise<unknown>;
  proto(args: { constructor?: number | Object["constructor"]; id: string; toString?: string | Object["toString"]; valueOf?: boolean | Object["valueOf"] }): Promise<unknown>;
  // A key an object literal cannot write plainly.
  proto_key(args: {
    __proto__: string; // Write this key as ["__proto__"]: a plain __proto__ sets the prototype and sends no key.
    id?: number;
  }): Promise<unknown>;
  // Every key optional, two named like Object members.
  proto_style(args: { style: { toString?: string | Object["toString"]; valueOf?: number | Object["valueOf"] } & object }): Promise<unknown>;
  str(args?: { s?: string }): Promise<unknown>;
  // One key Python 3.11 can spell as a name, one it cannot.
  unicode(args?: { "k\udb40\udd00"?: boolean; "été"?: string; "𞀰"?: number }): Promise<unknown>;
  "with-dash"(args?: { [key: string]: unknown }): Promise<unknown>;
};
