// Canonical JSON (findings catalog 6.1) and WorkflowVersion identity (6.2).
//
// The checking walk and the fallback writer use explicit stacks: documents may be nested thousands
// of levels deep, and YAML aliases can make a value cyclic. The engine's own JSON.stringify is only
// handed values whose measured depth is small. Paths in messages are built once a problem is found.

import { sha256Hex } from "./sha256";
import type { WorkflowVersion } from "./types";
import { ROOT, index, key, pathString, type Path } from "./path";

/** Containers nested deeper than this are refused (catalog 11, decision for 9.2). */
export const MAX_DEPTH = 5000;

// ---------------------------------------------------------------------------------------------
// Classifying one value. Results are passed through module variables so the happy path allocates
// nothing beyond what the engine needs to list own keys.

const SCALAR = 0;
const ARRAY = 1;
const OBJECT = 2;
const BAD = 3;
type Kind = typeof SCALAR | typeof ARRAY | typeof OBJECT | typeof BAD;

/** Set by classify() when it returns BAD: what is wrong, without the location. */
let badWhat = "";
/** Set by classify() when it returns OBJECT: the own keys, all checked enumerable data properties. */
let objectKeys: string[] = [];

const hasOwn = Object.prototype.hasOwnProperty;
const objectToString = Object.prototype.toString;

type WellFormedString = { isWellFormed?: () => boolean };
const nativeWellFormed = typeof (String.prototype as WellFormedString).isWellFormed === "function";
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

function isWellFormed(s: string): boolean {
  return nativeWellFormed ? (s as unknown as Required<WellFormedString>).isWellFormed() : !LONE_SURROGATE.test(s);
}

/** Object.prototype of another realm (an iframe, a vm context) is as plain as ours. */
function isForeignObjectPrototype(proto: object): boolean {
  if (Object.getPrototypeOf(proto) !== null) return false;
  const d = Object.getOwnPropertyDescriptor(proto, "constructor");
  const ctor: unknown = d && d.value;
  return typeof ctor === "function" && ctor.name === "Object" && (ctor as { prototype?: unknown }).prototype === proto;
}

function withArticle(name: string): string {
  return (/^[AEIOUaeiou]/.test(name) ? "an " : "a ") + name;
}

/** "a Set", "a Buffer", "an instance of Foo": what a non-plain object is. */
function describeObject(o: object, proto: object | null): string {
  const tag = objectToString.call(o).slice(8, -1);
  let ctorName = "";
  if (proto !== null) {
    const d = Object.getOwnPropertyDescriptor(proto, "constructor");
    const ctor: unknown = d && d.value;
    if (typeof ctor === "function" && typeof ctor.name === "string") ctorName = ctor.name;
  }
  if (tag !== "Object") return withArticle(ctorName === "Buffer" ? "Buffer" : tag);
  return ctorName ? `an instance of ${ctorName}` : "an object with a non-plain prototype";
}

function keyLabel(k: string): string {
  return isWellFormed(k) ? JSON.stringify(k) : "(a key with a lone surrogate)";
}

/** Checks the own properties of a container: data, enumerable, no symbols. Returns a problem or "". */
function ownPropertyProblem(o: object, names: string[]): string {
  if (Object.getOwnPropertySymbols(o).length > 0) return "a property with a symbol key";
  for (let i = 0; i < names.length; i++) {
    const d = Object.getOwnPropertyDescriptor(o, names[i]);
    if (d === undefined) continue; // vanished while looking (a proxy); nothing to say
    if (d.get !== undefined || d.set !== undefined || !("value" in d)) return `an accessor property ${keyLabel(names[i])}`;
    if (!d.enumerable) return `a non-enumerable property ${keyLabel(names[i])}`;
  }
  return "";
}

/**
 * Set by scan() for values known to hold plain data properties only (JSON.parse, YAML conversion): their
 * plain objects and arrays skip the descriptor and symbol inspection, which dominates the walk.
 */
let plainData = false;

