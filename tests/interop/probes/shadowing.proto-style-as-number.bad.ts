// expect: TS2322
// A number has `toString` and `valueOf` too, but is no object.
async function main() {
  await tools.proto_style({ style: 1 });
}
