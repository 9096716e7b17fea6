#!/usr/bin/env bash
# Compile-time cost of the macros and the build helper: generates a crate of
# 100 tools built with #[codemode::toolset] and an app whose build.rs renders
# the SDK, and the same 100 functions as plain methods with no build script.
# Dependencies are built first (shared target dir), so the timings are of the
# generated crates: a clean build of them, and an incremental build after one
# tool's body changes. Prints seconds and ratios.
# Usage: benches/compile-time.sh [TOOLS]   (default 100)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-100}"
base="$root/target/compile-bench"
rm -rf "$base/with" "$base/without"
mkdir -p "$base/with/tools/src" "$base/with/app/src" "$base/without/tools/src" "$base/without/app/src"
export CARGO_TARGET_DIR="$base/target"

manifest() { # dir name deps build-deps
  printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2024"\n\n[workspace]\n\n[dependencies]\n%s\n%s' "$2" "$3" "$4" > "$1/Cargo.toml"
}
tool_body() { # i attr
  cat <<EOT
    /// Look up records of kind $1 by query; returns matching titles.
    $2
    pub fn tool_$1(&self, query: String, limit: Option<u32>, tags: Vec<String>, exact: Option<bool>) -> Vec<String> {
        let n = limit.unwrap_or(10) as usize + tags.len() + usize::from(exact.unwrap_or(false));
        (0..n).map(|i| format!("{query}-$1-{i}")).collect()
    }
EOT
}
{
  echo "pub struct Tools;"
  echo "#[codemode::toolset]"
  echo "impl Tools {"
  for i in $(seq 1 "$n"); do tool_body "$i" "#[tool]"; done
  echo "}"
} > "$base/with/tools/src/lib.rs"
{
  echo "pub struct Tools;"
  echo "impl Tools {"
  for i in $(seq 1 "$n"); do tool_body "$i" ""; done
  echo "}"
} > "$base/without/tools/src/lib.rs"
codemode_dep="codemode = { path = \"$root\", default-features = false }"
manifest "$base/with/tools" gen-tools "$codemode_dep" ""
manifest "$base/without/tools" gen-tools "" ""
manifest "$base/with/app" gen-app "gen-tools = { path = \"../tools\" }
$codemode_dep" "[build-dependencies]
gen-tools = { path = \"../tools\" }
codemode-build = { path = \"$root/codemode-build\" }"
manifest "$base/without/app" gen-app "gen-tools = { path = \"../tools\" }" ""
cat > "$base/with/app/build.rs" <<'EOT'
fn main() {
    let _ = codemode_build::Sdk::new().toolset::<gen_tools::Tools>().emit();
}
EOT
cat > "$base/with/app/src/main.rs" <<'EOT'
mod sdk {
    codemode::include_sdk!();
}
fn main() {
    println!("{} {}", sdk::TOOL_NAMES.len(), sdk::TYPESCRIPT.len());
}
EOT
cat > "$base/without/app/src/main.rs" <<'EOT'
fn main() {
    println!("{}", gen_tools::Tools.tool_1("x".into(), None, vec![], None).len());
}
EOT

seconds() { # dir -> seconds of `cargo build`
  local start end
  start=$(date +%s.%N)
  (cd "$1" && cargo build --quiet)
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
# Warm the dependencies, then measure.
(cd "$base/with/app" && cargo build --quiet)
(cd "$base/without/app" && cargo build --quiet)
for variant in with without; do
  (cd "$base/$variant/app" && cargo clean --quiet -p gen-tools -p gen-app)
  clean[$([ $variant = with ] && echo 0 || echo 1)]=$(seconds "$base/$variant/app")
  sed -i 's/(0..n).map(|i| format!("{query}-1-{i}"))/(0..n + 1).map(|i| format!("{query}-1-{i}"))/' "$base/$variant/tools/src/lib.rs"
  incr[$([ $variant = with ] && echo 0 || echo 1)]=$(seconds "$base/$variant/app")
done
printf '%-12s %10s %10s %8s\n' build "macros (s)" "plain (s)" ratio
printf '%-12s %10.2f %10.2f %8.2f\n' clean "${clean[0]}" "${clean[1]}" "$(echo "${clean[0]} / ${clean[1]}" | bc -l)"
printf '%-12s %10.2f %10.2f %8.2f\n' incremental "${incr[0]}" "${incr[1]}" "$(echo "${incr[0]} / ${incr[1]}" | bc -l)"
