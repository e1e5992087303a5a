// What a declared JSON Schema says about a path into the value it describes: the schema of a property
// or an element, whether the value can have properties at all, and which values it can take. Used by
// the editor's type checks, hover and completion on expressions (`{{ steps.x.output.summary }}`).
//
// Every answer is three-valued at heart: a schema either decides (this property is declared, or it
// cannot exist) or it does not, and an undecided answer makes the callers say nothing. Pure: schemas
// are read as plain data, nothing is compiled or evaluated (a `patternProperties` pattern is tried as a
// regular expression on a property name, never run on document text).

type Obj = Record<string, unknown>;

const hasOwn = Object.prototype.hasOwnProperty;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Nesting deeper than this in anyOf/allOf chains is not followed (an undecided answer instead). */
const MAX_DEPTH = 64;

/** What a schema says about one property name (or array index) of its value. */
export type Lookup =
  /** Declared: the value at that name matches `schema` (an anyOf/allOf made up when several apply). */
  | { kind: "found"; schema: unknown }
  /** The schema lists properties (or forbids others) and this name is not one of them. */
  | { kind: "undeclared"; declared: string[] }
  /** The value is never an object (a string, a number, an array…): it has no named properties. */
  | { kind: "noProperties"; type: string }
  /** The schema does not decide. */
  | { kind: "unknown" };

const UNKNOWN: Lookup = { kind: "unknown" };

/** The property `name` of a value described by `schema`. */
export function lookupProperty(schema: unknown, name: string): Lookup {
  return property(schema, name, 0);
}

/** The element at a numeric index of a value described by `schema` (only arrays decide). */
export function lookupIndex(schema: unknown, index: number): Lookup {
  return element(schema, index, 0);
}

function property(schema: unknown, name: string, depth: number): Lookup {
  if (!isObj(schema) || depth > MAX_DEPTH) return UNKNOWN;
  const parts: Lookup[] = [ownProperty(schema, name)];
  if (Array.isArray(schema.allOf)) for (const s of schema.allOf) parts.push(property(s, name, depth + 1));
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) parts.push(anyOf(branches.map((b) => property(b, name, depth + 1))));
  }
  return allOf(parts);
}

/** One of several schemas holds: declared when at least one declares it; absent only when all say so. */
function anyOf(results: Lookup[]): Lookup {
  if (results.some((r) => r.kind === "unknown")) return UNKNOWN;
  const found = results.filter((r): r is Extract<Lookup, { kind: "found" }> => r.kind === "found");
  if (found.length > 0) return { kind: "found", schema: found.length === 1 ? found[0].schema : { anyOf: found.map((f) => f.schema) } };
  const undeclared = results.filter((r): r is Extract<Lookup, { kind: "undeclared" }> => r.kind === "undeclared");
  if (undeclared.length > 0) return { kind: "undeclared", declared: unique(undeclared.flatMap((u) => u.declared)) };
  return { kind: "noProperties", type: unique(results.map((r) => (r as { type: string }).type)).join(" or ") };
}

/** All of several schemas hold: a value that is never an object wins, then a declaration, then an absence. */
function allOf(results: Lookup[]): Lookup {
  const none = results.find((r) => r.kind === "noProperties");
  if (none) return none;
  const found = results.filter((r): r is Extract<Lookup, { kind: "found" }> => r.kind === "found");
  if (found.length > 0) return { kind: "found", schema: found.length === 1 ? found[0].schema : { allOf: found.map((f) => f.schema) } };
  const undeclared = results.filter((r): r is Extract<Lookup, { kind: "undeclared" }> => r.kind === "undeclared");
  if (undeclared.length > 0) return { kind: "undeclared", declared: unique(undeclared.flatMap((u) => u.declared)) };
  return UNKNOWN;
}

