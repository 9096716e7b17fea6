//! What the sandboxes do not provide, in one place: the check of a program
//! reports a use of any of these before it runs, and the runtimes' tests
//! hold that each one really is missing (and each module really is there).

/// A name a program might reach for that the sandbox does not bind, and
/// what to do instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Absent {
    /// The global (JavaScript) or built-in (Python) name.
    pub name: &'static str,
    /// Why it is missing and what to use instead, as a clause for the model.
    pub instead: &'static str,
}

const NETWORK: &str = "the sandbox has no network; reach outside services through `tools`";
const TIMERS: &str = "the sandbox has no timers; to wait on work, `await` it";
const MODULES: &str =
    "the sandbox has no modules; call tools through `tools` and return the result";
const HOST: &str = "the sandbox is not Node.js or a browser: it has no process, files or page";
const FILES: &str = "the sandbox has no files; reach stored data through `tools`";
const NO_CODE: &str = "the sandbox runs no code from strings; write the code out";
/// Why JavaScript has no BigInt in the sandbox, as a clause for the model.
pub const NO_BIGINT: &str = "the sandbox has no BigInt, since it cannot stop BigInt arithmetic on \
     large values at the time limit; use numbers, or strings for exact large integers";

/// JavaScript globals the sandbox does not bind (it binds `tools`,
/// `ToolCallError`, `console` and the language's own built-ins).
pub const JAVASCRIPT_ABSENT: &[Absent] = &[
    Absent {
        name: "BigInt",
        instead: NO_BIGINT,
    },
    Absent {
        name: "BigInt64Array",
        instead: NO_BIGINT,
    },
    Absent {
        name: "BigUint64Array",
        instead: NO_BIGINT,
    },
    Absent {
        name: "Buffer",
        instead: HOST,
    },
    Absent {
        name: "Bun",
        instead: HOST,
    },
    Absent {
        name: "Deno",
        instead: HOST,
    },
    Absent {
        name: "EventSource",
        instead: NETWORK,
    },
    Absent {
        name: "WebSocket",
        instead: NETWORK,
    },
    Absent {
        name: "XMLHttpRequest",
        instead: NETWORK,
    },
    Absent {
        name: "__dirname",
        instead: HOST,
    },
    Absent {
        name: "__filename",
        instead: HOST,
    },
    Absent {
        name: "clearImmediate",
        instead: TIMERS,
    },
    Absent {
        name: "clearInterval",
        instead: TIMERS,
    },
    Absent {
        name: "clearTimeout",
        instead: TIMERS,
    },
    Absent {
        name: "document",
        instead: HOST,
    },
    Absent {
        name: "eval",
        instead: NO_CODE,
    },
    Absent {
        name: "exports",
        instead: MODULES,
    },
    Absent {
        name: "fetch",
        instead: NETWORK,
    },
    Absent {
        name: "localStorage",
        instead: HOST,
    },
    Absent {
        name: "module",
        instead: MODULES,
    },
    Absent {
        name: "navigator",
        instead: HOST,
    },
    Absent {
        name: "process",
        instead: HOST,
    },
    Absent {
        name: "requestAnimationFrame",
        instead: TIMERS,
    },
    Absent {
        name: "require",
        instead: MODULES,
    },
    Absent {
        name: "sessionStorage",
        instead: HOST,
    },
    Absent {
        name: "setImmediate",
        instead: TIMERS,
    },
    Absent {
        name: "setInterval",
        instead: TIMERS,
    },
    Absent {
        name: "setTimeout",
        instead: TIMERS,
    },
    Absent {
        name: "window",
        instead: HOST,
    },
];

/// Python built-ins that fail when a program calls them: they are not
/// bound, or (`open`) they reach a system the sandbox does not have.
pub const PYTHON_ABSENT: &[Absent] = &[
    Absent {
        name: "__import__",
        instead: "import one of the modules the sandbox has with `import`",
    },
    Absent {
        name: "breakpoint",
        instead: "the sandbox has no debugger; `print` what you need to see",
    },
    Absent {
        name: "compile",
        instead: NO_CODE,
    },
    Absent {
        name: "eval",
        instead: NO_CODE,
    },
    Absent {
        name: "exec",
        instead: NO_CODE,
    },
    Absent {
        name: "input",
        instead: "the program cannot ask for input; pass what it needs in the code",
    },
    Absent {
        name: "open",
        instead: FILES,
    },
];

/// The modules a Python program may import; the sandbox has no others.
pub const PYTHON_MODULES: &[&str] = &[
    "asyncio",
    "base64",
    "binascii",
    "collections",
    "dataclasses",
    "datetime",
    "functools",
    "itertools",
    "json",
    "math",
    "os",
    "pathlib",
    "re",
    "sys",
    "typing",
    "unicodedata",
];

/// What a JavaScript program that uses the global `name` lacks, if the
/// sandbox does not bind it.
pub fn javascript_absent(name: &str) -> Option<&'static Absent> {
    find(JAVASCRIPT_ABSENT, name)
}

/// What a Python program that calls the built-in `name` lacks, if a call
/// of it fails in the sandbox.
pub fn python_absent(name: &str) -> Option<&'static Absent> {
    find(PYTHON_ABSENT, name)
}

/// Whether a Python program can import the module `dotted`: only the
/// modules listed are there, not their submodules.
pub fn python_module_available(dotted: &str) -> bool {
    PYTHON_MODULES.binary_search(&dotted).is_ok()
}

fn find(list: &'static [Absent], name: &str) -> Option<&'static Absent> {
    list.binary_search_by(|a| a.name.cmp(name))
        .ok()
        .and_then(|i| list.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_for_binary_search() {
        for list in [JAVASCRIPT_ABSENT, PYTHON_ABSENT] {
            assert!(list.windows(2).all(|w| w[0].name < w[1].name));
        }
        assert!(PYTHON_MODULES.windows(2).all(|w| w[0] < w[1]));
        assert!(javascript_absent("fetch").is_some());
        assert!(javascript_absent("console").is_none());
        assert!(python_absent("open").is_some());
        assert!(python_module_available("collections"));
        assert!(!python_module_available("collections.abc"));
        assert!(!python_module_available("requests"));
    }
}
