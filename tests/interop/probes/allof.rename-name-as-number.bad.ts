// expect: TS2322
// The name the keywords beside the reference declare keeps its type.
async function main() {
  await tools.rename({ target: { id: 1, name: 7 } });
}
