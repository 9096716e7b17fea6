// expect: TS2353
async function main(): Promise<void> {
  await tools["read_file"]({ path: "a.txt", encoding: "latin1" });
}
