// `type` beside a reference narrows it: an object for `via`, a list for
// `legs`.
async function main() {
  await tools.plan_route({ from: { name: "a" }, to: { name: "b", note: "n" }, via: { name: "c" }, legs: ["x", "y"] });
}
