// expect: TS2322
// A label object needs a name or an id.
async function main() {
  await tools.label({ label: { id: 7 } });
  await tools.label({ label: {} });
}
