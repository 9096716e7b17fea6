declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

// @format uuid
type AB = string;

type Branch = string | readonly [string] | readonly [string, readonly Branch[]];

type Json = string | number | boolean | null | readonly Json[] | { [key: string]: Json };

type LocationType = { lat: number; lon: number };

type NestedFilterArgs = { and?: readonly NestedFilterArgs[]; escaped?: AB; field?: string; location?: LocationType };

type Pairs = readonly [readonly Pairs[]] | string;

type Path = readonly string[];

type Place = { name: string };

type Steps = readonly [string?, ...(readonly unknown[])[]] | null;

// A node and its children.
type Tree = { children: Tree[]; value: number };

declare const tools: {
  // A filter that refers to itself through the root.
  nested_filter(args?: NestedFilterArgs): Promise<unknown>;
  // Plan a route; the keywords beside a reference apply too (draft 2020-12).
  plan_route(args: { from: Place; legs?: readonly string[]; to: Place & { note: string }; via?: { name: string } }): Promise<unknown>;
  // The same under draft-07, where the keywords beside a reference are not read.
  plan_route_draft7(args: { to: Place }): Promise<unknown>;
  // Insert a value into a tree.
  tree_insert(args: { at?: Path; tree: Tree; value: Json }): Promise<Tree>;
  // Walk nested steps. Steps nests below a tuple's rest element, which TypeScript cannot declare through its own alias; Pairs nests in a required element, which it can; Branch in an optional one, which it can too, written as one tuple per length.
  walk_steps(args?: { branch?: Branch; pairs?: Pairs; steps?: Steps }): Promise<unknown>;
};
