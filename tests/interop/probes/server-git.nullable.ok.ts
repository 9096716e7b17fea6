// pydantic's optional fields are nullable: null and leaving them out both
// type-check.
async function main() {
  await tools.git_branch({ repo_path: "/repo", branch_type: "local", contains: null });
  await tools.git_log({ repo_path: "/repo", max_count: 5 });
  await tools.git_create_branch({ repo_path: "/repo", branch_name: "topic" });
}
