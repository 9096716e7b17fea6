// expect: TS2322
async function main(): Promise<void> {
  await tools.proto_key({ ["__proto__"]: 5 });
}
