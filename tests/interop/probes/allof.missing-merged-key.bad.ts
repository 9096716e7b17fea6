// expect: TS2345
// `password` is required by the second member of the allOf.
async function main() {
  await tools.create_user({ name: "Ada" });
}
