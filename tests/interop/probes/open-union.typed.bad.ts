// expect: TS2322
// The keys keep their types: the object's own, and one written as
// "absent, or of this type".
async function main() {
  await tools.update_record({ record: { id: "x" } });
}
