// expect: TS2322
// The object's own keys keep their types.
async function main() {
  await tools.update_record({ record: { id: 2, title: 5 } });
}