/** The keywords of one schema object, without its anyOf/oneOf/allOf. */
function ownProperty(schema: Obj, name: string): Lookup {
  const values = enumValues(schema);
  if (values !== undefined) {
    const objects = values.filter(isObj);
    if (objects.length === 0) return { kind: "noProperties", type: unique(values.map(typeOfValue)).join(" or ") || "nothing" };
    const having = objects.filter((o) => hasOwn.call(o, name));
    if (having.length > 0) return { kind: "found", schema: { enum: having.map((o) => o[name]) } };
    return { kind: "undeclared", declared: unique(objects.flatMap((o) => Object.keys(o))) };
  }
  const types = typesOf(schema);
  if (types && !types.includes("object")) return { kind: "noProperties", type: types.join(" or ") };
  const props = isObj(schema.properties) ? schema.properties : undefined;
  if (props && hasOwn.call(props, name)) return { kind: "found", schema: props[name] };
  const patterns = isObj(schema.patternProperties) ? schema.patternProperties : undefined;
  if (patterns) {
    const matching: unknown[] = [];
    for (const [pattern, s] of Object.entries(patterns)) {
      const m = matches(pattern, name);
      if (m === undefined) return UNKNOWN; // a pattern we cannot read: no verdict
      if (m) matching.push(s);
    }
    if (matching.length > 0) return { kind: "found", schema: matching.length === 1 ? matching[0] : { allOf: matching } };
  }
  const names = propertyNameSet(schema.propertyNames);
  if (names && !names.includes(name)) return { kind: "undeclared", declared: names };
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  if (required.includes(name)) return { kind: "found", schema: true };
  const additional = schema.additionalProperties;
  const declared = unique([...(props ? Object.keys(props) : []), ...required]);
  if (additional === false) return { kind: "undeclared", declared };
  // An additionalProperties schema admits every other name: a record (`z.record(z.string(), V)`).
  if (isObj(additional)) return { kind: "found", schema: additional };
  // Open (`true` or absent): LWIR declares its data, so an unlisted name (matching no pattern) is a
  // mistake once any name is listed; a schema listing none (a free-form object) decides nothing.
  if (declared.length > 0) return { kind: "undeclared", declared };
  return UNKNOWN;
}

function element(schema: unknown, index: number, depth: number): Lookup {
  if (!isObj(schema) || depth > MAX_DEPTH) return UNKNOWN;
  const parts: Lookup[] = [ownElement(schema, index)];
  if (Array.isArray(schema.allOf)) for (const s of schema.allOf) parts.push(element(s, index, depth + 1));
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) parts.push(anyOf(branches.map((b) => element(b, index, depth + 1))));
  }
  // Only a declared element schema is an answer here: an index into an object or a string is left alone.
  const found = parts.filter((r): r is Extract<Lookup, { kind: "found" }> => r.kind === "found");
  if (found.length === 0) return UNKNOWN;
  return { kind: "found", schema: found.length === 1 ? found[0].schema : { allOf: found.map((f) => f.schema) } };
}

function ownElement(schema: Obj, index: number): Lookup {
  const types = typesOf(schema);
  if (types && !types.includes("array")) return UNKNOWN;
  const items = schema.items;
  if (Array.isArray(items)) return index < items.length ? { kind: "found", schema: items[index] } : UNKNOWN;
  if (isObj(items)) return { kind: "found", schema: items };
  return UNKNOWN;
}

/** The types a schema allows by its `type` keyword (undefined: any type). */
export function typesOf(schema: unknown): string[] | undefined {
  if (!isObj(schema)) return undefined;
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t) && t.length > 0 && t.every((x) => typeof x === "string")) return t as string[];
  return undefined;
}

/**
 * Whether the value a schema describes can be an array: false only when the schema decides it cannot
 * (its type, its enum/const values, every anyOf branch, any allOf part); undefined when it does not say.
 */
export function canBeArray(schema: unknown, depth = 0): boolean | undefined {
  if (!isObj(schema) || depth > MAX_DEPTH) return undefined;
  const values = enumValues(schema);
  if (values !== undefined && !values.some(Array.isArray)) return false;
  const types = typesOf(schema);
  if (types && !types.includes("array")) return false;
  if (Array.isArray(schema.allOf) && schema.allOf.some((s) => canBeArray(s, depth + 1) === false)) return false;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => canBeArray(b, depth + 1) === false)) return false;
  }
  return types || values ? true : undefined;
}

/**
 * The values a schema allows when it lists them (`enum`, `const`, choice values), else undefined. Only
 * primitive values are returned; a list holding an object or array decides nothing here.
 */
export function possibleValues(schema: unknown, depth = 0): Array<string | number | boolean | null> | undefined {
  if (!isObj(schema) || depth > MAX_DEPTH) return undefined;
  let out: unknown[] | undefined = enumValues(schema);
  const restrict = (next: unknown[] | undefined) => {
    if (next === undefined) return;
    out = out === undefined ? next : out.filter((v) => next.some((n) => n === v));
  };
  if (Array.isArray(schema.allOf)) for (const s of schema.allOf) restrict(possibleValues(s, depth + 1));
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const each = branches.map((b) => possibleValues(b, depth + 1));
    if (each.every((e) => e !== undefined)) restrict(each.flat());
  }
  if (out === undefined || out.some((v) => typeof v === "object" && v !== null)) return undefined;
  return unique(out as Array<string | number | boolean | null>);
}

