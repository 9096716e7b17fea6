//! The agent's compile-time prompt: the SDK constants its build script wrote.

/// The SDK texts, tool names and fingerprint, fixed at compile time.
pub mod sdk {
    codemode::include_sdk!();
}

use codemode::Language;

/// The compile-time SDK text for `language`.
pub fn sdk_text(language: Language) -> &'static str {
    match language {
        Language::JavaScript => sdk::JAVASCRIPT,
        Language::TypeScript => sdk::TYPESCRIPT,
        Language::Python => sdk::PYTHON,
    }
}

pub mod conversation;
