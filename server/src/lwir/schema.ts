// The JSON Schema subset check at one schema position (findings catalog 3.2).
//
// Stage 2 reproduces the verdict of Ajv 8 (`{allErrors: true, strict: false}`) validating the value
// against the draft-07 meta-schema. Ajv itself cannot ship here: it compiles validators with
// `new Function`, which our safety rules and browser CSP forbid. So this is a hand-written checker
// for the one meta-schema, including two Ajv behaviours that decide verdicts:
//   - `uniqueItems` compares with fast-deep-equal, which calls `valueOf`/`toString` on objects that
//     have their own such keys, and throws when those are data ("a.valueOf is not a function");
//   - for string arrays (`required`, `dependencies` values) duplicates are found through a plain
//     object used as a map, so a repeated "__proto__" goes unnoticed.
// Error messages imitate Ajv's wording (`data/type must be ...`) but are not byte-identical: the
// findings contract is code + path + count, not the text.
//
// The value is expected to be plain JSON data as the validator sees it: the copy parsed back from
// canonical JSON, whose objects list integer-like keys first (ascending) and then the others sorted
// by UTF-16 code units. Wherever order matters, that order is computed here (jsKeyOrder), so callers
// may pass the value in any key order. All walks use explicit stacks.

import { canonicalJson } from "./canonical";
import { inPlainObject } from "./jsObject";

// ---------------------------------------------------------------------------------------------
// Small helpers

const hasOwn = Object.prototype.hasOwnProperty;

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function own(o: Obj, k: string): unknown {
  return hasOwn.call(o, k) ? o[k] : undefined;
}

