async function main(): Promise<void> {
  await tools.find({ q: "x" });
  await tools.FindArgs({ n: 1 });
  await tools.str({ s: "x" });
  await tools._hidden({ r: "x" });
  await tools.new({ kind: "k" });
  await tools.get({ id: "1" });
  await tools.get();
  await tools.blank({ "": "v", id: 1 });
  await tools.proto({ id: "1" });
  await tools.proto({ id: "1", toString: "s", constructor: 2, valueOf: true });
  await tools.proto_key({ ["__proto__"]: "p", id: 1 });
}
