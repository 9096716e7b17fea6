// A key that one `oneOf`/`anyOf` member lists beside a member that admits
// any value may be given, with any value.
async function main() {
  await tools.update_record({ record: { id: 2 } });
  await tools.update_record({ record: { title: "t", id: "any" } });
  await tools.merge_records({ into: { id: 3, title: "t" } });
}
