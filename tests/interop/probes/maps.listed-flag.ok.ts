// A flag key the tool also lists keeps its literals.
async function main() {
  await tools.tag_flags({ level: "on", debug: "off" });
  await tools.tag_flags({});
}
