// Generated samples: a deterministic, small value valid for a declared output (or the input schema), for
// the steps a scenario gives no output for. Not a solver: the value is built from the schema's own
// keywords (const, enum, type, required, minItems, minLength, minimum…) and then checked; a schema it
// cannot satisfy (a pattern, a oneOf of overlapping branches) gives a value that says so when checked.
import { validateInstance, errorsText } from "./instance";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** How deep the generator follows nested schemas and references before it settles for null. */
const MAX_GENERATION_DEPTH = 32;

export interface GeneratedValue {
  value: unknown;
  /** Why the value does not satisfy the schema, when the generator could not find one that does. */
  problem?: string;
}

/**
 * A small instance of `schema`; `name` is the property (or step) it is for, used as the text of strings.
 * `full` (the generated workflow input): every declared property, and at least one element per array (so
 * that parallel steps have a branch to run), instead of the required ones and minItems.
 */
export function sampleOfSchema(schema: unknown, name: string, full = false): GeneratedValue {
  const value = generate(schema, schema, name, 0, full);
  const errors = validateInstance(schema, value);
  return errors.length === 0 ? { value } : { value, problem: errorsText(errors) };
}

function resolveRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return true;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) && hasOwn(node, part) ? node[part] : Array.isArray(node) ? node[Number(part)] : undefined;
  }
  return node ?? true;
}

/** The first type a schema allows, in an order that gives readable samples. */
function typeOf(s: Obj): string | undefined {
  const types = Array.isArray(s.type) ? s.type.map(String) : typeof s.type === "string" ? [s.type] : [];
  for (const t of ["object", "array", "string", "integer", "number", "boolean", "null"]) if (types.includes(t)) return t;
  if (isObject(s.properties) || Array.isArray(s.required)) return "object";
  if (s.items !== undefined) return "array";
  if (typeof s.minLength === "number" || typeof s.pattern === "string") return "string";
  if (typeof s.minimum === "number" || typeof s.maximum === "number") return "number";
  return undefined;
}

function generate(schema: unknown, root: unknown, name: string, depth: number, full: boolean): unknown {
  if (depth > MAX_GENERATION_DEPTH || schema === false) return null;
  if (!isObject(schema)) return null;
  const s = schema;
  if (typeof s.$ref === "string") return generate(resolveRef(root, s.$ref), root, name, depth + 1, full);
  if (hasOwn(s, "const")) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (Array.isArray(s.allOf) && s.allOf.length > 0 && typeOf(s) === undefined) {
    // The branches together: the first one that says what type the value is.
    const typed = s.allOf.find((b) => isObject(b) && typeOf(b) !== undefined) ?? s.allOf[0];
    return generate(typed, root, name, depth + 1, full);
  }
  for (const key of ["anyOf", "oneOf"]) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0 && typeOf(s) === undefined) return generate(branches[0], root, name, depth + 1, full);
  }
  switch (typeOf(s)) {
    case "object": {
      const out: Obj = {};
      const props = isObject(s.properties) ? s.properties : {};
      const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [];
      for (const key of required) out[key] = generate(hasOwn(props, key) ? props[key] : true, root, key, depth + 1, full);
      const minProps = typeof s.minProperties === "number" ? s.minProperties : 0;
      for (const key of Object.keys(props)) {
        if (!full && Object.keys(out).length >= minProps) break;
        if (!hasOwn(out, key)) out[key] = generate(props[key], root, key, depth + 1, full);
      }
      return out;
    }
    case "array": {
      const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
      const min = Math.min(Math.max(typeof s.minItems === "number" ? s.minItems : 0, full ? 1 : 0), max, 100);
      const out: unknown[] = [];
      for (let i = 0; i < min; i++) {
        const itemSchema = Array.isArray(s.items) ? s.items[i] ?? s.additionalItems : s.items;
        const item = generate(itemSchema ?? true, root, `${name}${i + 1}`, depth + 1, full);
        out.push(item);
      }
      return out;
    }
    case "string": return stringSample(s, name);
    case "integer":
    case "number": return numberSample(s, typeOf(s) === "integer");
    case "boolean": return false;
    case "null": return null;
    default: return null;
  }
}

/** The name, fitted to minLength/maxLength; empty when a pattern refuses it and accepts "". */
function stringSample(s: Obj, name: string): string {
  const min = typeof s.minLength === "number" ? Math.min(s.minLength, 10_000) : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  let text = name === "" ? "x" : name;
  while (text.length < min) text += "x";
  if ([...text].length > max) text = [...text].slice(0, Math.max(max, min)).join("");
  if (typeof s.pattern === "string") {
    try {
      const re = new RegExp(s.pattern, "u");
      if (!re.test(text) && re.test("") && min === 0) return "";
    } catch {
      // the validator reports a bad pattern; the sample stays as it is
    }
  }
  return text;
}

function numberSample(s: Obj, integer: boolean): number {
  const min = typeof s.minimum === "number" ? s.minimum : undefined;
  const xmin = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
  const max = typeof s.maximum === "number" ? s.maximum : undefined;
  const xmax = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
  let n = 0;
  if (min !== undefined && n < min) n = min;
  if (xmin !== undefined && n <= xmin) n = integer ? Math.floor(xmin) + 1 : xmin + 1;
  if (max !== undefined && n > max) n = max;
  if (xmax !== undefined && n >= xmax) n = integer ? Math.ceil(xmax) - 1 : xmax - 1;
  if (integer) n = Math.ceil(n);
  const mult = typeof s.multipleOf === "number" && s.multipleOf > 0 ? s.multipleOf : undefined;
  if (mult !== undefined && !Number.isInteger(n / mult)) n = Math.ceil(n / mult) * mult;
  return n;
}

/** The declared output of a step: `output.mode`, `output.values`, `output.schema`. */
export interface OutputContract {
  mode?: unknown;
  values?: unknown;
  schema?: unknown;
}

/**
 * The generated sample of a step: the first choice value, a text naming the step, a small instance of the
 * schema with every declared property (object and array modes without a schema: {} and []; json without one: null).
 */
export function sampleOfOutput(stepId: string, output: OutputContract | undefined): GeneratedValue {
  const mode = output?.mode;
  if (mode === "choice") {
    const values = Array.isArray(output?.values) ? output!.values : [];
    return values.length > 0 ? { value: values[0] } : { value: "", problem: "the step declares no choice values" };
  }
  if (mode === "text" || mode === undefined) return { value: `text from step ${stepId}` };
  const schema = output?.schema;
  if (schema === undefined || schema === true) return { value: mode === "object" ? {} : mode === "array" ? [] : null };
  // Every declared property and one element per array: a minimal value would fail the first read of an
  // optional property, which says nothing about the workflow.
  return sampleOfSchema(schema, stepId, true);
}
