// Validates a value against a JSON Schema (draft-07) as the runtime's output and input checks do (spec 13):
// Ajv 8 with allErrors, strict false, no type coercion, no defaults, no formats. An interpreter of our own:
// the runtime compiles schemas to code (new Function), which this project never does. Errors are written as
// Ajv writes them (`<instancePath> <message>`; errorsText `data<instancePath> <message>` joined by ", "), in
// an order close to Ajv's (type first, then the keywords of the value's type, then the combinators).
import equal from "../lwir/draft07-equal";

export interface InstanceError {
  /** JSON pointer into the value, Ajv's `instancePath` ("" at the root). */
  instancePath: string;
  message: string;
}

/** Nesting (schema references and instance depth together) beyond which validation gives up with an error. */
const MAX_DEPTH = 400;

type Obj = Record<string, unknown>;
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Errors of `value` against `schema` (empty: valid). `true`/absent accepts everything, `false` nothing. */
export function validateInstance(schema: unknown, value: unknown): InstanceError[] {
  const errors: InstanceError[] = [];
  try {
    check(schema, value, "", schema, errors, 0);
  } catch (error) {
    errors.push({ instancePath: "", message: error instanceof Error ? error.message : String(error) });
  }
  return errors;
}

/** Ajv's errorsText: `data/<pointer> <message>` entries joined by ", ". */
export function errorsText(errors: readonly InstanceError[]): string {
  return errors.map((e) => `data${e.instancePath} ${e.message}`).join(", ");
}

/** The per-error findings the runtime lists (and quotes in an output repair note): `<instancePath> <message>`, or the message at the root. */
export function findingsOf(errors: readonly InstanceError[]): string[] {
  return errors.map((e) => (e.instancePath === "" ? e.message : `${e.instancePath} ${e.message}`));
}

function pointer(base: string, key: string | number): string {
  return `${base}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function typeMatches(type: string, v: unknown): boolean {
  switch (type) {
    case "string": return typeof v === "string";
    case "number": return typeof v === "number" && Number.isFinite(v);
    case "integer": return typeof v === "number" && Number.isFinite(v) && v % 1 === 0;
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    case "array": return Array.isArray(v);
    case "object": return isObject(v);
    default: return false;
  }
}

/** Ajv counts string length in Unicode code points. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function resolveRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) throw new Error(`can't resolve reference ${ref}`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^\d+$/.test(part) && Number(part) < node.length) node = node[Number(part)];
    else if (isObject(node) && hasOwn(node, part)) node = node[part];
    else throw new Error(`can't resolve reference ${ref}`);
  }
  return node;
}

const patternCache = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let r = patternCache.get(pattern);
  if (!r) {
    r = new RegExp(pattern, "u");
    if (patternCache.size > 500) patternCache.clear();
    patternCache.set(pattern, r);
  }
  return r;
}

/** Whether `value` is valid, without keeping errors (for anyOf, oneOf, not, if, contains). */
function valid(schema: unknown, value: unknown, path: string, root: unknown, depth: number): boolean {
  const sink: InstanceError[] = [];
  check(schema, value, path, root, sink, depth);
  return sink.length === 0;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" ? v : undefined;
}

function check(schema: unknown, v: unknown, path: string, root: unknown, out: InstanceError[], depth: number): void {
  if (depth > MAX_DEPTH) throw new Error(`the schema or the value nests deeper than ${MAX_DEPTH} levels`);
  if (schema === true || schema === undefined) return;
  if (schema === false) {
    out.push({ instancePath: path, message: "boolean schema is false" });
    return;
  }
  if (!isObject(schema)) return;
  const s = schema;
  if (typeof s.$ref === "string") {
    check(resolveRef(root, s.$ref), v, path, root, out, depth + 1);
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as unknown[]).map(String) : [String(s.type)];
    if (!types.some((t) => typeMatches(t, v))) {
      out.push({ instancePath: path, message: `must be ${types.join(",")}` });
    }
  }
  if (typeof v === "number") {
    const max = num(s.maximum), min = num(s.minimum), xmax = num(s.exclusiveMaximum), xmin = num(s.exclusiveMinimum), mult = num(s.multipleOf);
    if (max !== undefined && !(v <= max)) out.push({ instancePath: path, message: `must be <= ${max}` });
    if (min !== undefined && !(v >= min)) out.push({ instancePath: path, message: `must be >= ${min}` });
    if (xmax !== undefined && !(v < xmax)) out.push({ instancePath: path, message: `must be < ${xmax}` });
    if (xmin !== undefined && !(v > xmin)) out.push({ instancePath: path, message: `must be > ${xmin}` });
    if (mult !== undefined) {
      const q = v / mult;
      if (!Number.isInteger(q)) out.push({ instancePath: path, message: `must be multiple of ${mult}` });
    }
  }
  if (typeof v === "string") {
    const maxL = num(s.maxLength), minL = num(s.minLength);
    if (maxL !== undefined && codePoints(v) > maxL) out.push({ instancePath: path, message: `must NOT have more than ${maxL} characters` });
    if (minL !== undefined && codePoints(v) < minL) out.push({ instancePath: path, message: `must NOT have fewer than ${minL} characters` });
    if (typeof s.pattern === "string" && !regex(s.pattern).test(v)) out.push({ instancePath: path, message: `must match pattern "${s.pattern}"` });
  }
  if (Array.isArray(v)) checkArray(s, v, path, root, out, depth);
  if (isObject(v)) checkObject(s, v, path, root, out, depth);
  if (hasOwn(s, "const") && !equal(v, s.const)) out.push({ instancePath: path, message: "must be equal to constant" });
  if (Array.isArray(s.enum) && !s.enum.some((e) => equal(v, e))) out.push({ instancePath: path, message: "must be equal to one of the allowed values" });
  if (hasOwn(s, "not") && valid(s.not, v, path, root, depth + 1)) out.push({ instancePath: path, message: "must NOT be valid" });
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => valid(sub, v, path, root, depth + 1))) {
    out.push({ instancePath: path, message: "must match a schema in anyOf" });
  }
  if (Array.isArray(s.oneOf)) {
    const passing = s.oneOf.filter((sub) => valid(sub, v, path, root, depth + 1)).length;
    if (passing !== 1) out.push({ instancePath: path, message: "must match exactly one schema in oneOf" });
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) check(sub, v, path, root, out, depth + 1);
  if (hasOwn(s, "if") && (hasOwn(s, "then") || hasOwn(s, "else"))) {
    const branch = valid(s.if, v, path, root, depth + 1) ? "then" : "else";
    if (hasOwn(s, branch)) {
      const before = out.length;
      check(s[branch], v, path, root, out, depth + 1);
      if (out.length > before) out.push({ instancePath: path, message: `must match "${branch}" schema` });
    }
  }
}

