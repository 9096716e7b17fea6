// expect: TS2322
// The listed key holds only the switches' values.
async function main() {
  await tools.set_lights({ panel: { label: "kitchen" } });
}
