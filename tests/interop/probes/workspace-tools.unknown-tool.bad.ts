// expect: TS7053
async function main(): Promise<void> {
  await tools["delete_everything"]({});
}
