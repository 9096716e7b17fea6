// Keywords beside a reference to a union bind its objects: an object
// target carries the name they require, and other kinds pass as they are.
async function main() {
  await tools.rename({ target: { id: 1, name: "draft" } });
  await tools.rename({ target: { name: "draft" } });
  await tools.rename({ target: "notes/today" });
  await tools.rename({ target: null });
}