function classify(v: unknown): Kind {
  switch (typeof v) {
    case "string":
      if (isWellFormed(v)) return SCALAR;
      badWhat = "lone surrogate in a string";
      return BAD;
    case "number":
      if (v - v === 0) return SCALAR; // finite
      badWhat = `non-finite number (${String(v)})`;
      return BAD;
    case "boolean":
      return SCALAR;
    case "undefined":
      badWhat = "undefined is not JSON data";
      return BAD;
    case "bigint":
      badWhat = "a bigint is not JSON data";
      return BAD;
    case "symbol":
      badWhat = "a symbol is not JSON data";
      return BAD;
    case "function":
      badWhat = "a function is not JSON data";
      return BAD;
  }
  if (v === null) return SCALAR;
  const o = v as object;
  const proto = Object.getPrototypeOf(o) as object | null;
  if (plainData) {
    if (proto === Object.prototype) {
      const keys = Object.keys(o);
      for (let i = 0; i < keys.length; i++) {
        if (!isWellFormed(keys[i])) {
          badWhat = "lone surrogate in a key";
          return BAD;
        }
      }
      objectKeys = keys;
      return OBJECT;
    }
    if (proto === Array.prototype) return ARRAY;
  }
  if (Array.isArray(o)) {
    // Array.prototype is itself an array, in every realm; a subclass prototype is not.
    if (proto === null || !Array.isArray(proto)) {
      badWhat = "an array subclass is not JSON data";
      return BAD;
    }
    const names = Object.getOwnPropertyNames(o);
    const n = o.length;
    if (names.length !== n + 1) {
      let extra = "";
      for (let i = 0; i < names.length && !extra; i++) {
        const k = names[i];
        if (k !== "length" && !(String(Number(k)) === k && Number(k) < n && Number.isInteger(Number(k)))) extra = k;
      }
      badWhat = extra ? `an array with an extra property ${keyLabel(extra)}` : "a sparse array (with holes)";
      return BAD;
    }
    for (let i = 0; i < n; i++) {
      const d = Object.getOwnPropertyDescriptor(o, i);
      if (d === undefined) {
        badWhat = "a sparse array (with holes)";
        return BAD;
      }
      if (d.get !== undefined || d.set !== undefined || !("value" in d) || !d.enumerable) {
        badWhat = `an array whose element ${i} is an accessor or non-enumerable property`;
        return BAD;
      }
    }
    if (Object.getOwnPropertySymbols(o).length > 0) {
      badWhat = "an array with a symbol-keyed property";
      return BAD;
    }
    return ARRAY;
  }
  if (proto !== Object.prototype && proto !== null && !isForeignObjectPrototype(proto)) {
    badWhat = `${describeObject(o, proto)} is not JSON data`;
    return BAD;
  }
  const names = Object.getOwnPropertyNames(o);
  const p = ownPropertyProblem(o, names);
  if (p) {
    badWhat = p;
    return BAD;
  }
  for (let i = 0; i < names.length; i++) {
    if (!isWellFormed(names[i])) {
      badWhat = "lone surrogate in a key";
      return BAD;
    }
  }
  objectKeys = names;
  return OBJECT;
}

// ---------------------------------------------------------------------------------------------
// The walk shared by the checker and the writer.

interface Frame {
  container: object;
  keys: string[] | undefined; // undefined for arrays
  i: number;
  n: number;
  /** Where this container sits in its parent (undefined for the root). */
  at: string | number | undefined;
}

function pathOf(stack: Frame[], depth: number, child: string | number | undefined): string {
  let p: Path = ROOT;
  for (let d = 1; d < depth; d++) {
    const at = stack[d].at as string | number;
    p = typeof at === "number" ? index(p, at) : key(p, at);
  }
  if (child !== undefined) p = typeof child === "number" ? index(p, child) : key(p, child);
  return pathString(p);
}

/**
 * Called when a container would sit deeper than MAX_DEPTH. A cycle always ends up here, so this is
 * where cycles are told apart from merely deep values: look for a container repeated on the path.
 */