function checkArray(s: Obj, v: unknown[], path: string, root: unknown, out: InstanceError[], depth: number): void {
  const maxI = num(s.maxItems), minI = num(s.minItems);
  if (maxI !== undefined && v.length > maxI) out.push({ instancePath: path, message: `must NOT have more than ${maxI} items` });
  if (minI !== undefined && v.length < minI) out.push({ instancePath: path, message: `must NOT have fewer than ${minI} items` });
  if (s.uniqueItems === true) {
    outer: for (let i = v.length - 1; i > 0; i--) {
      for (let j = i - 1; j >= 0; j--) {
        if (equal(v[i], v[j])) {
          out.push({ instancePath: path, message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)` });
          break outer;
        }
      }
    }
  }
  if (Array.isArray(s.items)) {
    const tuple = s.items;
    for (let i = 0; i < Math.min(tuple.length, v.length); i++) check(tuple[i], v[i], pointer(path, i), root, out, depth + 1);
    if (v.length > tuple.length && hasOwn(s, "additionalItems")) {
      if (s.additionalItems === false) out.push({ instancePath: path, message: `must NOT have more than ${tuple.length} items` });
      else for (let i = tuple.length; i < v.length; i++) check(s.additionalItems, v[i], pointer(path, i), root, out, depth + 1);
    }
  } else if (s.items !== undefined) {
    for (let i = 0; i < v.length; i++) check(s.items, v[i], pointer(path, i), root, out, depth + 1);
  }
  if (hasOwn(s, "contains") && !v.some((x, i) => valid(s.contains, x, pointer(path, i), root, depth + 1))) {
    out.push({ instancePath: path, message: "must contain at least 1 valid item(s)" });
  }
}

function checkObject(s: Obj, v: Obj, path: string, root: unknown, out: InstanceError[], depth: number): void {
  const keys = Object.keys(v);
  const maxP = num(s.maxProperties), minP = num(s.minProperties);
  if (maxP !== undefined && keys.length > maxP) out.push({ instancePath: path, message: `must NOT have more than ${maxP} properties` });
  if (minP !== undefined && keys.length < minP) out.push({ instancePath: path, message: `must NOT have fewer than ${minP} properties` });
  if (Array.isArray(s.required)) {
    for (const name of s.required) {
      if (typeof name === "string" && !hasOwn(v, name)) out.push({ instancePath: path, message: `must have required property '${name}'` });
    }
  }
  if (isObject(s.dependencies)) {
    for (const [name, dep] of Object.entries(s.dependencies)) {
      if (!hasOwn(v, name)) continue;
      if (Array.isArray(dep)) {
        const missing = dep.filter((d) => typeof d === "string" && !hasOwn(v, d));
        for (const m of missing) out.push({ instancePath: path, message: `must have property ${m} when property ${name} is present` });
      } else check(dep, v, path, root, out, depth + 1);
    }
  }
  if (hasOwn(s, "propertyNames")) {
    for (const k of keys) {
      if (!valid(s.propertyNames, k, path, root, depth + 1)) out.push({ instancePath: path, message: "property name must be valid" });
    }
  }
  const props = isObject(s.properties) ? s.properties : undefined;
  const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  for (const k of keys) {
    let matched = false;
    if (props && hasOwn(props, k)) {
      matched = true;
      check(props[k], v[k], pointer(path, k), root, out, depth + 1);
    }
    for (const [p, sub] of patterns) {
      if (regex(p).test(k)) {
        matched = true;
        check(sub, v[k], pointer(path, k), root, out, depth + 1);
      }
    }
    if (!matched && hasOwn(s, "additionalProperties")) {
      if (s.additionalProperties === false) out.push({ instancePath: path, message: "must NOT have additional properties" });
      else check(s.additionalProperties, v[k], pointer(path, k), root, out, depth + 1);
    }
  }
}
