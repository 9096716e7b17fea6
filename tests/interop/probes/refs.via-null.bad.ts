// expect: TS2322
// `via` refers to an object or null, and `type: "object"` beside the
// reference leaves null out.
async function main() {
  await tools.plan_route({ from: { name: "a" }, to: { name: "b", note: "n" }, via: null });
}
