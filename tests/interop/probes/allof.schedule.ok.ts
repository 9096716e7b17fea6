// An allOf member with `if`/`then` beside the object's own properties: its
// property is one more optional key of the same object.
async function main() {
  await tools.schedule({ job: "backup" });
  await tools.schedule({ job: "backup", repeat: true, every: 60 });
}