function depthProblem(stack: Frame[], depth: number, child: object, childAt: string | number): string {
  const seen = new Set<object>();
  for (let d = 0; d < depth; d++) {
    const c = stack[d].container;
    if (seen.has(c)) return `cyclic reference at ${pathOf(stack, d, stack[d].at)}`;
    seen.add(c);
  }
  if (seen.has(child)) return `cyclic reference at ${pathOf(stack, depth, childAt)}`;
  return `nesting deeper than ${MAX_DEPTH} levels at ${pathOf(stack, depth, childAt)}`;
}

/**
 * Sets stack[depth] up for a container classify() just accepted. Frames are reused across depths so
 * a walk allocates one per nesting level, not one per container.
 */
function enter(stack: Frame[], depth: number, container: object, kind: Kind, at: string | number | undefined, sortKeys: boolean): Frame {
  let keys: string[] | undefined;
  let n: number;
  if (kind === ARRAY) n = (container as unknown[]).length;
  else {
    keys = objectKeys;
    if (sortKeys) keys.sort(); // default sort: UTF-16 code units
    n = keys.length;
  }
  let f = stack[depth];
  if (f === undefined) {
    f = { container, keys, i: 0, n, at };
    stack.push(f);
  } else {
    f.container = container;
    f.keys = keys;
    f.i = 0;
    f.n = n;
    f.at = at;
  }
  return f;
}

function inspectionFailure(e: unknown): string {
  return `value cannot be inspected (${e instanceof Error ? e.message : String(e)})`;
}

/** Set by scan(): some object key is integer-like (see canonicalJson). */
let sawIndexLikeKey = false;
/** Set by scan(): the deepest container nesting seen (the root container is 1). */
let maxDepthSeen = 0;

/** Integer-like keys: engines enumerate them first, in numeric order, whatever the insertion order. */
function isIndexLike(k: string): boolean {
  const c = k.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  for (let i = 1; i < k.length; i++) {
    const d = k.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return true;
}

/** The checking walk: the problem (what and where) or undefined. Sets the two variables above. */
function scan(value: unknown, plain = false): string | undefined {
  plainData = plain;
  try {
    return scanWalk(value);
  } finally {
    plainData = false;
  }
}

function scanWalk(value: unknown): string | undefined {
  sawIndexLikeKey = false;
  maxDepthSeen = 0;
  const kind = classify(value);
  if (kind === BAD) return `${badWhat} at $`;
  if (kind === SCALAR) return undefined;
  const stack: Frame[] = [];
  enter(stack, 0, value as object, kind, undefined, false);
  let depth = 1;
  maxDepthSeen = 1;
  while (depth > 0) {
    const f = stack[depth - 1];
    if (f.i >= f.n) {
      depth--;
      continue;
    }
    const i = f.i++;
    let at: string | number;
    if (f.keys === undefined) at = i;
    else {
      at = f.keys[i];
      if (!sawIndexLikeKey && isIndexLike(at)) sawIndexLikeKey = true;
    }
    const child: unknown = (f.container as Record<string | number, unknown>)[at];
    const k = classify(child);
    if (k === SCALAR) continue;
    if (k === BAD) return `${badWhat} at ${pathOf(stack, depth, at)}`;
    if (depth >= MAX_DEPTH) return depthProblem(stack, depth, child as object, at);
    enter(stack, depth, child as object, k, at, false);
    depth++;
    if (depth > maxDepthSeen) maxDepthSeen = depth;
  }
  return undefined;
}

/**
 * Why the canonical writer would refuse `value` (what and where), or undefined when it is plain JSON
 * data. Never throws.
 */
export function hashabilityProblem(value: unknown, plainData = false): string | undefined {
  try {
    return scan(value, plainData);
  } catch (e) {
    return inspectionFailure(e);
  }
}

/** Nesting up to which the native JSON.stringify is trusted (real documents nest about 20 levels). */
const NATIVE_DEPTH = 200;

/**
 * Replacer handing JSON.stringify each object with its keys in sorted order. Only objects whose keys
 * are out of order are copied, shallowly, so the copies die young instead of doubling the document
 * in memory (a full sorted copy was measured slower, from garbage collection alone).
 */
function sortingReplacer(_key: string, v: unknown): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  let sorted = true;
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1] > keys[i]) {
      sorted = false;
      break;
    }
  }
  if (sorted) return v;
  keys.sort();
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = (v as Record<string, unknown>)[k];
    if (k === "__proto__") Object.defineProperty(copy, k, { value: x, enumerable: true, writable: true, configurable: true });
    else copy[k] = x;
  }
  return copy;
}

