// expect: TS2322
// `labels` is a list of names.
async function main() {
  await tools.create_issue({ project_id: "group/project", title: "Broken build", labels: "ci" });
}
