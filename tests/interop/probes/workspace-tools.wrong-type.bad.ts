// expect: TS2322
async function main(): Promise<void> {
  await tools["read_file"]({ path: 42 });
}
