// Installed into every fresh context before the program runs. It binds
// exactly GLOBAL and ERROR_CLASS (plus `console`), and hides the host
// functions it is handed.
(function (host) {
  "use strict";
  const callHost = host.call;
  const logHost = host.log;
  const known = new Set(JSON.parse(host.names));

  class ERROR_CLASS extends Error {
    constructor(toolName, kind, message) {
      super(message);
      this.name = "ERROR_CLASS";
      this.toolName = toolName;
      this.kind = kind;
    }
  }

  function call(name, args) {
    let json;
    try {
      json = JSON.stringify(args === undefined ? null : args);
    } catch (e) {
      return Promise.reject(new ERROR_CLASS(name, "invalid_arguments", "the arguments are not JSON: " + e.message));
    }
    return callHost(name, json === undefined ? "null" : json).then((envelope) => {
      const reply = JSON.parse(envelope);
      if (reply.ok) return reply.value;
      throw new ERROR_CLASS(reply.error.toolName, reply.error.kind, reply.error.message);
    });
  }

  const GLOBAL = new Proxy(Object.create(null), {
    get(_, name) {
      if (typeof name !== "string") return undefined;
      // Not a thenable: `await GLOBAL` must not call a tool named "then".
      if (name === "then" && !known.has(name)) return undefined;
      return (args) => call(name, args);
    },
    has(_, name) {
      return typeof name === "string" && known.has(name);
    },
    ownKeys() {
      return [...known];
    },
    getOwnPropertyDescriptor(_, name) {
      return typeof name === "string" && known.has(name)
        ? { configurable: true, enumerable: true, value: (args) => call(name, args) }
        : undefined;
    },
    set() {
      return false;
    },
  });

  function show(value) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return value.name + ": " + value.message;
    try {
      const json = JSON.stringify(value);
      return json === undefined ? String(value) : json;
    } catch (e) {
      return String(value);
    }
  }

  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    console[level] = (...items) => logHost(level, items.map(show).join(" "));
  }

  Object.defineProperty(globalThis, "GLOBAL", { value: GLOBAL, enumerable: false });
  Object.defineProperty(globalThis, "ERROR_CLASS", { value: ERROR_CLASS, enumerable: false, writable: true });
  Object.defineProperty(globalThis, "console", { value: console, enumerable: false, writable: true });
})(globalThis.__codemode_host);
delete globalThis.__codemode_host;
