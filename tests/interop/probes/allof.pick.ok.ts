// Properties without `type` beside an anyOf with null: null, or an
// object with its id.
async function main() {
  await tools.pick({ item: null });
  await tools.pick({ item: { id: "a1" } });
}
