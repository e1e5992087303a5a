// The JSON Schema subset check at one schema position (findings catalog 3.2).
//
// Stage 2 is Ajv 8 itself (`{allErrors: true, strict: false}`) validating the value against the
// draft-07 meta-schema: the code Ajv generates for that meta-schema, generated at development time
// (scripts/gen-draft07-validator.mjs → draft07-validator.generated.ts), so no code is compiled at
// run time (no `new Function`: safe under a browser CSP and in the web worker). Its quirks are Ajv's by
// construction, e.g. `uniqueItems` through fast-deep-equal (which throws on data keys named valueOf or
// toString) and a repeated "__proto__" in a string array going unnoticed. The message is Ajv's error
// list (errorsText), or what Ajv throws.
//
// The runtime validates the copy parsed back from canonical JSON, whose objects list integer-like keys
// first (ascending) and then the others sorted by UTF-16 code units. Callers may pass the value in any
// key order: stage 2 re-runs on that copy whenever the order could matter, and stage 3 computes the
// order where it needs it (jsKeyOrder). Stage 3's walks use explicit stacks; stage 2 hands Ajv's
// recursive code pieces of bounded depth.

import uri from "ajv/dist/runtime/uri";
import draft07 from "ajv/dist/refs/json-schema-draft-07.json";
import { canonicalJson } from "./canonical";
import { inPlainObject } from "./jsObject";
import { containerComparisons } from "./draft07-equal";
import { META_POINTERS, validateDraft07 as generatedDraft07, validators } from "./draft07-validator.generated";

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