/**
 * The canonical JSON text of `value` (catalog 6.1): JSON.stringify spelling of numbers and strings,
 * object keys sorted by UTF-16 code units, no whitespace. Throws an Error whose message says what
 * and where when the value is not plain JSON data (the same problems hashabilityProblem reports).
 */
export function canonicalJson(value: unknown): string {
  let problem: string | undefined;
  try {
    problem = scan(value);
  } catch (e) {
    problem = inspectionFailure(e);
  }
  if (problem !== undefined) throw new Error(`not hashable: ${problem}`);
  // The engine's JSON.stringify writes numbers and strings exactly as 6.1 asks and is several times
  // faster than building the text in JS. It cannot be used when an object has integer-like keys (a
  // sorted copy would still list them first) or when the value nests deep enough for its native
  // recursion to approach the stack limit; the iterative writer handles those.
  if (!sawIndexLikeKey && maxDepthSeen <= NATIVE_DEPTH) {
    try {
      return JSON.stringify(value, sortingReplacer);
    } catch {
      // A host with a far smaller stack than usual: fall through to the iterative writer.
    }
  }
  return writeIteratively(value);
}

/** The canonical text written piece by piece; used when the native writer cannot be (rare). */
function writeIteratively(value: unknown): string {
  let problem: string | undefined;
  let out = "";
  try {
    const kind = classify(value);
    if (kind === BAD) problem = `${badWhat} at $`;
    else if (kind === SCALAR) out = scalarJson(value);
    else {
      const stack: Frame[] = [];
      enter(stack, 0, value as object, kind, undefined, true);
      out = kind === ARRAY ? "[" : "{";
      let depth = 1;
      while (depth > 0) {
        const f = stack[depth - 1];
        if (f.i >= f.n) {
          out += f.keys === undefined ? "]" : "}";
          depth--;
          continue;
        }
        const i = f.i++;
        let at: string | number;
        if (f.keys === undefined) {
          at = i;
          if (i > 0) out += ",";
        } else {
          at = f.keys[i];
          out += (i > 0 ? "," : "") + JSON.stringify(at) + ":";
        }
        const child: unknown = (f.container as Record<string | number, unknown>)[at];
        const k = classify(child);
        if (k === SCALAR) {
          out += scalarJson(child);
          continue;
        }
        if (k === BAD) {
          problem = `${badWhat} at ${pathOf(stack, depth, at)}`;
          break;
        }
        if (depth >= MAX_DEPTH) {
          problem = depthProblem(stack, depth, child as object, at);
          break;
        }
        enter(stack, depth, child as object, k, at, true);
        depth++;
        out += k === ARRAY ? "[" : "{";
      }
    }
  } catch (e) {
    problem = inspectionFailure(e);
  }
  if (problem !== undefined) throw new Error(`not hashable: ${problem}`);
  return out;
}

/** A value classify() called SCALAR: null, boolean, finite number or well-formed string. */
function scalarJson(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  return String(v); // numbers (String(-0) is "0", as in JSON.stringify), booleans, null
}

/**
 * WorkflowVersion identity of a valid document (catalog 6.2): hash = "sha256:" + SHA-256 of the
 * canonical JSON, id = "wfver_" + its first 16 hex digits. Throws like canonicalJson.
 */
export function workflowVersionOf(value: unknown): WorkflowVersion {
  const hex = sha256Hex(canonicalJson(value));
  return { id: "wfver_" + hex.slice(0, 16), hash: "sha256:" + hex };
}
