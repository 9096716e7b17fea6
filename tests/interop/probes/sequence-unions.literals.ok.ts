// The same literals in TypeScript, where the tuple keeps its lengths.
async function main() {
  await tools.add_rows({ rows: [{ name: "a" }] });
  await tools.add_rows({ rows: [1, 2] });
  await tools.move_to({ target: [{ place: "hall" }] });
  await tools.move_to({ target: [{ place: "hall" }, 2] });
}
