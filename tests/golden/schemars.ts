// Call tools only through `tools`: `await tools["name"](args)`.
// Every call returns a Promise; a failed call rejects with ToolCallError.
// Arguments and results are plain JSON values.
declare class ToolCallError extends Error {
  /** The tool that failed. */
  readonly toolName: string;
  readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked";
}

/** Where a parcel goes. */
type Address = {
  country: Country;
  /** Postal code, if the country uses them. */
  postcode?: string | null;
  street: string;
};

/** A category tree. */
type Category = { children: Category[]; name: string };

/** ISO country, externally tagged (serde's default). */
type Country = "Norway" | "Chile" | { Other: string };

/** Adjacently tagged. */
type Payment = { c: string; t: "Card" } | { c: {
  /** @format uint16 @minimum 0 @maximum 65535 */
  due_days: number;
}; t: "Invoice" };

/** Untagged. */
type Quantity = number | { grams: number };

/** Internally tagged. */
type Shipping = { kind: "standard" } | {
  /** @format uint8 @minimum 0 @maximum 255 */
  days: number;
  kind: "express";
};

declare const tools: {
  /** Ship an order. */
  "ship"(args: {
    category?: Category | null;
    dimensions: [number, number, number];
    /** Extra label lines. */
    labels: { [key: string]: string };
    payment: Payment;
    quantity: Quantity;
    shipping: Shipping;
    to: Address;
    weights: { [key: string]: (number | null)[] };
  }): Promise<{ eta?: [number, number, number] | null; tracking: string }>;
};