function isArrayIndex(k: string): boolean {
  const n = k.length;
  if (n === 0 || n > 10) return false;
  const c = k.charCodeAt(0);
  if (c < 48 || c > 57 || (c === 48 && n > 1)) return false;
  for (let i = 1; i < n; i++) {
    const d = k.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return Number(k) < 4294967295;
}

/** The order in which JavaScript lists the keys of the parsed-back copy. */
export function jsKeyOrder(a: string, b: string): number {
  const ia = isArrayIndex(a);
  const ib = isArrayIndex(b);
  if (ia && ib) return Number(a) - Number(b);
  if (ia !== ib) return ia ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedKeys(o: Obj): string[] {
  return Object.keys(o).sort(jsKeyOrder);
}

/** A location inside the schema as linked nodes; the pointer text is only built for messages. */
interface Loc {
  readonly parent: Loc | undefined;
  readonly seg: string;
  readonly depth: number;
}
const ROOT_LOC: Loc = { parent: undefined, seg: "", depth: 0 };

function child(parent: Loc, seg: string | number): Loc {
  return { parent, seg: String(seg), depth: parent.depth + 1 };
}

function pointer(loc: Loc): string {
  const parts: string[] = [];
  for (let l: Loc | undefined = loc; l && l.parent; l = l.parent) parts.push(l.seg.replace(/~/g, "~0").replace(/\//g, "~1"));
  return parts.length ? "/" + parts.reverse().join("/") : "";
}

/** Far beyond what a document within the nesting limit can hold: only a cyclic value gets here. */
const DEPTH_GUARD = 20000;
const TOO_DEEP = `schema nested deeper than ${DEPTH_GUARD} levels`;

// ---------------------------------------------------------------------------------------------
// Stage 2: the draft-07 meta-schema, as Ajv judges it

const SIMPLE_TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

/** Meta-schema ids Ajv 8 knows out of the box (the trailing "#" or "#/" is dropped before lookup). */
const KNOWN_META = new Set(["http://json-schema.org/draft-07/schema", "http://json-schema.org/schema"]);

const STRING_KEYWORDS = new Set([
  "$id", "$schema", "$ref", "$comment", "title", "description", "format", "contentMediaType",
  "contentEncoding", "pattern",
]);
const NUMBER_KEYWORDS = new Set(["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"]);
const COUNT_KEYWORDS = new Set(["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"]);
const SCHEMA_KEYWORDS = new Set(["additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not"]);
const SCHEMA_MAP_KEYWORDS = new Set(["definitions", "properties", "patternProperties"]);
const SCHEMA_ARRAY_KEYWORDS = new Set(["allOf", "anyOf", "oneOf"]);

/** Raised (as a value, never thrown) when Ajv itself would throw during meta-validation. */
class AjvThrow {
  constructor(readonly message: string) {}
}

// Scratch state of ajvEqual, reused across calls: the exact path compares items pairwise
// (quadratic, like Ajv), so per-call allocations and re-sorting keys would dominate.
const eqX: unknown[] = [];
const eqY: unknown[] = [];
const eqD: number[] = [];
const keyCache = new Map<object, string[]>();

function orderedKeys(o: Obj): string[] {
  let keys = keyCache.get(o);
  if (keys === undefined) {
    keys = sortedKeys(o);
    keyCache.set(o, keys);
  }
  return keys;
}

/**
 * fast-deep-equal as Ajv's `uniqueItems` runs it on the parsed-back copy, including the order in
 * which it compares (last key first, last element first) and its `valueOf`/`toString` shortcut,
 * which throws on objects that carry those names as data keys. Call with keyCache cleared around
 * a batch of comparisons.
 */
function ajvEqual(a: unknown, b: unknown): boolean | AjvThrow {
  eqX.length = 0;
  eqY.length = 0;
  eqD.length = 0;
  eqX.push(a);
  eqY.push(b);
  eqD.push(0);
  while (eqX.length > 0) {
    const x = eqX.pop();
    const y = eqY.pop();
    const d = eqD.pop() as number;
    if (typeof x !== "object" || x === null || typeof y !== "object" || y === null) {
      if (x !== y) return false;
      continue;
    }
    if (d > DEPTH_GUARD) return new AjvThrow(TOO_DEEP);
    const xa = Array.isArray(x);
    const ya = Array.isArray(y);
    // `constructor`: Array for arrays, else an own "constructor" data value, else Object. Distinct
    // containers of the parsed-back copy are never identical, so container values never match.
    const cx: unknown = xa ? Array : hasOwn.call(x, "constructor") ? (x as Obj).constructor : Object;
    const cy: unknown = ya ? Array : hasOwn.call(y, "constructor") ? (y as Obj).constructor : Object;
    if (cx !== cy || (typeof cx === "object" && cx !== null)) return false;
    if (xa) {
      const xv = x as unknown[];
      const yv = y as unknown[];
      if (xv.length !== yv.length) return false;
      for (let i = 0; i < xv.length; i++) {
        eqX.push(xv[i]);
        eqY.push(yv[i]);
        eqD.push(d + 1);
      }
      continue;
    }
    if (hasOwn.call(x, "valueOf")) return new AjvThrow("a.valueOf is not a function");
    if (hasOwn.call(x, "toString")) return new AjvThrow("a.toString is not a function");
    const keys = orderedKeys(x as Obj);
    if (keys.length !== orderedKeys(y as Obj).length) return false;
    for (let i = 0; i < keys.length; i++) if (!hasOwn.call(y, keys[i])) return false;
    for (let i = 0; i < keys.length; i++) {
      eqX.push((x as Obj)[keys[i]]);
      eqY.push((y as Obj)[keys[i]]);
      eqD.push(d + 1);
    }
  }
  return true;
}

/**
 * A text that is equal for two items exactly when fast-deep-equal calls them equal without
 * throwing, or undefined when the item holds a key ("valueOf", "toString", "constructor") that
 * makes fast-deep-equal throw or compare by identity: then only the exact emulation will do.
 */
function equalityKey(v: unknown): string | undefined {
  switch (typeof v) {
    case "string":
      return "s" + v;
    case "number":
      return "n" + String(v);
    case "boolean":
      return v ? "t" : "f";
  }
  if (v === null) return "z";
  let text: string;
  try {
    text = canonicalJson(v);
  } catch {
    return undefined;
  }
  // Inside a JSON string every quote is escaped, so `"valueOf":` can only be a key (or part of a
  // key, which merely sends the item down the exact path).
  if (text.includes('"valueOf":') || text.includes('"toString":') || text.includes('"constructor":')) return undefined;
  return "j" + text;
}

/**
 * Ajv's generic `uniqueItems` loop (no known item type): compares from the end, stops at the first
 * duplicate. Returns the duplicate pair [j, i], undefined, or the throw.
 */
function firstDuplicate(items: unknown[]): [number, number] | undefined | AjvThrow {
  // Linear in the common case: group items by equality key, then name the pair Ajv meets first
  // (largest i that has an equal earlier item, and the largest such j).
  const lastIndex = new Map<string, number>();
  let best: [number, number] | undefined;
  for (let i = 0; i < items.length; i++) {
    const k = equalityKey(items[i]);
    if (k === undefined) return firstDuplicateScan(items);
    const j = lastIndex.get(k);
    if (j !== undefined) best = [j, i];
    lastIndex.set(k, i);
  }
  return best;
}

function firstDuplicateScan(items: unknown[]): [number, number] | undefined | AjvThrow {
  try {
    for (let i = items.length - 1; i > 0; i--) {
      for (let j = i - 1; j >= 0; j--) {
        const r = ajvEqual(items[i], items[j]);
        if (r instanceof AjvThrow) return r;
        if (r) return [j, i];
      }
    }
    return undefined;
  } finally {
    keyCache.clear();
    eqX.length = 0;
    eqY.length = 0;
  }
}

/**
 * Ajv's `uniqueItems` for `{type: "string"}` items: strings are keys of a plain object, so a second
 * "__proto__" is never seen as a duplicate. Non-strings are skipped (the items check reports them).
 */
function firstDuplicateString(items: unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (let i = items.length - 1; i >= 0; i--) {
    const v = items[i];
    if (typeof v !== "string" || v === "__proto__") continue;
    const j = seen.get(v);
    if (j !== undefined) return [i, j];
    seen.set(v, i);
  }
  return undefined;
}

/** Collects Ajv-style errors ("data/path message"). */
class MetaErrors {
  private readonly entries: { at: string; message: string }[] = [];
  thrown: string | undefined;
  get count(): number {
    return this.entries.length;
  }
  add(loc: Loc, message: string): void {
    this.entries.push({ at: "data" + pointer(loc), message });
  }
  addAll(other: MetaErrors): void {
    this.entries.push(...other.entries);
  }
  /** The list in a stable order (by location), whatever the key order of the input. */
  text(): string {
    return this.entries
      .map((e, i) => ({ ...e, i }))
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.i - b.i))
      .map((e) => `${e.at} ${e.message}`)
      .join(", ");
  }
}

function typeName(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function checkStringArray(v: unknown, loc: Loc, errs: MetaErrors): boolean {
  if (!Array.isArray(v)) {
    errs.add(loc, "must be array");
    return false;
  }
  let ok = true;
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== "string") {
      errs.add(child(loc, i), "must be string");
      ok = false;
    }
  }
  const dup = firstDuplicateString(v);
  if (dup) {
    // This loop of Ajv's names the later item first.
    errs.add(loc, `must NOT have duplicate items (items ## ${dup[1]} and ${dup[0]} are identical)`);
    ok = false;
  }
  return ok;
}

/** Checks `uniqueItems` the generic way; false when Ajv reports or throws. */
function checkUnique(v: unknown[], loc: Loc, errs: MetaErrors): boolean {
  const dup = firstDuplicate(v);
  if (dup instanceof AjvThrow) {
    errs.thrown ??= dup.message;
    return false;
  }
  if (dup) {
    errs.add(loc, `must NOT have duplicate items (items ## ${dup[0]} and ${dup[1]} are identical)`);
    return false;
  }
  return true;
}

/**
 * Checks `root` against the draft-07 meta-schema. Obligations are all "this value is a schema"; the
 * meta-schema's anyOf choices (items, type, dependencies values) are decided by the value's type.
 */
function metaValidate(root: unknown, errs: MetaErrors): void {
  const values: unknown[] = [root];
  const locs: Loc[] = [ROOT_LOC];
  const pushSchema = (v: unknown, loc: Loc): void => {
    values.push(v);
    locs.push(loc);
  };
  while (values.length > 0 && errs.thrown === undefined) {
    const s = values.pop();
    const loc = locs.pop() as Loc;
    if (typeof s === "boolean") continue;
    if (!isObject(s)) {
      errs.add(loc, "must be object,boolean");
      continue;
    }
    if (loc.depth > DEPTH_GUARD) {
      errs.thrown = TOO_DEEP;
      return;
    }
    for (const k in s) {
      if (!hasOwn.call(s, k)) continue;
      const v = s[k];
      if (v === undefined) continue;
      if (STRING_KEYWORDS.has(k)) {
        if (typeof v !== "string") errs.add(child(loc, k), "must be string");
      } else if (NUMBER_KEYWORDS.has(k)) {
        if (typeof v !== "number") errs.add(child(loc, k), "must be number");
      } else if (COUNT_KEYWORDS.has(k)) {
        if (typeof v !== "number" || !Number.isInteger(v)) errs.add(child(loc, k), "must be integer");
        if (typeof v === "number" && v < 0) errs.add(child(loc, k), "must be >= 0");
      } else if (SCHEMA_KEYWORDS.has(k)) {
        pushSchema(v, child(loc, k));
      } else if (SCHEMA_MAP_KEYWORDS.has(k)) {
        if (!isObject(v)) errs.add(child(loc, k), "must be object");
        else {
          const l = child(loc, k);
          for (const p in v) if (hasOwn.call(v, p)) pushSchema(v[p], child(l, p));
        }
      } else if (SCHEMA_ARRAY_KEYWORDS.has(k)) {
        const l = child(loc, k);
        if (!Array.isArray(v)) errs.add(l, "must be array");
        else {
          if (v.length < 1) errs.add(l, "must NOT have fewer than 1 items");
          for (let i = 0; i < v.length; i++) pushSchema(v[i], child(l, i));
        }
      } else {
        switch (k) {
          case "readOnly":
          case "uniqueItems":
            if (typeof v !== "boolean") errs.add(child(loc, k), "must be boolean");
            break;
          case "examples":
            if (!Array.isArray(v)) errs.add(child(loc, k), "must be array");
            break;
          case "multipleOf":
            if (typeof v !== "number") errs.add(child(loc, k), "must be number");
            else if (!(v > 0)) errs.add(child(loc, k), "must be > 0");
            break;
          case "items": {
            const l = child(loc, k);
            if (typeof v === "boolean" || isObject(v)) pushSchema(v, l);
            else if (Array.isArray(v)) {
              if (v.length < 1) {
                errs.add(l, "must be object,boolean");
                errs.add(l, "must NOT have fewer than 1 items");
                errs.add(l, "must match a schema in anyOf");
              }
              for (let i = 0; i < v.length; i++) pushSchema(v[i], child(l, i));
            } else {
              errs.add(l, "must be object,boolean");
              errs.add(l, "must be array");
              errs.add(l, "must match a schema in anyOf");
            }
            break;
          }
          case "required":
            checkStringArray(v, child(loc, k), errs);
            break;
          case "dependencies": {
            const l = child(loc, k);
            if (!isObject(v)) {
              errs.add(l, "must be object");
              break;
            }
            for (const p in v) {
              if (!hasOwn.call(v, p)) continue;
              const dv = v[p];
              const dl = child(l, p);
              if (typeof dv === "boolean" || isObject(dv)) pushSchema(dv, dl);
              else {
                const sub = new MetaErrors();
                if (!checkStringArray(dv, dl, sub)) {
                  errs.add(dl, "must be object,boolean");
                  errs.addAll(sub);
                  errs.add(dl, "must match a schema in anyOf");
                }
              }
            }
            break;
          }
          case "enum": {
            const l = child(loc, k);
            if (!Array.isArray(v)) errs.add(l, "must be array");
            else {
              if (v.length < 1) errs.add(l, "must NOT have fewer than 1 items");
              checkUnique(v, l, errs);
            }
            break;
          }
          case "type": {
            const l = child(loc, k);
            if (typeof v === "string" && SIMPLE_TYPES.has(v)) break;
            const sub = new MetaErrors();
            if (Array.isArray(v)) {
              let ok = v.length >= 1;
              if (!ok) sub.add(l, "must NOT have fewer than 1 items");
              for (let i = 0; i < v.length; i++) {
                if (typeof v[i] !== "string" || !SIMPLE_TYPES.has(v[i] as string)) {
                  sub.add(child(l, i), "must be equal to one of the allowed values");
                  ok = false;
                }
              }
              if (!checkUnique(v, l, sub)) ok = false;
              if (sub.thrown !== undefined) errs.thrown ??= sub.thrown;
              if (ok) break;
            } else sub.add(l, "must be array");
            errs.add(l, "must be equal to one of the allowed values");
            errs.addAll(sub);
            errs.add(l, "must match a schema in anyOf");
            break;
          }
          // "default", "const" and every other key: anything goes.
        }
      }
    }
  }
}

/**
 * Stage 2 alone: undefined when Ajv 8 (`allErrors: true, strict: false`) accepts `schema` against
 * the draft-07 meta-schema, else the text of the single finding (Ajv's error list, or the message
 * Ajv throws, e.g. for a `$schema` it does not know). `schema` should be a boolean or plain object.
 */
export function metaSchemaProblem(schema: unknown): string | undefined {
  if (typeof schema === "boolean") return undefined; // Ajv accepts boolean schemas outright
  if (isObject(schema) && hasOwn.call(schema, "$schema")) {
    const meta = schema.$schema;
    if (meta !== undefined) {
      if (typeof meta !== "string") return "$schema must be a string";
      // An empty $schema falls back to the default meta-schema (draft-07).
      if (meta !== "" && !KNOWN_META.has(meta.replace(/#\/?$/, ""))) return `no schema with key or ref "${meta}"`;
    }
  }
  const errs = new MetaErrors();
  metaValidate(schema, errs);
  if (errs.thrown !== undefined) return errs.thrown;
  return errs.count > 0 ? errs.text() : undefined;
}

// ---------------------------------------------------------------------------------------------
// Stage 3: the LWIR subset

const ALLOWED = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf",
  "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "propertyNames",
  "description", "title", "examples",
]);

function where(loc: Loc): string {
  return `at #${pointer(loc)}`;
}

function firstDisallowedKey(s: Obj): string | undefined {
  let first: string | undefined;
  for (const k in s) {
    if (!hasOwn.call(s, k) || ALLOWED.has(k)) continue;
    if (first === undefined || jsKeyOrder(k, first) < 0) first = k;
  }
  return first;
}

/** A branch of a primitive union: a boolean, or an object whose `type` is one non-container name. */
function isPrimitiveBranch(b: unknown): boolean {
  if (typeof b === "boolean") return true;
  if (!isObject(b)) return false;
  const t = own(b, "type");
  return typeof t === "string" && t !== "object" && t !== "array";
}

/** The discriminating property of an object branch: the first required key tagged by const/enum. */
function discriminatorOf(b: unknown): string | undefined {
  if (!isObject(b) || own(b, "type") !== "object") return undefined;
  const props = own(b, "properties");
  if (!isObject(props)) return undefined;
  const required = own(b, "required");
  if (!Array.isArray(required)) return undefined;
  let first: string | undefined;
  for (const k in props) {
    if (!hasOwn.call(props, k) || !required.includes(k)) continue;
    const p = props[k];
    if (!isObject(p) || (own(p, "const") === undefined && !Array.isArray(own(p, "enum")))) continue;
    if (first === undefined || jsKeyOrder(k, first) < 0) first = k;
  }
  return first;
}

function unionIsSupported(branches: unknown[]): boolean {
  if (branches.every(isPrimitiveBranch)) return true;
  let tag: string | undefined;
  for (const b of branches) {
    const d = discriminatorOf(b);
    if (d === undefined || (tag !== undefined && d !== tag)) return false;
    tag = d;
  }
  return tag !== undefined;
}

/** propertyNames that allow a non-string type, looking through nested anyOf/oneOf branches. */
function propertyNamesAllowNonString(pn: unknown): boolean {
  const stack: unknown[] = [pn];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const s = stack.pop();
    const d = depths.pop() as number;
    if (!isObject(s) || d > DEPTH_GUARD) continue;
    const t = own(s, "type");
    if (typeof t === "string" && t !== "string") return true;
    if (Array.isArray(t) && t.some((x) => x !== "string")) return true;
    for (const kw of ["anyOf", "oneOf"]) {
      const bs = own(s, kw);
      if (Array.isArray(bs)) for (const b of bs) {
        stack.push(b);
        depths.push(d + 1);
      }
    }
  }
  return false;
}

function subsetProblems(root: unknown, out: string[]): void {
  const values: unknown[] = [root];
  const locs: Loc[] = [ROOT_LOC];
  while (values.length > 0) {
    const s = values.pop();
    const loc = locs.pop() as Loc;
    if (typeof s === "boolean") continue;
    if (!isObject(s)) {
      out.push(`a nested schema must be an object or a boolean, not ${Array.isArray(s) ? "an array (tuple-form items are not supported)" : typeName(s)} ${where(loc)}`);
      continue;
    }
    if (loc.depth > DEPTH_GUARD) {
      out.push(TOO_DEEP);
      return;
    }
    const bad = firstDisallowedKey(s);
    if (bad !== undefined) {
      out.push(`unsupported JSON Schema keyword ${JSON.stringify(bad)} ${where(loc)}; LWIR schemas may only use ${[...ALLOWED].join(", ")}`);
      continue;
    }

    const type = own(s, "type");
    if (Array.isArray(type)) {
      const wrong = type.find((t) => typeof t !== "string" || !SIMPLE_TYPES.has(t) || t === "object" || t === "array");
      if (wrong !== undefined) out.push(`a type array may only list primitive types, not ${JSON.stringify(wrong)} ${where(loc)}`);
    }

    const props = own(s, "properties");
    const required = own(s, "required");
    const propertyNames = own(s, "propertyNames");
    if (Array.isArray(required) && required.every((r) => typeof r === "string")) {
      if (!isObject(props)) {
        if (propertyNames === undefined) out.push(`"required" needs "properties" ${where(loc)}`);
      } else {
        for (const r of required as string[]) {
          // The runtime tests `r in properties`: inherited names such as "toString" count as present.
          if (!inPlainObject(r, props)) out.push(`required property ${JSON.stringify(r)} is not in "properties" ${where(loc)}`);
        }
      }
    }

    if (propertyNames !== undefined && propertyNamesAllowNonString(propertyNames)) {
      out.push(`"propertyNames" may only allow strings (object keys are always strings) ${where(loc)}`);
    }

    for (const kw of ["anyOf", "oneOf"]) {
      const branches = own(s, kw);
      if (Array.isArray(branches) && !unionIsSupported(branches)) {
        out.push(`"${kw}" branches must all be primitive schemas, or objects discriminated by the same required const/enum property ${where(loc)}`);
      }
    }

    for (const [lo, hi] of [["minimum", "maximum"], ["minItems", "maxItems"], ["minLength", "maxLength"]]) {
      const a = own(s, lo);
      const b = own(s, hi);
      if (typeof a === "number" && typeof b === "number" && a > b) out.push(`"${lo}" (${a}) is greater than "${hi}" (${b}) ${where(loc)}`);
    }

    // Nested schemas.
    if (isObject(props)) {
      const l = child(loc, "properties");
      for (const k in props) {
        if (!hasOwn.call(props, k)) continue;
        values.push(props[k]);
        locs.push(child(l, k));
      }
    }
    const additional = own(s, "additionalProperties");
    if (isObject(additional)) {
      values.push(additional);
      locs.push(child(loc, "additionalProperties"));
    }
    if (propertyNames !== undefined) {
      values.push(propertyNames);
      locs.push(child(loc, "propertyNames"));
    }
    const items = own(s, "items");
    if (items !== undefined) {
      values.push(items);
      locs.push(child(loc, "items"));
    }
    for (const kw of ["anyOf", "oneOf"]) {
      const branches = own(s, kw);
      if (!Array.isArray(branches)) continue;
      const l = child(loc, kw);
      for (let i = 0; i < branches.length; i++) {
        values.push(branches[i]);
        locs.push(child(l, i));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * The messages of the `schema.invalid` findings for the value at one schema position (catalog 3.2),
 * all reported at that position; [] when the schema is acceptable. Stages 1 (shape) and 2
 * (draft-07 meta-schema) give at most one message and stop; stage 3 (LWIR subset) may give several.
 */
export function checkSchema(value: unknown): string[] {
  if (typeof value !== "boolean" && !isObject(value)) {
    return [`expected a JSON Schema object or boolean, got ${typeName(value)}`];
  }
  const meta = metaSchemaProblem(value);
  if (meta !== undefined) return [`not a valid JSON Schema (draft-07): ${meta}`];
  const out: string[] = [];
  subsetProblems(value, out);
  return out;
}
