// `type` beside a reference to keywords without one: null passes, and an
// object passes when it names its field.
async function main() {
  await tools.search({ filter: null });
  await tools.search({ filter: { field: "tag", value: "urgent" } });
}
