async function main(): Promise<void> {
  const out = await tools["ship"]({
    to: { street: "Storgata 1", postcode: null, country: { Other: "Iceland" } },
    shipping: { kind: "express", days: 2 },
    payment: { t: "Invoice", c: { due_days: 30 } },
    quantity: { grams: 250.5 },
    labels: { gift: "yes" },
    dimensions: [1, 2, 3],
    category: { name: "books", children: [{ name: "poetry", children: [] }] },
    weights: { a: [1, null] },
  });
  if (out.eta) console.log(out.eta[0], out.tracking);
}
