// A member that refers to `required` alone binds only objects: text and
// null pass, and an object passes when it names its kind.
async function main() {
  await tools.tag({ tag: "urgent" });
  await tools.tag({ tag: null });
  await tools.tag({ tag: { kind: "priority", note: "today" } });
}
