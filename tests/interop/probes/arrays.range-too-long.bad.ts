// expect: TS2322
// `range` has one or two numbers, no more.
async function main() {
  await tools.plot({ points: [], range: [0, 1, 2] });
}
