// `required` without `type` binds only objects, so a null or text note
// passes beside it.
async function main() {
  await tools.annotate({ note: null });
  await tools.annotate({ note: "see above" });
}
