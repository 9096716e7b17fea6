// expect: TS2322
// A tag object must name its kind.
async function main() {
  await tools.tag({ tag: { note: "today" } });
}
