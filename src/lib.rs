//! codemode: Code Mode for LLM agents.
pub use codemode_core::*;
