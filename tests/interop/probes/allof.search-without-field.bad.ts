// expect: TS2322
// A filter object must name its field.
async function main() {
  await tools.search({ filter: { value: "urgent" } });
}
