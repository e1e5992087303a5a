// JavaScript's conversions on the values an expression sees (runtime semantics 1.6, 2.4, 2.5, 5.2),
// written out so that they give the same answers for objects without a prototype (the runtime's
// objects are plain; ours may be built with Object.create(null)), and never call user code.

/** JavaScript's String(v) for JSON-like values: arrays join their elements with "," (null and undefined as ""). */
export function jsString(v: unknown): string {
  if (Array.isArray(v)) {
    let out = "";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out += ",";
      const e: unknown = v[i];
      if (e !== null && e !== undefined) out += jsString(e);
    }
    return out;
  }
  if (v !== null && typeof v === "object") return "[object Object]";
  return String(v);
}

/** JavaScript truthiness (2.5). */
export function truthy(v: unknown): boolean {
  return Boolean(v);
}

function isObject(v: unknown): v is object {
  return v !== null && typeof v === "object";
}

/** ToPrimitive of a JSON-like value (objects through their string form). */
function primitive(v: unknown): unknown {
  return isObject(v) ? jsString(v) : v;
}

export type ComparisonOp = "===" | "!==" | ">=" | "<=" | "==" | "!=" | ">" | "<";

/** JavaScript's `a op b`: loose and strict equality, relational comparison with its coercions. */
export function compare(op: ComparisonOp, a: unknown, b: unknown): boolean {
  switch (op) {
    case "===":
      return a === b;
    case "!==":
      return a !== b;
    case "==":
      return looseEquals(a, b);
    case "!=":
      return !looseEquals(a, b);
  }
  const x = primitive(a) as number | string;
  const y = primitive(b) as number | string;
  switch (op) {
    case "<":
      return x < y;
    case ">":
      return x > y;
    case "<=":
      return x <= y;
    case ">=":
      return x >= y;
  }
}

function looseEquals(a: unknown, b: unknown): boolean {
  // Two objects: the same reference. One object: compared through its primitive form.
  if (isObject(a) && isObject(b)) return a === b;
  // eslint-disable-next-line eqeqeq
  return (primitive(a) as unknown) == (primitive(b) as unknown);
}

/** A value in a message: `the number 3`, `the text "a"`, `null`, `an array`, `an object`, `a missing value` (undefined). */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "a missing value";
  if (Array.isArray(v)) return v.length === 0 ? "an empty array" : "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the text ${quoteShort(v)}`;
  return `the ${typeof v} ${String(v)}`;
}

/** A string quoted for a message, cut to a readable length. */
export function quoteShort(s: string, max = 60): string {
  const q = JSON.stringify(s.length > max ? s.slice(0, max) : s);
  return s.length > max ? q.slice(0, -1) + '…"' : q;
}
