// expect: TS2322
async function main(): Promise<void> {
  await tools["ship"]({
    to: { street: "x", country: "Norway" }, shipping: { kind: "overnight" }, payment: { t: "Card", c: "1234" },
    quantity: 1, labels: {}, dimensions: [1, 2, 3], weights: {},
  });
}
