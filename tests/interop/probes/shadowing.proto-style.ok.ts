// An object whose keys are all optional and named like Object members:
// object literals with or without them pass.
async function main() {
  await tools.proto_style({ style: {} });
  await tools.proto_style({ style: { toString: "bold", valueOf: 2 } });
}
