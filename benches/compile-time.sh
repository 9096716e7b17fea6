#!/usr/bin/env bash
# Compile-time cost of the macros and the build helper: generates a crate of
# 100 tools built with #[codemode::toolset] and an app whose build.rs renders
# the SDK, and the same 100 functions as plain methods with no build script.
# Dependencies are built first (a target dir per variant), so the timings are of the
# generated crates: a clean build of them, and an incremental build after one
# tool's body changes. Each build is repeated ROUNDS times, the two variants
# taking turns, so that both see the same moments of a noisy machine; prints
# the median seconds and the ratio of the medians.
# Usage: benches/compile-time.sh [TOOLS] [ROUNDS]   (defaults 100 and 5)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-100}"
rounds="${2:-5}"
base="$root/target/compile-bench"
rm -rf "$base/with" "$base/without"
mkdir -p "$base/with/tools/src" "$base/with/app/src" "$base/without/tools/src" "$base/without/app/src"
# A target directory for each variant: the crates of both are named
# gen-tools and gen-app, and `cargo clean -p` removes a package's artifacts
# by name, so in a shared directory cleaning one variant cleaned the other,
# and the next "incremental" build of it was a clean one.
target_of() { # variant -> its target directory
  echo "$base/target/$1"
}

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

seconds() { # variant -> seconds of `cargo build` of its app
  local start end
  start=$(date +%s.%N)
  (cd "$base/$1/app" && CARGO_TARGET_DIR="$(target_of "$1")" cargo build --quiet)
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
# Warm the dependencies, then measure.
for variant in with without; do
  (cd "$base/$variant/app" && CARGO_TARGET_DIR="$(target_of $variant)" cargo build --quiet)
done
median() { # numbers -> their median
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
clean_with=() clean_without=() incr_with=() incr_without=()
for round in $(seq 1 "$rounds"); do
  for variant in with without; do
    (cd "$base/$variant/app" && CARGO_TARGET_DIR="$(target_of $variant)" cargo clean --quiet -p gen-tools -p gen-app)
    t=$(seconds $variant)
    if [ $variant = with ]; then clean_with+=("$t"); else clean_without+=("$t"); fi
  done
  for variant in with without; do
    # A new body each round: tool 1 yields `round` more titles.
    sed -i "s/(0\.\.n[^)]*)\.map(|i| format!(\"{query}-1-{i}\"))/(0..n + $round).map(|i| format!(\"{query}-1-{i}\"))/" "$base/$variant/tools/src/lib.rs"
    t=$(seconds $variant)
    if [ $variant = with ]; then incr_with+=("$t"); else incr_without+=("$t"); fi
  done
done
row() { # label with... -- without...
  local label=$1 w o
  w=$(median "${@:2:$rounds}")
  o=$(median "${@:$((rounds + 2))}")
  printf '%-12s %10.2f %10.2f %8.2f   (%s| %s)\n' "$label" "$w" "$o" "$(echo "$w / $o" | bc -l)" \
    "$(printf '%.2f ' "${@:2:$rounds}")" "$(printf '%.2f ' "${@:$((rounds + 2))}")"
}
printf '%-12s %10s %10s %8s   (each round: macros | plain)\n' build "macros (s)" "plain (s)" ratio
row clean "${clean_with[@]}" "${clean_without[@]}"
row incremental "${incr_with[@]}" "${incr_without[@]}"
