// Installed into every fresh context before the program runs. It binds
// exactly GLOBAL and ERROR_CLASS (plus `console`), and returns the functions
// the engine drives the run with. It keeps its own copies of every builtin
// it uses, so a program that replaces a builtin only changes its own view.
// It is a module compiled to bytecode once per process; each engine loads
// the bytecode and calls the default export with the host functions, and
// the run then calls `configure` with its tool names and limits.
export default function (host) {
  "use strict";
  const callHost = host.call;
  const logHost = host.log;
  const tick = host.tick;
  // The run's tool names and array bound arrive through `configure`, which
  // the engine calls once, before the program: the prelude is installed
  // before its run is known.
  let known = new Set();
  const MAX_DEPTH = host.maxDepth;
  // Unbounded only while the prelude installs itself (it uses the guarded
  // builtins); `configure` sets the run's bound before any program runs.
  let MAX_LENGTH = Infinity;
  const MAX_SEARCH = 1e9;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const apply = Reflect.apply;
  const ownKeys = Reflect.ownKeys;
  const getDescriptor = Object.getOwnPropertyDescriptor;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const isArray = Array.isArray;
  const PromiseCtor = Promise;
  const promiseReject = Promise.reject.bind(Promise);
  const ErrorCtor = Error;
  const RangeErrorCtor = RangeError;
  const WeakSetCtor = WeakSet;
  const weakAdd = WeakSet.prototype.add;
  const weakHas = WeakSet.prototype.has;
  const setHas = Set.prototype.has;
  const toWellFormed = String.prototype.toWellFormed;
  const join = Array.prototype.join;
  const arrayPush = Array.prototype.push;
  const arrayPop = Array.prototype.pop;
  const arrayMap = Array.prototype.map;
  const objectToString = Object.prototype.toString;
  const StringCtor = String;
  const stringSlice = String.prototype.slice;
  const isError = Error.isError;
  // An error's stack, read without anything the program can replace: the
  // engine's own getter when the stack is one, else the error's own value.
  const stackDescriptor = getDescriptor(ErrorCtor.prototype, "stack");
  const stackGet = stackDescriptor && stackDescriptor.get;
  const stackOf = (error) => {
    if (stackGet) return apply(stackGet, error, []);
    const own = getDescriptor(error, "stack");
    return own && typeof own.value === "string" ? own.value : undefined;
  };
  let longest = 0;
  function configure(names, maxLength) {
    known = new Set(parse(names));
    for (const n of known) longest = n.length > longest ? n.length : longest;
    MAX_LENGTH = maxLength;
  }
  // Longer than every tool name: no tool, and no need to hash it.
  const hasKnown = (name) => typeof name === "string" && name.length <= longest && apply(setHas, known, [name]);

  class ERROR_CLASS extends ErrorCtor {
    constructor(toolName, kind, message) {
      super(message);
      this.name = "ERROR_CLASS";
      this.toolName = toolName;
      this.kind = kind;
    }
  }

  // While the prelude serialises a value, `GLOBAL` reads as an empty object,
  // so turning it into JSON never reaches a tool (not even one named toJSON).
  let serializing = 0;
  function toJson(value) {
    serializing++;
    try {
      return stringify(value);
    } finally {
      serializing--;
    }
  }

  // The first place where `value` cannot become JSON the host accepts, as
  // a sentence with a JSON path; null when there is none.
  function explain(value) {
    const stack = [[value, "$", 0]];
    const seen = new WeakSetCtor();
    while (stack.length) {
      const [v, path, depth] = apply(arrayPop, stack, []);
      if (typeof v === "bigint") return "a BigInt at " + path + " (use a number or a string)";
      if (typeof v === "string") {
        if (apply(toWellFormed, v, []) !== v) return "a string with a lone surrogate at " + path;
        continue;
      }
      if (v === null || typeof v !== "object") continue;
      if (depth >= MAX_DEPTH) return "nesting deeper than " + MAX_DEPTH + " levels at " + path;
      if (apply(weakHas, seen, [v])) return "a cycle (or a shared object) at " + path;
      apply(weakAdd, seen, [v]);
      if (v === GLOBAL) continue;
      let keys;
      try {
        keys = isArray(v) ? null : ownKeys(v);
      } catch (e) {
        return "an object whose keys cannot be read at " + path;
      }
      if (keys === null) {
        for (let i = 0; i < v.length; i++) apply(arrayPush, stack, [[v[i], path + "[" + i + "]", depth + 1]]);
      } else {
        for (const k of keys) {
          if (typeof k !== "string") continue;
          if (apply(toWellFormed, k, []) !== k) return "a key with a lone surrogate at " + path;
          apply(arrayPush, stack, [[v[k], path + "." + k, depth + 1]]);
        }
      }
    }
    return null;
  }

  function problem(value, fallback) {
    try {
      return explain(value) || fallback;
    } catch (e) {
      return fallback;
    }
  }

  const pending = Object.create(null);

  function call(name, args) {
    let json;
    try {
      json = toJson(args === undefined ? {} : args);
    } catch (e) {
      return promiseReject(new ERROR_CLASS(name, "invalid_arguments",
        "the arguments cannot be sent to the tool: " + problem(args, e && e.message)));
    }
    if (typeof json !== "string") {
      return promiseReject(new ERROR_CLASS(name, "invalid_arguments",
        "the arguments must be a JSON object, not " + typeof args));
    }
    const id = callHost(name, json, json.length);
    if (typeof id === "string") {
      return promiseReject(new ERROR_CLASS(name, "invalid_arguments",
        "the arguments cannot be sent to the tool: " + problem(args, id)));
    }
    // Where the program made the call: a failure it does not catch is
    // reported at this place, as a failure made here at once is.
    const site = stackOf(new ErrorCtor());
    return new PromiseCtor((resolve, reject) => {
      pending[id] = [resolve, reject, site];
    });
  }

  // Called by the engine with a call's result envelope.
  function deliver(id, envelope) {
    const slot = pending[id];
    delete pending[id];
    if (!slot) return;
    const reply = parse(envelope);
    if (reply.ok) slot[0](reply.value);
    else {
      const error = new ERROR_CLASS(reply.error.toolName, reply.error.kind, reply.error.message);
      if (typeof slot[2] === "string") {
        defineProperty(error, "stack", { value: slot[2], writable: true, configurable: true });
      }
      slot[1](error);
    }
  }

  // Called by the engine with the program's result: its JSON text,
  // undefined for no value, or a problem as an object.
  function finish(value) {
    if (typeof value === "function" || typeof value === "symbol") {
      return { problem: "the program returned a " + typeof value + "; return data (an object, array, string, number, boolean or null)" };
    }
    let json;
    try {
      json = toJson(value);
    } catch (e) {
      return { problem: problem(value, e && e.message) };
    }
    return json;
  }

  // `GLOBAL` answers exactly the tool names. It is also callable as
  // GLOBAL(name, args), which reaches every tool, including one named "then":
  // that name is never a property, so awaiting or returning GLOBAL never
  // calls a tool.
  const target = () => {};
  delete target.length;
  delete target.name;
  const GLOBAL = new Proxy(target, {
    get(_, name) {
      if (serializing || name === "then" || !hasKnown(name)) {
        if (name === Symbol.toPrimitive) return () => "[object GLOBAL]";
        if (name === Symbol.toStringTag) return "GLOBAL";
        return undefined;
      }
      // JSON.stringify(GLOBAL) calls toJSON with a string key; a program's
      // own call passes an object, so only that one reaches the tool.
      if (name === "toJSON") return (args) => (typeof args === "string" ? undefined : call(name, args));
      return (args) => call(name, args);
    },
    apply(_, __, argv) {
      const name = argv[0];
      if (typeof name !== "string") {
        return promiseReject(new ERROR_CLASS(StringCtor(name), "unknown_tool",
          "GLOBAL(name, args) takes a tool's name as a string"));
      }
      // A name that is no tool reaches the host short: only its start is
      // needed to say that no tool has it.
      return call(hasKnown(name) ? name : apply(stringSlice, name, [0, 200]), argv[1]);
    },
    has(_, name) {
      return !serializing && name !== "then" && hasKnown(name);
    },
    ownKeys() {
      return serializing ? [] : [...known].filter((n) => n !== "then");
    },
    getOwnPropertyDescriptor(_, name) {
      return !serializing && name !== "then" && hasKnown(name)
        ? { configurable: true, enumerable: true, value: (args) => call(name, args) }
        : undefined;
    },
    getPrototypeOf() {
      return null;
    },
    set() {
      return false;
    },
    defineProperty() {
      return false;
    },
    deleteProperty() {
      return false;
    },
  });

  // The index's functions (a large tool set's SDK is an index): the host
  // answers them from the tool set without calling any tool. Their channel
  // names start with a NUL, which no tool name holds.
  const INDEX_GLOBAL = Object.freeze({
    describe: (names) => call("\u0000describe", { names }),
    search: (query, limit) => call("\u0000search", limit === undefined ? { query } : { query, limit }),
  });

  function show(value) {
    if (typeof value === "string") return value;
    if (value === GLOBAL) return "[object GLOBAL]";
    try {
      if (value instanceof ErrorCtor) return value.name + ": " + value.message;
      const json = toJson(value);
      if (json !== undefined) return json;
    } catch (e) {
      // fall through
    }
    try {
      return StringCtor(value);
    } catch (e) {
      return apply(objectToString, value, []);
    }
  }

  const console = Object.create(null);
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    console[level] = (...items) => {
      let text;
      try {
        text = apply(join, apply(arrayMap, items, [show]), [" "]);
        text = apply(toWellFormed, text, []);
      } catch (e) {
        text = "[a value that cannot be shown]";
      }
      logHost(level, text);
    };
  }

  // Errors the program constructs itself (through any error constructor), so
  // that one it throws is never mistaken for the engine's stack overflow,
  // whatever prototype or message it is given.
  const made = new WeakSetCtor();
  const errorNames = ["Error", "RangeError", "TypeError", "SyntaxError", "ReferenceError",
    "EvalError", "URIError", "AggregateError", "InternalError"];
  const errorProxies = [];
  for (const errorName of errorNames) {
    const ctor = globalThis[errorName];
    if (typeof ctor !== "function") continue;
    const proxy = new Proxy(ctor, {
      construct(t, argv, newTarget) {
        const e = Reflect.construct(t, argv, newTarget === proxy ? t : newTarget);
        apply(weakAdd, made, [e]);
        return e;
      },
      apply(t, _, argv) {
        const e = Reflect.construct(t, argv);
        apply(weakAdd, made, [e]);
        return e;
      },
      defineProperty() {
        return false;
      },
      set() {
        return false;
      },
    });
    defineProperty(ctor.prototype, "constructor", { value: proxy, writable: true, configurable: true });
    apply(arrayPush, errorProxies, [[errorName, proxy]]);
  }
  // A program's own stack formatter could reach the prelude's functions.
  defineProperty(ErrorCtor, "prepareStackTrace", { value: undefined, writable: false, configurable: false });
  function isStackOverflow(e) {
    return isError(e) && getPrototypeOf(e) === RangeErrorCtor.prototype &&
      !apply(weakHas, made, [e]) && e.message === "Maximum call stack size exceeded";
  }

  // The length of a generic array-like: a data property holding a number,
  // or Infinity (refused) when it is a getter or not a number, since the
  // builtin would read it again and might see something else.
  function lengthOf(o) {
    let holder = o;
    while (holder != null) {
      const d = getDescriptor(holder, "length");
      if (d) {
        return "value" in d && typeof d.value === "number" ? d.value : Infinity;
      }
      holder = getPrototypeOf(holder);
    }
    return 0;
  }

  // Builtins that loop in native code without polling the engine's
  // interrupt: refuse receivers longer than the heap could hold, and check
  // the clock before each call.
  function guard(proto, names, checkLength) {
    for (const name of names) {
      const d = getDescriptor(proto, name);
      if (!d || typeof d.value !== "function") continue;
      const original = d.value;
      const wrapped = {
        [name](...argv) {
          tick();
          if (checkLength && this != null && !isArray(this)) {
            // A generic receiver's length is read again by the builtin, which
            // then loops natively: it must be a plain number we can check.
            const n = lengthOf(this);
            if (n > MAX_LENGTH) {
              throw new RangeErrorCtor("this sandbox processes array-likes of at most " + MAX_LENGTH +
                " elements; " + name + " was called on one of length " + n);
            }
          } else if (checkLength && this != null && this.length > MAX_LENGTH) {
            throw new RangeErrorCtor("this sandbox processes arrays of at most " + MAX_LENGTH +
              " elements; " + name + " was called on one of length " + this.length);
          }
          return apply(original, this, argv);
        },
      }[name];
      defineProperty(wrapped, "length", { value: original.length });
      defineProperty(proto, name, { value: wrapped, writable: true, configurable: true, enumerable: false });
    }
  }
  guard(Array.prototype, ["concat", "copyWithin", "every", "fill", "filter", "find", "findIndex",
    "findLast", "findLastIndex", "flat", "flatMap", "forEach", "includes", "indexOf", "join",
    "lastIndexOf", "map", "reduce", "reduceRight", "reverse", "shift", "slice", "some", "sort",
    "splice", "toLocaleString", "toReversed", "toSorted", "toSpliced", "toString", "unshift", "with"], true);
  const typed = getPrototypeOf(Uint8Array.prototype);
  guard(typed, ownKeys(typed).filter((k) => typeof k === "string" && k !== "constructor"), false);
  guard(StringCtor.prototype, ["repeat", "padStart", "padEnd"], false);
  // Searches compare the pattern at every position without polling the
  // interrupt: refuse the long-pattern, long-text cases that take seconds.
  for (const name of ["indexOf", "lastIndexOf", "includes", "startsWith", "endsWith", "split", "replace", "replaceAll"]) {
    const original = StringCtor.prototype[name];
    const wrapped = {
      [name](pattern, ...rest) {
        tick();
        if (this == null) return apply(original, this, [pattern, ...rest]);
        // Coerced once here, so the builtin sees exactly what was checked.
        const text = typeof this === "string" ? this : StringCtor(this);
        const plain = typeof pattern !== "object" || pattern === null ||
          (typeof pattern[Symbol.split] !== "function" && typeof pattern[Symbol.replace] !== "function" &&
           typeof pattern[Symbol.match] !== "function");
        const needle = plain && typeof pattern !== "string" && pattern !== undefined ? StringCtor(pattern) : pattern;
        if (typeof needle === "string" && needle.length > 64 && text.length * needle.length > MAX_SEARCH) {
          throw new RangeErrorCtor("this sandbox searches at most " + MAX_SEARCH +
            " character comparisons in one call; " + name + " was given a text of " + text.length +
            " and a pattern of " + needle.length + " characters");
        }
        return apply(original, text, [needle, ...rest]);
      },
    }[name];
    defineProperty(wrapped, "length", { value: original.length });
    defineProperty(StringCtor.prototype, name, { value: wrapped, writable: true, configurable: true, enumerable: false });
  }

  // BigInt arithmetic and printing run in native code that never polls the
  // interrupt, and on large values one step takes seconds (a sort of them,
  // hours): the sandbox has no BigInt. Literals are refused before the
  // program runs, these are its other sources, and code from strings is
  // refused so that no literal arrives that way.
  for (const name of ["BigInt", "BigInt64Array", "BigUint64Array", "eval"]) delete globalThis[name];
  for (const name of ["getBigInt64", "getBigUint64", "setBigInt64", "setBigUint64"]) delete DataView.prototype[name];
  const noCodeFromStrings = "the sandbox runs no code from strings; write the code out";
  const TypeErrorCtor = TypeError;
  for (const made of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    const proto = getPrototypeOf(made);
    // Still the constructor `instanceof` asks about, but it compiles nothing.
    const blocked = function () { throw new TypeErrorCtor(noCodeFromStrings); };
    defineProperty(blocked, "prototype", { value: proto });
    defineProperty(proto, "constructor", { value: blocked, writable: true, configurable: true, enumerable: false });
    if (proto === Function.prototype) {
      defineProperty(globalThis, "Function", { value: blocked, writable: true, configurable: true, enumerable: false });
    }
  }

  defineProperty(globalThis, "GLOBAL", { value: GLOBAL, enumerable: false });
  defineProperty(globalThis, "ERROR_CLASS", { value: ERROR_CLASS, enumerable: false, writable: true });
  defineProperty(globalThis, "INDEX_GLOBAL", { value: INDEX_GLOBAL, enumerable: false });
  defineProperty(globalThis, "console", { value: console, enumerable: false, writable: true });
  for (const [errorName, proxy] of errorProxies) {
    defineProperty(globalThis, errorName, { value: proxy, enumerable: false, writable: true, configurable: true });
  }
  return { deliver, finish, isStackOverflow, configure };
}
