// expect: TS2322
// 3 is in the enum, but the mode is a string.
async function main() {
  await tools.ship({ mode: 3 });
}