function typeName(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** A location inside the schema as linked nodes; the pointer text is only built for messages. */
interface Loc {
  readonly parent: Loc | undefined;
  readonly seg: string | number;
  readonly depth: number;
}
const ROOT_LOC: Loc = { parent: undefined, seg: "", depth: 0 };

function child(parent: Loc, seg: string | number): Loc {
  return { parent, seg, depth: parent.depth + 1 };
}

function pointer(loc: Loc): string {
  const parts: string[] = [];
  for (let l: Loc | undefined = loc; l && l.parent; l = l.parent) parts.push(String(l.seg).replace(/~/g, "~0").replace(/\//g, "~1"));
  return parts.length ? "/" + parts.reverse().join("/") : "";
}

/** Far beyond what a document within the nesting limit can hold: only a cyclic value gets here. */
const DEPTH_GUARD = 20000;
const TOO_DEEP = `schema nested deeper than ${DEPTH_GUARD} levels`;

// ---------------------------------------------------------------------------------------------
// Stage 2: the draft-07 meta-schema, judged by Ajv's generated code

const SIMPLE_TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

interface AjvError {
  instancePath: string;
  message?: string;
}
interface Validate {
  (data: unknown, context?: { instancePath?: string }): boolean;
  errors?: AjvError[] | null;
}

const META_ID = "http://json-schema.org/draft-07/schema";
/** The alias Ajv 8 registers for the default meta-schema (ajv.refs). */
const META_ALIAS = "http://json-schema.org/schema";
const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;
const validateDraft07 = generatedDraft07 as Validate;
/** What Ajv compiles a keyword-less target to (a function, a string's length, Object.prototype). */
const acceptAll: Validate = () => true;

/** Ajv's normalizeId: a trailing "#" or "#/" does not change the id. */
function normalizeId(id: string): string {
  return id ? id.replace(/#\/?$/, "") : "";
}

/**
 * The validator Ajv's `getSchema(ref)` finds in the runtime's setup, where the draft-07 meta-schema is
 * the only registered schema; undefined where Ajv finds none (it then throws `no schema with key or
 * ref`). Throws what Ajv throws on the way (fast-uri's errors, a part of the meta-schema that does not
 * compile). Follows Ajv 8's getSchema → resolveSchema → getJsonPointer; which validator each pointer
 * into the meta-schema gets was asked of Ajv when the module was generated (META_POINTERS).
 */
function metaValidatorFor(ref: string): Validate | undefined {
  const key = normalizeId(ref);
  if (key === META_ID || key === META_ALIAS) return validateDraft07;
  const parsed = uri.parse(ref);
  const id = normalizeId(uri.serialize(parsed).split("#")[0] + "#");
  if (id !== META_ID && id !== META_ALIAS) return undefined;
  const fragment = parsed.fragment;
  if (typeof fragment !== "string" || fragment[0] !== "/") return undefined;
  let target: unknown = draft07;
  let own = true;
  const parts: string[] = [];
  for (const part of fragment.slice(1).split("/")) {
    if (typeof target === "boolean") return undefined;
    const k = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
    // Ajv looks the part up with JavaScript's [], inherited members included.
    const next = (target as Record<string, unknown>)[k];
    if (next === undefined) return undefined;
    own = own && typeof target === "object" && propertyIsEnumerable.call(target, k);
    parts.push(k.replace(/~/g, "~0").replace(/\//g, "~1"));
    target = next;
  }
  if (!own) return acceptAll;
  const entry = META_POINTERS["/" + parts.join("/")];
  if (entry === undefined || entry === null) return undefined;
  if (typeof entry === "object") throw new Error(entry.thrown);
  return (validators as Record<string, Validate>)[entry];
}

/**
 * Containers nested at most this deep go to Ajv's recursive code in one call (it needs about one
 * stack frame per level and overflows Node's default stack near 900 levels; catalog 11 for 9.2:
 * never rely on a caught RangeError). Deeper schemas are validated in pieces.
 */
const PIECE_DEPTH = 128;

// Where the draft-07 meta-schema validates a value as a schema again (`{"$ref": "#"}`), by keyword;
// a test checks these lists against the meta-schema.
export const SUBSCHEMA_KEYWORDS = ["additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not", "items"];
export const SUBSCHEMA_MAP_KEYWORDS = ["definitions", "properties", "patternProperties", "dependencies"];
export const SUBSCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "items"];

/** Stands in for a cut-off sub-schema with errors: exactly one error, at `<position>/minLength`. */
const FAILING_STAND_IN = "/minLength";

interface Cut {
  holder: Obj | unknown[];
  key: string | number;
  value: Obj;
  path: string;
}

function escapeSegment(k: string): string {
  return k.replace(/~/g, "~0").replace(/\//g, "~1");
}

function setOwn(holder: Obj | unknown[], key: string | number, value: unknown): void {
  // defineProperty keeps the key's place and treats "__proto__" as an ordinary key.
  Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
}

const SINGLE = 1;
const MAP = 2;
const LIST = 3;
/** Keyword → how it holds sub-schemas (`items` holds one or a list). */
const SUBSCHEMA_KIND = new Map<string, number>([
  ...SUBSCHEMA_KEYWORDS.map((k): [string, number] => [k, SINGLE]),
  ...SUBSCHEMA_MAP_KEYWORDS.map((k): [string, number] => [k, MAP]),
  ...SUBSCHEMA_ARRAY_KEYWORDS.map((k): [string, number] => [k, LIST]),
]);

type Visit = (holder: Obj | unknown[], key: string | number, depth: number, keyword: string) => boolean;

/**
 * Calls `visit` for each object sub-schema of `s` (`s` at container depth `depth`), found as
 * `holder[key]` under `keyword`; `visit` returns whether to go on.
 */
function forEachSubschema(s: Obj, depth: number, visit: Visit): boolean {
  for (const k in s) {
    if (!hasOwn.call(s, k)) continue;
    const kind = SUBSCHEMA_KIND.get(k);
    if (kind === undefined) continue;
    const v = s[k];
    if (isObject(v)) {
      if (kind === MAP) {
        for (const p in v) if (hasOwn.call(v, p) && isObject(v[p]) && !visit(v, p, depth + 2, k)) return false;
      } else if (!visit(s, k, depth + 1, k)) return false;
    } else if (Array.isArray(v) && kind === LIST) {
      for (let i = 0; i < v.length; i++) if (isObject(v[i]) && !visit(v, i, depth + 2, k)) return false;
    }
  }
  return true;
}

// Scratch stacks of reachesPieceDepth, reused: it runs on every schema.
const depthValues: Obj[] = [];
const depthDepths: number[] = [];

/** Whether some object sub-schema sits PIECE_DEPTH containers below `root`: the common answer is no. */
function reachesPieceDepth(root: Obj): boolean {
  depthValues.length = 0;
  depthDepths.length = 0;
  depthValues.push(root);
  depthDepths.push(0);
  const visit: Visit = (holder, key, depth) => {
    if (depth >= PIECE_DEPTH) return false;
    depthValues.push((holder as Record<string, Obj>)[key]);
    depthDepths.push(depth);
    return true;
  };
  while (depthValues.length > 0) {
    if (!forEachSubschema(depthValues.pop() as Obj, depthDepths.pop() as number, visit)) return true;
  }
  return false;
}

/** Object sub-schemas at PIECE_DEPTH containers below `root` (the first such on each path). */
function findCuts(root: Obj, rootPath: string): Cut[] {
  const cuts: Cut[] = [];
  const stack: [Obj, number, string][] = [[root, 0, rootPath]];
  let path = rootPath;
  let current: Obj = root;
  const visit: Visit = (holder, key, depth, keyword) => {
    // The instance path as Ajv writes it.
    const at = holder === current ? `${path}/${keyword}` : `${path}/${keyword}/${escapeSegment(String(key))}`;
    const value = (holder as Record<string, Obj>)[key];
    if (depth >= PIECE_DEPTH) cuts.push({ holder, key, value, path: at });
    else stack.push([value, depth, at]);
    return true;
  };
  while (stack.length > 0) {
    let depth: number;
    [current, depth, path] = stack.pop() as [Obj, number, string];
    forEachSubschema(current, depth, visit);
  }
  return cuts;
}

/** The deepest container level in `value` (explicit stack), stopping once past `limit`. */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (d > limit) return true;
    for (const k of Object.keys(v)) stack.push([(v as Obj)[k], d + 1]);
  }
  return false;
}

/**
 * Ajv's errors for the draft-07 meta-schema on `schema` (an object) at `path`, in Ajv's order. Deep
 * sub-schemas are validated first, on their own (with their instance path), and replaced for the
 * call on the upper part by `{}` when they pass, or by a stand-in with exactly one error when they
 * fail, whose error is then replaced by theirs: Ajv validates each sub-schema position once and lists
 * its errors together, so the spliced list is the one a single call would give.
 */
function draft07Errors(schema: Obj, path: string, depth = 0): AjvError[] {
  if (depth === 0 && !reachesPieceDepth(schema)) return validateDraft07(schema) ? [] : (validateDraft07.errors ?? []);
  // Only a cyclic value gets this deep (documents are at most MAX_DEPTH levels).
  if (depth > DEPTH_GUARD) throw new Error(TOO_DEEP);
  const cuts = findCuts(schema, path);
  const failed = new Map<string, AjvError[]>();
  for (const cut of cuts) {
    const errors = draft07Errors(cut.value, cut.path, depth + PIECE_DEPTH);
    if (errors.length > 0) failed.set(cut.path + FAILING_STAND_IN, errors);
  }
  try {
    for (const cut of cuts) setOwn(cut.holder, cut.key, failed.has(cut.path + FAILING_STAND_IN) ? { minLength: -1 } : {});
    if (validateDraft07(schema, { instancePath: path })) return [];
    const errors = validateDraft07.errors ?? [];
    if (failed.size === 0) return errors;
    const out: AjvError[] = [];
    for (const e of errors) {
      const sub = failed.get(e.instancePath);
      if (sub !== undefined) out.push(...sub);
      else out.push(e);
    }
    return out;
  } finally {
    for (const cut of cuts) setOwn(cut.holder, cut.key, cut.value);
  }
}

/** Ajv's errorsText with its defaults. */
function errorsText(errors: AjvError[]): string {
  return errors.map((e) => `data${e.instancePath} ${e.message}`).join(", ");
}

/** undefined when `validate` accepts `schema`, else Ajv's error list. Throws what Ajv throws. */
function judge(validate: Validate, ref: string, schema: Obj): string | undefined {
  if (validate === validateDraft07) {
    const errors = draft07Errors(schema, "");
    return errors.length > 0 ? errorsText(errors) : undefined;
  }
  // A validator for a part of the meta-schema (`$schema` pointing into it); such a `$schema` is
  // refused by stage 3 anyway, so a deep value only changes the message.
  if (depthExceeds(schema, PIECE_DEPTH)) return `schema nested deeper than ${PIECE_DEPTH} levels; not checked against "${ref}"`;
  return validate(schema) ? undefined : errorsText(validate.errors ?? []);
}

function thrownMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// Scratch stacks of acceptedAtSight, reused: it runs on every schema.
const sightStack: unknown[] = [];
const sightDepths: number[] = [];

/**
 * True only when the draft-07 meta-schema certainly accepts `root`: every schema object in it uses
 * nothing but the LWIR subset's keywords, each with a value the meta-schema plainly allows (enum of
 * distinct scalars, required of distinct strings, counts that are non-negative integers, ...).
 * Anything else, false: Ajv's code decides. Ajv's code is about five times slower on typical
 * schemas (a property read per meta-schema keyword on every schema object), so this keeps the
 * common case cheap; it never rejects, so every message and quirk stays Ajv's.
 */
function acceptedAtSight(root: Obj): boolean {
  sightStack.length = 0;
  sightDepths.length = 0;
  sightStack.push(root);
  sightDepths.push(0);
  let depth = 0;
  const schema = (v: unknown): boolean => {
    if (typeof v === "boolean") return true;
    // Past DEPTH_GUARD only a cyclic value: Ajv's side reports it.
    if (!isObject(v) || depth >= DEPTH_GUARD) return false;
    sightStack.push(v);
    sightDepths.push(depth + 1);
    return true;
  };
  while (sightStack.length > 0) {
    const s = sightStack.pop() as Obj;
    depth = sightDepths.pop() as number;
    for (const k in s) {
      if (!hasOwn.call(s, k)) continue;
      const v = s[k];
      switch (k) {
        case "type":
          if (typeof v === "string" ? !SIMPLE_TYPES.has(v) : !distinctScalars(v, true)) return false;
          break;
        case "enum":
          if (!distinctScalars(v, false)) return false;
          break;
        case "required":
          if (!Array.isArray(v) || !v.every((x) => typeof x === "string") || new Set(v).size !== v.length) return false;
          break;
        case "properties":
          if (!isObject(v)) return false;
          for (const p in v) if (hasOwn.call(v, p) && !schema(v[p])) return false;
          break;
        case "additionalProperties":
        case "items":
        case "propertyNames":
          if (!schema(v)) return false;
          break;
        case "anyOf":
        case "oneOf":
          if (!Array.isArray(v) || v.length === 0) return false;
          for (const b of v) if (!schema(b)) return false;
          break;
        case "minLength":
        case "maxLength":
        case "minItems":
        case "maxItems":
          if (!Number.isInteger(v) || (v as number) < 0) return false;
          break;
        case "minimum":
        case "maximum":
          if (typeof v !== "number") return false;
          break;
        case "description":
        case "title":
          if (typeof v !== "string") return false;
          break;
        case "examples":
          if (!Array.isArray(v)) return false;
          break;
        case "const":
          break;
        default:
          return false;
      }
    }
  }
  return true;
}

/** A non-empty array of distinct strings, numbers, booleans or nulls (only type names when `types`). */
function distinctScalars(v: unknown, types: boolean): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  for (const x of v) {
    if (types ? typeof x !== "string" || !SIMPLE_TYPES.has(x) : typeof x === "object" && x !== null) return false;
  }
  // A Set identifies 0 and -0, as Ajv's equality does; JSON has no NaN.
  return new Set(v).size === v.length;
}

/**
 * Stage 2 alone: undefined when Ajv 8 (`allErrors: true, strict: false`) accepts `schema` against
 * the draft-07 meta-schema (ajv.validateSchema), else the text of the single finding: Ajv's error
 * list, or the message Ajv throws (e.g. for a `$schema` it does not know). `schema` should be a
 * boolean or plain object.
 */
export function metaSchemaProblem(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined; // Ajv accepts boolean schemas outright; stage 1 refuses the rest
  if (acceptedAtSight(schema)) return undefined;
  const $schema = schema.$schema;
  if ($schema !== undefined && typeof $schema !== "string") return "$schema must be a string";
  const ref = $schema || META_ID; // an empty $schema falls back to the default meta-schema
  let validate: Validate | undefined;
  try {
    validate = metaValidatorFor(ref);
  } catch (e) {
    return thrownMessage(e);
  }
  if (validate === undefined) return `no schema with key or ref "${ref}"`;
  // The value as given first: a pass is final unless uniqueItems compared two containers, whose
  // outcome may depend on key order.
  const comparisons = containerComparisons;
  try {
    if (judge(validate, ref, schema) === undefined && containerComparisons === comparisons) return undefined;
  } catch {
    // decided below, on the copy Ajv sees
  }
  // Errors (their order follows the keys), a throw, or containers compared: ask again on the copy
  // the runtime validates.
  try {
    return judge(validate, ref, JSON.parse(canonicalJson(schema)) as Obj);
  } catch (e) {
    return thrownMessage(e);
  }
}

// ---------------------------------------------------------------------------------------------
// Stage 3: the LWIR subset

const ALLOWED = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf",
  "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "propertyNames",
  "description", "title", "examples",
]);

/** The segments of a location, from the schema's own position. */
function segmentsOfLoc(loc: Loc): Array<string | number> {
  const out: Array<string | number> = [];
  for (let l: Loc | undefined = loc; l && l.parent; l = l.parent) out.push(l.seg);
  return out.reverse();
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

function subsetProblems(root: unknown, out: SchemaProblem[], name: string): void {
  const push = (loc: Loc, message: (at: string) => string) => {
    const at = segmentsOfLoc(loc);
    out.push({ at, message: message(userPath(name, at)) });
  };
  const values: unknown[] = [root];
  const locs: Loc[] = [ROOT_LOC];
  while (values.length > 0) {
    const s = values.pop();
    const loc = locs.pop() as Loc;
    if (typeof s === "boolean") continue;
    if (!isObject(s)) {
      push(loc, (at) => `${at} must be a schema (an object, or true or false), not ${Array.isArray(s) ? "an array: a list of item schemas is not supported" : describeValue(s)}.`);
      continue;
    }
    if (loc.depth > DEPTH_GUARD) {
      out.push({ at: [], message: `${name} is nested more than ${DEPTH_GUARD} levels deep.` });
      return;
    }
    const bad = firstDisallowedKey(s);
    if (bad !== undefined) {
      push(loc, (at) => `LWIR schemas do not support the keyword "${bad}" (in ${at}). They may use only ${[...ALLOWED].join(", ")}.`);
      continue;
    }

    const type = own(s, "type");
    if (Array.isArray(type)) {
      const wrong = type.find((t) => typeof t !== "string" || !SIMPLE_TYPES.has(t) || t === "object" || t === "array");
      if (wrong !== undefined) push(loc, (at) => `A list of types may hold only simple types, not ${JSON.stringify(wrong)} (in ${at}).`);
    }

    const props = own(s, "properties");
    const required = own(s, "required");
    const propertyNames = own(s, "propertyNames");
    if (Array.isArray(required) && required.every((r) => typeof r === "string")) {
      if (!isObject(props)) {
        if (propertyNames === undefined) push(loc, (at) => `${at} lists required properties but has no "properties" that declare them.`);
      } else {
        for (const r of required as string[]) {
          // The runtime tests `r in properties`: inherited names such as "toString" count as present.
          if (!inPlainObject(r, props)) push(loc, (at) => `${at} requires "${r}", but its "properties" do not declare it.`);
        }
      }
    }

    if (propertyNames !== undefined && propertyNamesAllowNonString(propertyNames)) {
      push(loc, (at) => `The "propertyNames" of ${at} allow names that are not strings; property names are always strings.`);
    }

    for (const kw of ["anyOf", "oneOf"]) {
      const branches = own(s, kw);
      if (Array.isArray(branches) && !unionIsSupported(branches)) {
        push(loc, (at) => `The "${kw}" choices of ${at} mix kinds LWIR cannot tell apart: use only simple types, or only objects that each require the same property with a const or enum value.`);
      }
    }

    for (const [lo, hi] of [["minimum", "maximum"], ["minItems", "maxItems"], ["minLength", "maxLength"]]) {
      const a = own(s, lo);
      const b = own(s, hi);
      if (typeof a === "number" && typeof b === "number" && a > b) push(loc, (at) => `No value fits ${at}: its "${lo}" (${a}) is greater than its "${hi}" (${b}).`);
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
export function checkSchema(value: unknown, name = "the schema"): SchemaProblem[] {
  if (typeof value !== "boolean" && !isObject(value)) {
    return [{ at: [], message: `${name} must be a JSON Schema (an object, or true or false), not ${describeValue(value)}.` }];
  }
  const meta = metaSchemaProblem(value);
  if (meta !== undefined) return [metaSchemaMessage(meta, name)];
  const out: SchemaProblem[] = [];
  subsetProblems(value, out, name);
  return out;
}

/** A `schema.invalid` problem: its message, and where in the schema it is (segments from the schema's position). */
export interface SchemaProblem {
  message: string;
  at: Array<string | number>;
}

/** `input.schema` + `["properties", "a b", "items"]` → `input.schema.properties["a b"].items`: the names as written. */
export function userPath(name: string, at: ReadonlyArray<string | number>): string {
  let out = name;
  for (const seg of at) out += typeof seg === "number" ? `[${seg}]` : /^[A-Za-z_$][\w$-]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  return out;
}

function describeValue(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "string" ? `the text ${JSON.stringify(v)}` : `${typeof v === "object" ? "an object" : `the ${typeof v} ${String(v)}`}`;
}

/**
 * Ajv's text for the first meta-schema error (`data/anyOf must NOT have fewer than 1 items`) in the
 * user's words, at the user's path. Ajv's own text stays what metaSchemaProblem returns (it is checked
 * against Ajv); only the message changes.
 */
function metaSchemaMessage(ajv: string, name: string): SchemaProblem {
  const m = /^data(\S*) (.*?)(?:, data[/ ].*)?$/s.exec(ajv);
  if (!m) return { at: [], message: `${name} is not a valid JSON Schema (draft-07): ${ajv.replace(/\.$/, "")}.` };
  const at = m[1].split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~")).map((p) => (/^(0|[1-9]\d*)$/.test(p) ? Number(p) : p));
  return { at, message: `${userPath(name, at)} ${ajvWords(m[2])}, so ${name} is not a valid JSON Schema (draft-07).` };
}

/** Ajv's phrasing (`must NOT have fewer than 1 items`) as a sentence a person writes. */
function ajvWords(text: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^must NOT have (fewer|more) than (\d+) (items|properties|characters)$/.exec(text))) {
    const n = Number(m[2]);
    const noun = n === 1 ? m[3].replace(/ies$/, "y").replace(/s$/, "") : m[3];
    return `must have at ${m[1] === "fewer" ? "least" : "most"} ${n} ${noun}`;
  }
  if ((m = /^must be (\w+(?:,\w+)+)$/.exec(text))) return `must be ${m[1].split(",").join(" or ")}`;
  if (text.startsWith("must NOT have duplicate items")) return "must not list the same item twice";
  if ((m = /^must be equal to one of the allowed values$/.exec(text))) return "must be one of the values JSON Schema allows here";
  return text.replace(/\bNOT\b/g, "not");
}
