//! Compile-time diagnostics of `#[tool]`, `#[toolset]` and `tools!`: every
//! misuse in `tests/ui/fail` must fail with exactly the message in its
//! `.stderr` file, and everything in `tests/ui/pass` must compile and run.
//!
//! After an intended change to a message: `TRYBUILD=overwrite cargo test --test ui`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/fail/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
