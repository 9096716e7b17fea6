// expect: TS2322
// The member's property keeps its type.
async function main() {
  await tools.schedule({ job: "backup", repeat: true, every: "hourly" });
}
