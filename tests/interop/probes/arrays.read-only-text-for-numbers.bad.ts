// expect: TS2322
// A read-only list is still checked item by item.
async function main() {
  const bounds = ["0", "640"] as const;
  await tools.zoom({ window: { bounds } });
}
