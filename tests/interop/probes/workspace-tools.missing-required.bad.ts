// expect: TS2345
async function main(): Promise<void> {
  await tools["create_issue"]({ body: "no title" });
}
