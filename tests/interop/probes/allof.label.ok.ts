// `anyOf` members with `required` alone bind only objects: text and null
// pass, and an object passes with a name or an id.
async function main() {
  await tools.label({ label: "urgent" });
  await tools.label({ label: null });
  await tools.label({ label: { name: "urgent" } });
  await tools.label({ label: { id: 7 } });
}