/** `enum`, or `[const]`, or both intersected; undefined when neither is there. */
function enumValues(schema: Obj): unknown[] | undefined {
  const list = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (!hasOwn.call(schema, "const")) return list;
  const c = schema.const;
  return list ? list.filter((v) => v === c) : [c];
}

/** Names a `propertyNames` schema lists (`z.record(z.enum([...]), V)`), else undefined. */
function propertyNameSet(schema: unknown): string[] | undefined {
  if (!isObj(schema)) return undefined;
  const values = enumValues(schema);
  return values && values.every((v) => typeof v === "string") ? (values as string[]) : undefined;
}

/** Whether `name` matches a patternProperties pattern; undefined when the pattern is not a valid regular expression. */
function matches(pattern: string, name: string): boolean | undefined {
  try {
    return new RegExp(pattern, "u").test(name);
  } catch {
    return undefined;
  }
}

function typeOfValue(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "object" ? "object" : typeof v;
}

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}

// ---- for people: what a schema declares ----------------------------------------------------------------

/** A short type for hovers and completion details: `string`, `"low" | "high"`, `array of object`, `string | null`. */
export function describeType(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined) return "any";
  if (schema === false) return "nothing";
  if (!isObj(schema) || depth > 4) return "any";
  const values = enumValues(schema);
  if (values !== undefined) return values.length === 0 ? "nothing" : values.slice(0, 8).map((v) => JSON.stringify(v)).join(" | ") + (values.length > 8 ? " | …" : "");
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  const types = typesOf(schema);
  if (!types && branches && branches.length > 0) return unique(branches.map((b) => describeType(b, depth + 1))).join(" | ");
  if (!types) return isObj(schema.properties) ? "object" : isObj(schema.items) ? `array of ${describeType(schema.items, depth + 1)}` : "any";
  return types.map((t) => (t === "array" && isObj(schema.items) ? `array of ${describeType(schema.items, depth + 1)}` : t)).join(" | ");
}

/** A property a schema lists, for completion. */
export interface DeclaredProperty {
  name: string;
  schema: unknown;
  required: boolean;
}

/**
 * The properties a schema lists, through allOf/anyOf/oneOf, in declaration order. A name declared by
 * several anyOf/oneOf branches (the tag of a discriminated union) gets the union of their schemas.
 */
export function declaredProperties(schema: unknown, depth = 0): DeclaredProperty[] {
  if (!isObj(schema) || depth > MAX_DEPTH) return [];
  const out: DeclaredProperty[] = [];
  const at = new Map<string, number>();
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const add = (p: DeclaredProperty, union = false) => {
    const k = at.get(p.name);
    if (k === undefined) {
      at.set(p.name, out.length);
      out.push(p);
    } else if (union) {
      const prev = out[k].schema;
      const branches = isObj(prev) && Array.isArray(prev.anyOf) && unions.has(prev) ? prev.anyOf : [prev];
      const merged = { anyOf: [...branches, p.schema] };
      unions.add(merged);
      out[k] = { ...out[k], schema: merged, required: out[k].required && p.required };
    }
  };
  if (isObj(schema.properties)) for (const [name, s] of Object.entries(schema.properties)) add({ name, schema: s, required: required.has(name) });
  const values = enumValues(schema);
  if (values) for (const v of values) if (isObj(v)) for (const name of Object.keys(v)) add({ name, schema: { const: v[name] }, required: false });
  if (Array.isArray(schema.allOf)) for (const b of schema.allOf) for (const p of declaredProperties(b, depth + 1)) add(p);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const before = new Set(at.keys());
    for (const b of branches) for (const p of declaredProperties(b, depth + 1)) add(p, !before.has(p.name));
  }
  return out;
}
/** The anyOf schemas declaredProperties made up (to extend rather than nest them). */
const unions = new WeakSet<object>();

/** The `description` (else `title`) of a schema. */
export function descriptionOf(schema: unknown): string | undefined {
  if (!isObj(schema)) return undefined;
  if (typeof schema.description === "string") return schema.description;
  return typeof schema.title === "string" ? schema.title : undefined;
}
