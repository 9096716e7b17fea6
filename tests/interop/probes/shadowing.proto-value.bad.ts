// expect: TS2322
async function main(): Promise<void> {
  await tools.proto({ id: "1", toString: 5 });
}
