// expect: TS2322
async function main(): Promise<void> {
  await tools.new({ kind: 1 });
}
