// A structure-aware mutation test of the validator that needs no reference implementation (issue #13).
// Every document of test/corpus/conformance and test/corpus/realworld is parsed with the repository's own
// document layer; seeded mutations then delete, insert and rename keys, change value types, duplicate and
// move steps, and put odd names (`constructor`, `__proto__`, `length`, `0`, `""`, `a.b`, …) into every name
// position (step ids, needs, decision targets, fanIn.outputStep, uses, output modes, models, tools and the
// permissions lists, schema types, keywords, property names and `required` entries, code.run file names and
// entrypoint, roots, step ids and function names inside `{{ }}`). Each mutant is checked, through the code
// the editor and the CLI use (analyzeText, LwirWorkspace over LazyTextDocument, toDiagnostics), against
// invariants that hold whatever the right findings are:
//
//   crash       no exception anywhere, and no "the validator failed" finding (validateLwir's last guard);
//   json-yaml   the JSON and the YAML rendering of the same value get the same findings (code + path, as a
//               multiset); the document layer reads back the value the `yaml` package and JSON.parse read;
//   key-order   a rendering with every object's keys shuffled gets the same findings (see shuffleKeys);
//   incremental the text typed into the server's document layer as a sequence of incremental edits, from
//               the corpus text (or the unmutated rendering) to the mutant, ends with the diagnostics a fresh
//               open of the mutant gets;
//   range       every finding's range is one the conformance checker accepts for its path (rangeProblem:
//               inside the node the path names, or the nearest existing ancestor of a missing member).
//
// Each mutant has its own seed (derived from the run's seed and its index), so one failure replays alone:
// the failure report prints the run's seed, the index, the operations, the mutant and a shrunk mutant.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import YAML from "yaml";
import { TextDocument } from "vscode-languageserver-textdocument";
import { parseDocument } from "../server/src/document/document";
import type { Format } from "../server/src/document/types";
import { analyzeText, type Analysis } from "../server/src/service/analysis";
import { toDiagnostics } from "../server/src/service/diagnostics";
import { LwirWorkspace } from "../server/src/service/workspace";
import { LazyTextDocument, lazyTextDocuments } from "../server/src/lazyTextDocument";
import { EXPRESSION_FUNCTIONS } from "../server/src/lwir/expressions";
import { OUTPUT_MODES, STEP_TYPES } from "../server/src/lwir/validate";
import type { PathSegment } from "../server/src/lwir/types";
import { rangeProblem } from "./unit/document-helpers";
import { randomSource } from "./random";

// ---- the corpus ------------------------------------------------------------------------------------

export interface SeedDocument {
  name: string;
  format: Format;
  text: string;
  value: unknown;
}

/** Every corpus document that parses (the syntax cases do not; there is no structure to mutate in them). */
export function corpusSeeds(root = join(process.cwd(), "test", "corpus")): { seeds: SeedDocument[]; unparsable: number; notData: number } {
  const seeds: SeedDocument[] = [];
  let unparsable = 0;
  let notData = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) { walk(full); continue; }
      const m = /\.lwir\.(json|ya?ml)$/.exec(name);
      if (!m) continue;
      const format: Format = m[1] === "json" ? "json" : "yaml";
      const text = readFileSync(full, "utf8");
      const doc = parseDocument(text, format);
      if (doc.parseErrors.length > 0 || doc.tooDeep) { unparsable++; continue; }
      if (!plainTree(doc.value, 0, new Set())) { notData++; continue; }
      seeds.push({ name: full.slice(root.length + 1), format, text, value: doc.value });
    }
  };
  walk(root);
  return { seeds, unparsable, notData };
}

/**
 * JSON data a rendering can say again: no cycle (a YAML recursive alias), no Set/Map/Buffer (YAML tags),
 * no non-finite number, no absurd depth. The corpus cases that have these are about lwir.non_hashable.
 */
function plainTree(v: unknown, depth: number, path: Set<unknown>): boolean {
  if (depth > 100) return false;
  if (typeof v === "number") return Number.isFinite(v);
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v !== "object" || path.has(v)) return false;
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return false;
  path.add(v);
  const ok = Array.isArray(v) ? v.every((x) => plainTree(x, depth + 1, path)) : Object.keys(v).every((k) => plainTree((v as Record<string, unknown>)[k], depth + 1, path));
  path.delete(v);
  return ok;
}

// ---- values --------------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Sets an own data property, also for `__proto__` (plain assignment would change the prototype). */
function setKey(o: Obj, k: string, v: Json): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** A deep copy keeping own `__proto__` keys and -0 (a JSON round trip loses the latter). */
export function clone(v: unknown): Json {
  if (Array.isArray(v)) return v.map(clone);
  if (isObj(v)) {
    const out: Obj = {};
    for (const k of Object.keys(v)) setKey(out, k, clone(v[k]));
    return out;
  }
  return v as Json;
}

function randomSeedOf(base: number, index: number): number {
  // splitmix-style scramble: neighbouring indexes get unrelated streams
  let z = (base ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

class Rng {
  constructor(readonly next: () => number) {}
  int(n: number): number { return Math.floor(this.next() * n); }
  pick<T>(items: readonly T[]): T { return items[this.int(items.length)]; }
  chance(p: number): boolean { return this.next() < p; }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

// ---- names and values the mutations use --------------------------------------------------------------

/** Names that JavaScript objects, arrays and the validator's own notions give a meaning to. */
export const ODD_NAMES: readonly string[] = [
  "constructor", "toString", "__proto__", "prototype", "hasOwnProperty", "valueOf", "isPrototypeOf", "propertyIsEnumerable",
  "toLocaleString", "__defineGetter__", "__lookupSetter__", "length", "0", "1", "01", "-1", "", " ", "end", "END", "a.b", "a[0]", "a]", "[",
  "x-y", "-", "@attempt_1", "a@attempt_", "null", "true", "NaN", "undefined", "steps", "input", "item", "output", "lastOutput",
  "allVisits", "workflow", "step", "id", "with", "type", "properties", "required", "é", "😀", "a b", "$", "$ref", "\\", "\"",
  // what YAML gives a meaning to, so the renderings must quote or escape it
  "a: b", "#x", "- x", "a\nb", "'q'", "*a", "&a", "!t", "? k", "yes", "~", "0o7", "1_000", ".inf", "{{ x }}", "\t", "\u2028",
];
const FUNCTION_NAMES = EXPRESSION_FUNCTIONS.map((f) => f.name);
const ROOTS = ["steps", "step", "input", "item", "workflow"];
const SCHEMA_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];
const SCHEMA_KEYWORDS = [
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf", "minLength", "maxLength",
  "minimum", "maximum", "minItems", "maxItems", "propertyNames", "description", "title", "examples", "format", "$ref", "default",
  "allOf", "not", "$schema", "definitions",
];
/** Keys LWIR gives a meaning to somewhere. */
const LWIR_KEYS = [
  "apiVersion", "kind", "metadata", "name", "input", "output", "steps", "permissions", "models", "tools", "secrets", "network",
  "id", "uses", "needs", "with", "maxVisits", "sensitive", "cache", "onFailure", "mode", "schema", "model", "prompt", "system",
  "tool", "args", "files", "entrypoint", "sandbox", "cases", "when", "to", "default", "items", "itemKey", "concurrency",
  "failureMode", "fanIn", "order", "outputStep", "fixer", "repair", "maxAttempts", "values", "sha256", "content", "timeoutMs",
];

/** Replacement values: every JSON type, numeric strings, coercion corners. */
const VALUES: readonly Json[] = [
  null, true, false, 0, 1, 2, -1, 1.5, 100, 101, 1e21, "", "x", "2", " 3", "0x2", "1e2", "true", "null", "end", [], [2], ["a"], [1, 2],
  {}, { length: 2 }, { "0": "a" }, { type: "string" }, "{{ input }}", "{{", "}}",
];

type Category =
  | "stepId" | "stepRef" | "uses" | "mode" | "model" | "tool" | "schemaType" | "schemaKey" | "schemaPropertyName" | "required"
  | "fileName" | "entrypoint" | "template" | "otherString" | "otherKey";

export const CATEGORIES: readonly Category[] = [
  "stepId", "stepRef", "uses", "mode", "model", "tool", "schemaType", "schemaKey", "schemaPropertyName", "required", "fileName",
  "entrypoint", "template", "otherString", "otherKey",
];

/** Where a string value or an object key sits: a container, and the key or index inside it. */
interface Slot {
  category: Category;
  parent: Obj | Json[];
  key: string | number;
  /** true: the slot is the key itself (rename); false: the value at the key. */
  isKey: boolean;
  path: PathSegment[];
}

interface Node {
  value: Json;
  parent?: Obj | Json[];
  key?: string | number;
  path: PathSegment[];
}

function isSchemaContext(path: readonly PathSegment[]): boolean {
  return path.includes("schema");
}

/** The category of a string value at `path` (its last segment is the key or index of the value). */
function valueCategory(path: readonly PathSegment[], value: string): Category {
  const n = path.length;
  const last = path[n - 1];
  const prev = path[n - 2];
  if (last === "id" && typeof prev === "number" && path[n - 3] === "steps") return "stepId";
  if (typeof last === "number" && prev === "needs") return "stepRef";
  if (last === "to" && typeof prev === "number" && path[n - 3] === "cases") return "stepRef";
  if ((last === "default" && prev === "with") || last === "outputStep") return "stepRef";
  if (last === "uses") return "uses";
  if (last === "mode" && prev === "output") return "mode";
  if (last === "model" || (typeof last === "number" && prev === "models" && path[n - 3] === "permissions")) return "model";
  if (last === "tool" || (typeof last === "number" && prev === "tools" && path[n - 3] === "permissions")) return "tool";
  if (last === "entrypoint") return "entrypoint";
  if (isSchemaContext(path)) {
    if (last === "type" || (typeof last === "number" && prev === "type")) return "schemaType";
    if (typeof last === "number" && prev === "required") return "required";
  }
  if (value.includes("{{")) return "template";
  return "otherString";
}

function keyCategory(path: readonly PathSegment[]): Category {
  // path: the object's path
  const n = path.length;
  if (path[n - 1] === "files" && path[n - 2] === "with") return "fileName";
  if (isSchemaContext(path)) return path[n - 1] === "properties" ? "schemaPropertyName" : "schemaKey";
  return "otherKey";
}

function walk(value: Json): { nodes: Node[]; slots: Slot[] } {
  const nodes: Node[] = [];
  const slots: Slot[] = [];
  const visit = (v: Json, path: PathSegment[], parent?: Obj | Json[], key?: string | number): void => {
    nodes.push({ value: v, parent, key, path });
    if (typeof v === "string" && parent !== undefined && key !== undefined) {
      slots.push({ category: valueCategory(path, v), parent, key, isKey: false, path });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...path, i], v, i));
    } else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        slots.push({ category: keyCategory(path), parent: v, key: k, isKey: true, path: [...path, k] });
        visit(v[k], [...path, k], v, k);
      }
    }
  };
  visit(value, []);
  return { nodes, slots };
}

// ---- mutation operators ------------------------------------------------------------------------------

interface Context {
  rng: Rng;
  /** Names found in the document by category (step ids, models, …), to reuse in other positions. */
  names: Map<Category, string[]>;
}

function namesOf(value: Json): Map<Category, string[]> {
  const names = new Map<Category, string[]>();
  for (const s of walk(value).slots) {
    const name = s.isKey ? String(s.key) : ((s.parent as Obj)[s.key as string] as string);
    if (typeof name !== "string") continue;
    const list = names.get(s.category) ?? [];
    if (list.length < 40 && !list.includes(name)) list.push(name);
    names.set(s.category, list);
  }
  return names;
}

function aName(ctx: Context, category: Category): string {
  const { rng } = ctx;
  const roll = rng.next();
  if (roll < 0.5) return rng.pick(ODD_NAMES);
  if (roll < 0.65) {
    const same = ctx.names.get(category === "stepRef" ? "stepId" : category) ?? [];
    if (same.length > 0) return rng.pick(same);
  }
  if (roll < 0.75) {
    const ids = ctx.names.get("stepId") ?? [];
    if (ids.length > 0) return rng.pick(ids);
  }
  switch (category) {
    case "uses": return rng.pick([...STEP_TYPES, "tool", "Decision", "ai.generate "]);
    case "mode": return rng.pick([...OUTPUT_MODES, "Text", "objects"]);
    case "schemaType": return rng.pick([...SCHEMA_TYPES, "int", "Object"]);
    case "schemaKey": return rng.pick(SCHEMA_KEYWORDS);
    case "fileName": case "entrypoint": return rng.pick(["main.ts", "lib/util.ts", "./main.ts", "../x.ts", "/abs.ts", "a\\b.ts", "main.js", "a//b.ts"]);
    default: {
      const all = [...ctx.names.values()].flat();
      return all.length > 0 && rng.chance(0.5) ? rng.pick(all) : rng.pick(LWIR_KEYS);
    }
  }
}

/** A template string with odd names in root, step id, property and function positions. */
function aTemplate(ctx: Context): string {
  const { rng } = ctx;
  const ids = ctx.names.get("stepId") ?? [];
  const id = (): string => (ids.length > 0 && rng.chance(0.5) ? rng.pick(ids) : rng.pick(ODD_NAMES));
  const prop = (): string => rng.pick(["output", "lastOutput", "allVisits", ...ODD_NAMES]);
  const fn = (): string => rng.pick([...FUNCTION_NAMES, ...ODD_NAMES, ...ROOTS]);
  const name = (): string => rng.pick(ODD_NAMES);
  const forms: Array<() => string> = [
    () => `{{ steps.${id()}.${prop()} }}`,
    () => `{{ steps.${id()}.output.${name()} }}`,
    () => `{{ steps["${id()}"].${prop()} }}`,
    () => `{{ steps['${id()}'].output }}`,
    () => `{{ steps.${id()} }}`,
    () => `{{ ${fn()}() }}`,
    () => `{{ ${fn()}(steps.${id()}.output) }}`,
    () => `{{ ${fn()}(input.${name()}, "x") }}`,
    () => `{{ input.${name()} }}`,
    () => `{{ ${rng.pick(ROOTS)}.${name()} }}`,
    () => `{{ item.${name()} }}`,
    () => `{{ ${name()} }}`,
    () => `{{ ${name()}.${name()} }}`,
    () => `{{ len(steps.${id()}.allVisits) }}`,
    () => `{{ steps.${id()}.output == ${rng.pick(['"a"', "1", "true", "null"])} }}`,
    () => `see {{ steps.${id()}.${prop()} }} and {{ ${fn()}(${rng.pick(ROOTS)}) }}`,
  ];
  return rng.pick(forms)();
}

/** Replaces one identifier inside a `{{ }}` of the string by an odd name (or a step id). */
function mutateTemplate(ctx: Context, s: string): string {
  const spans: Array<[number, number]> = [];
  const re = /\{\{([\s\S]*?)\}\}/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const bodyStart = m.index + 2;
    const ident = /[A-Za-z_$][\w$-]*/g;
    for (let t = ident.exec(m[1]); t; t = ident.exec(m[1])) spans.push([bodyStart + t.index, bodyStart + t.index + t[0].length]);
  }
  if (spans.length === 0) return s + " " + aTemplate(ctx);
  const [a, b] = ctx.rng.pick(spans);
  return s.slice(0, a) + aName(ctx, "stepRef") + s.slice(b);
}

/** A value of another type, or a near-miss of the same type. */
function otherValue(ctx: Context, v: Json): Json {
  const { rng } = ctx;
  const roll = rng.next();
  if (roll < 0.25) {
    // a conversion of the value itself
    if (typeof v === "number") return rng.pick<Json>([String(v), ` ${v}`, [v], { value: v }, v === 0 ? -0 : -v, v + 0.5, v > 0]);
    if (typeof v === "string") {
      const n = Number(v);
      return rng.pick<Json>([Number.isFinite(n) && v.trim() !== "" ? n : v.length, [v], { [v]: v }, v === "" ? null : v.toUpperCase(), ` ${v}`, v + v]);
    }
    if (typeof v === "boolean") return rng.pick<Json>([String(v), v ? 1 : 0, !v, [v]]);
    if (v === null) return rng.pick<Json>(["null", 0, "", {}, []]);
    if (Array.isArray(v)) return rng.pick<Json>([v.length > 0 ? clone(v[0]) : null, { length: v.length, ...Object.fromEntries(v.map((x, i) => [String(i), clone(x)])) }, v.length]);
    return rng.pick<Json>([Object.values(v).map(clone), Object.keys(v).join(","), Object.keys(v).length]);
  }
  if (roll < 0.35) return aTemplate(ctx);
  if (roll < 0.4) return -0;
  return clone(rng.pick(VALUES));
}

interface Op {
  name: string;
  detail: string;
}

/** Applies one random mutation to `doc` (in place; the root may be replaced, so the new root is returned). */
function mutateOnce(ctx: Context, doc: Json): { doc: Json; op: Op; category?: Category } {
  const { rng } = ctx;
  const { nodes, slots } = walk(doc);
  const objects = nodes.filter((n) => isObj(n.value));
  const arrays = nodes.filter((n) => Array.isArray(n.value));
  const stepLists = arrays.filter((n) => n.path[n.path.length - 1] === "steps");
  const roll = rng.next();
  const where = (p: PathSegment[]) => JSON.stringify(p);

  if (roll < 0.4 && slots.length > 0) {
    // a name position: pick a category first, so the rare positions get their share
    const present = [...new Set(slots.map((s) => s.category))];
    const category = rng.pick(present);
    const slot = rng.pick(slots.filter((s) => s.category === category));
    if (slot.isKey) {
      const o = slot.parent as Obj;
      const oldKey = slot.key as string;
      const name = aName(ctx, category);
      const value = o[oldKey];
      // rename keeping the key's place among the others
      const entries = Object.keys(o).map((k) => [k, o[k]] as [string, Json]);
      for (const k of Object.keys(o)) delete o[k];
      for (const [k, v] of entries) if (k !== name) setKey(o, k === oldKey ? name : k, k === oldKey ? value : v);
      return { doc, op: { name: `rename ${category} key`, detail: `${where(slot.path)} → ${JSON.stringify(name)}` }, category };
    }
    const container = slot.parent as Obj & Json[];
    const old = container[slot.key as never] as unknown as string;
    const name = category === "template" ? mutateTemplate(ctx, old) : rng.chance(0.1) ? aTemplate(ctx) : aName(ctx, category);
    if (Array.isArray(container)) container[slot.key as number] = name;
    else setKey(container, slot.key as string, name);
    return { doc, op: { name: `set ${category}`, detail: `${where(slot.path)} = ${JSON.stringify(name)}` }, category };
  }
  if (roll < 0.55 && nodes.length > 1) {
    // change a value's type
    const node = rng.pick(nodes.slice(1));
    const value = otherValue(ctx, node.value);
    if (Array.isArray(node.parent)) node.parent[node.key as number] = value;
    else setKey(node.parent as Obj, node.key as string, value);
    return { doc, op: { name: "change value", detail: `${where(node.path)} = ${JSON.stringify(value)}` } };
  }
  if (roll < 0.65 && objects.length > 0) {
    // insert a key (a template in a step's with/input now and then)
    const node = rng.pick(objects);
    const o = node.value as Obj;
    const key = rng.chance(0.5) ? rng.pick(LWIR_KEYS) : aName(ctx, keyCategory(node.path));
    const value = rng.chance(0.3) ? aTemplate(ctx) : rng.chance(0.3) && nodes.length > 1 ? clone(rng.pick(nodes).value) : clone(rng.pick(VALUES));
    setKey(o, key, value);
    return { doc, op: { name: "insert key", detail: `${where([...node.path, key])} = ${JSON.stringify(value).slice(0, 200)}` } };
  }
  if (roll < 0.75 && objects.some((n) => Object.keys(n.value as Obj).length > 0)) {
    const node = rng.pick(objects.filter((n) => Object.keys(n.value as Obj).length > 0));
    const key = rng.pick(Object.keys(node.value as Obj));
    delete (node.value as Obj)[key];
    return { doc, op: { name: "delete key", detail: where([...node.path, key]) } };
  }
  if (roll < 0.85 && stepLists.length > 0) {
    // steps: duplicate one (same id, or an odd one), drop one, move one, or add a dependency
    const list = rng.pick(stepLists).value as Json[];
    const path = rng.pick(stepLists).path;
    if (list.length === 0) return { doc, op: { name: "noop", detail: "" } };
    const i = rng.int(list.length);
    const kind = rng.int(4);
    if (kind === 0) {
      const copy = clone(list[i]);
      if (isObj(copy) && rng.chance(0.5)) setKey(copy, "id", aName(ctx, "stepId"));
      list.splice(rng.int(list.length + 1), 0, copy);
      return { doc, op: { name: "duplicate step", detail: `${where(path)}[${i}]` } };
    }
    if (kind === 1) {
      list.splice(i, 1);
      return { doc, op: { name: "remove step", detail: `${where(path)}[${i}]` } };
    }
    if (kind === 2) {
      const [s] = list.splice(i, 1);
      list.splice(rng.int(list.length + 1), 0, s);
      return { doc, op: { name: "move step", detail: `${where(path)}[${i}]` } };
    }
    const s = list[i];
    if (isObj(s)) {
      const needs = Array.isArray(s.needs) ? s.needs : [];
      needs.push(aName(ctx, "stepRef"));
      setKey(s, "needs", needs);
    }
    return { doc, op: { name: "add needs", detail: `${where(path)}[${i}]` } };
  }
  if (arrays.length > 0) {
    const node = rng.pick(arrays);
    const a = node.value as Json[];
    if (a.length > 0 && rng.chance(0.5)) {
      const i = rng.int(a.length);
      if (rng.chance(0.5)) a.splice(i, 1);
      else a.splice(rng.int(a.length + 1), 0, clone(a[i]));
      return { doc, op: { name: "array element", detail: where(node.path) } };
    }
    const value = rng.chance(0.5) ? aName(ctx, "otherString") : clone(rng.pick(VALUES));
    a.splice(rng.int(a.length + 1), 0, value);
    return { doc, op: { name: "insert element", detail: `${where(node.path)} ← ${JSON.stringify(value)}` } };
  }
  return { doc: clone(rng.pick(VALUES)), op: { name: "replace root", detail: "" } };
}

export interface Mutant {
  index: number;
  seed: number;
  source: SeedDocument;
  value: Json;
  ops: Op[];
  categories: Category[];
}

export function makeMutant(seeds: readonly SeedDocument[], baseSeed: number, index: number): Mutant {
  const seed = randomSeedOf(baseSeed, index);
  const rng = new Rng(randomSource(seed));
  const source = seeds[index % seeds.length];
  let doc = clone(source.value);
  const ctx: Context = { rng, names: namesOf(doc) };
  const ops: Op[] = [];
  const categories: Category[] = [];
  const count = 1 + (rng.chance(0.5) ? 0 : rng.chance(0.5) ? 1 : 1 + rng.int(3));
  for (let i = 0; i < count; i++) {
    const r = mutateOnce(ctx, doc);
    doc = r.doc;
    ops.push(r.op);
    if (r.category) categories.push(r.category);
  }
  return { index, seed, source, value: doc, ops, categories };
}

// ---- renderings ------------------------------------------------------------------------------------

interface Rendering {
  name: string;
  format: Format;
  render: (v: Json) => string;
}

export const JSON_RENDERINGS: readonly Rendering[] = [
  { name: "JSON 2-space", format: "json", render: (v) => JSON.stringify(v, null, 2) + "\n" },
  { name: "JSON one line", format: "json", render: (v) => JSON.stringify(v) },
  { name: "JSON tabs CRLF", format: "json", render: (v) => JSON.stringify(v, null, "\t").replace(/\n/g, "\r\n") + "\r\n" },
  // every non-ASCII character escaped: offsets in the text and in the decoded strings part ways
  { name: "JSON \\u escapes", format: "json", render: (v) => JSON.stringify(v, null, 1).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) },
];
export const YAML_RENDERINGS: readonly Rendering[] = [
  // no folding: long strings stay on one line, which the fast YAML reader reads itself
  { name: "YAML block", format: "yaml", render: (v) => YAML.stringify(v, { lineWidth: 0 }) },
  { name: "YAML block folded", format: "yaml", render: (v) => YAML.stringify(v) },
  { name: "YAML flow", format: "yaml", render: (v) => YAML.stringify(v, { collectionStyle: "flow" }) },
  { name: "YAML 4-space", format: "yaml", render: (v) => YAML.stringify(v, { indent: 4, indentSeq: false, lineWidth: 0 }) },
  { name: "YAML double-quoted", format: "yaml", render: (v) => YAML.stringify(v, { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "QUOTE_DOUBLE", lineWidth: 0 }) },
  { name: "YAML single-quoted", format: "yaml", render: (v) => YAML.stringify(v, { defaultStringType: "QUOTE_SINGLE", defaultKeyType: "PLAIN", lineWidth: 0 }) },
];

/**
 * The value with every object's keys in a seeded random order. The findings cannot depend on it: the
 * validator's first stage (catalog 2, stage 1) canonicalises the value, which sorts every object's keys by
 * UTF-16 code units, and every later rule reads that copy. So the rules that speak of "key order" (the first
 * key outside the schema allow-list, the first discriminating property of a `oneOf` branch) mean the sorted
 * order, not the written one. The one place where written order matters is a text with a repeated key
 * (JSON keeps the last, YAML refuses it); a value has no repeated keys, so a shuffled value's rendering has
 * none either.
 */
export function shuffleKeys(value: Json, rng: Rng): Json {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, rng));
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const k of rng.shuffle(Object.keys(value))) setKey(out, k, shuffleKeys(value[k], rng));
  return out;
}

// ---- the invariants ---------------------------------------------------------------------------------

export type Invariant = "crash" | "json-yaml" | "document-value" | "key-order" | "incremental" | "range";

export interface Failure {
  invariant: Invariant;
  message: string;
}

const key = (f: { code: string; path: string }): string => `${f.code} ${f.path}`;
const findingKeys = (a: Analysis): string[] => a.findings.map(key).sort();

/** The two multisets' differences, for messages and for telling failures apart. */
function difference(want: string[], have: string[]): { missing: string[]; extra: string[] } {
  const count = new Map<string, number>();
  for (const k of want) count.set(k, (count.get(k) ?? 0) + 1);
  const extra: string[] = [];
  for (const k of have) {
    const n = count.get(k) ?? 0;
    if (n > 0) count.set(k, n - 1);
    else extra.push(k);
  }
  const missing = [...count].flatMap(([k, n]) => Array<string>(n).fill(k));
  return { missing, extra };
}

class Check {
  readonly failures: Failure[] = [];
  fail(invariant: Invariant, message: string): void {
    this.failures.push({ invariant, message });
  }
  /** Runs `f`; an exception is a crash failure (and undefined). */
  guard<T>(what: string, f: () => T): T | undefined {
    try {
      return f();
    } catch (error) {
      this.fail("crash", `${what} threw: ${error instanceof Error ? (error.stack ?? error.message).split("\n").slice(0, 6).join("\n") : String(error)}`);
      return undefined;
    }
  }
  analyze(text: string, format: Format, what: string): Analysis | undefined {
    const a = this.guard(`analyzeText (${what})`, () => analyzeText(text, format));
    if (!a) return undefined;
    for (const f of a.findings) {
      if (f.code === "lwir.non_hashable" && /validator failed/.test(f.message)) this.fail("crash", `${what}: ${f.message}`);
    }
    this.guard(`toDiagnostics (${what})`, () => toDiagnostics(a, { uri: URI, relatedInformation: true }));
    return a;
  }
  sameFindings(invariant: Invariant, want: Analysis, have: Analysis, what: string): void {
    const d = difference(findingKeys(want), findingKeys(have));
    if (d.missing.length + d.extra.length > 0) this.fail(invariant, `${what}: missing [${d.missing.join(", ")}], extra [${d.extra.join(", ")}]`);
  }
  ranges(a: Analysis, text: string, format: Format, what: string): void {
    for (const f of a.findings) {
      const problem = this.guard(`rangeProblem (${what})`, () => rangeProblem(format, text, f.segments, f.range));
      if (problem) this.fail("range", `${what}: ${f.code} at ${f.path}: ${problem}`);
    }
  }
}

const URI = "file:///mutation/doc.lwir.json";

export interface Counters {
  mutants: number;
  analyses: number;
  edits: number;
  /** Mutants whose YAML rendering reads back as another value (by reason), not compared JSON ⇄ YAML. */
  skippedYaml: Record<string, number>;
  /** Mutants whose JSON rendering reads back as another value (-0 is written 0), compared on the read-back value. */
  jsonLossy: number;
  parseErrors: number;
  categories: Record<string, number>;
}

export function newCounters(): Counters {
  return { mutants: 0, analyses: 0, edits: 0, skippedYaml: {}, jsonLossy: 0, parseErrors: 0, categories: {} };
}

function hasNegativeZero(v: unknown): boolean {
  if (Object.is(v, -0)) return true;
  if (Array.isArray(v)) return v.some(hasNegativeZero);
  if (isObj(v)) return Object.keys(v).some((k) => hasNegativeZero(v[k]));
  return false;
}

function hasKey(v: unknown, name: string): boolean {
  if (Array.isArray(v)) return v.some((x) => hasKey(x, name));
  if (isObj(v)) return Object.keys(v).some((k) => k === name || hasKey(v[k], name));
  return false;
}

function yamlSkipReason(v: Json): string {
  if (hasNegativeZero(v)) return "-0";
  if (hasKey(v, "__proto__")) return "key __proto__";
  return "other";
}

export interface CheckOptions {
  /** Edits typed one character at a time at most (a short stretch). */
  typedStretch: number;
  /** Analyses asked for between edits, at most (the server analyses whichever version is current when its timer fires). */
  midAnalyses: number;
  /** The share of mutants whose YAML ranges are checked too (JSON ranges are checked on every mutant). */
  yamlRangeShare: number;
}

/** Checks every invariant on one mutant; returns the failures (empty when it passes). */
export function checkMutant(m: Mutant, counters: Counters, options: CheckOptions, onlyValue?: Json): Failure[] {
  const value = onlyValue ?? m.value;
  const rng = new Rng(randomSource(m.seed ^ 0x5bd1e995));
  const check = new Check();
  counters.mutants++;

  // 1, 5: the JSON rendering
  const jr = rng.pick(JSON_RENDERINGS);
  const jsonText = jr.render(value);
  const json = check.analyze(jsonText, "json", jr.name);
  counters.analyses++;
  if (!json) return check.failures;
  if (json.document.parseErrors.length > 0) {
    check.fail("document-value", `${jr.name} of a value does not parse: ${json.document.parseErrors[0].message}`);
    return check.failures;
  }
  const jsonValue = json.document.value as Json;
  if (!isDeepStrictEqual(jsonValue, JSON.parse(jsonText))) check.fail("document-value", `${jr.name}: the JSON layer's value is not JSON.parse's`);
  if (!isDeepStrictEqual(jsonValue, value)) counters.jsonLossy++;
  check.ranges(json, jsonText, "json", jr.name);

  // 2, 5: the YAML rendering of the value JSON read back
  // block style most often (what LWIR files are written in, and what the fast YAML reader reads itself)
  const yr = YAML_RENDERINGS[rng.pick([0, 0, 0, 1, 2, 3, 3, 4, 5])];
  let yamlAnalysis: Analysis | undefined;
  // rendered from the mutant itself: where YAML can say what JSON cannot (-0), the values differ and the
  // mutant is counted as skipped below
  const yamlText = check.guard(`${yr.name} render`, () => yr.render(value));
  if (yamlText !== undefined) {
    const yaml = check.analyze(yamlText, "yaml", yr.name);
    counters.analyses++;
    if (yaml && yaml.document.parseErrors.length > 0) {
      check.fail("document-value", `${yr.name} does not parse: ${yaml.document.parseErrors[0].message}`);
    } else if (yaml && isDeepStrictEqual(yaml.document.value, jsonValue)) {
      check.sameFindings("json-yaml", json, yaml, `${jr.name} vs ${yr.name}`);
      // the YAML oracle parses with the yaml package, the most expensive step here: a share of the mutants
      if (rng.chance(options.yamlRangeShare)) check.ranges(yaml, yamlText, "yaml", yr.name);
      yamlAnalysis = yaml;
    } else if (yaml) {
      // another value: YAML cannot say it the way it was rendered (counted), or our reader is wrong (a failure)
      const reference = check.guard("yaml package parse", () => YAML.parse(yamlText) as Json);
      if (!isDeepStrictEqual(yaml.document.value, reference)) {
        check.fail("document-value", `${yr.name}: the YAML layer's value is not the yaml package's:\n${JSON.stringify(yaml.document.value).slice(0, 400)}\n${JSON.stringify(reference).slice(0, 400)}`);
      } else {
        const reason = yamlSkipReason(value);
        if (process.env.LWIR_MUTATION_DEBUG) console.log(`skipped (${reason}): ${yamlText.slice(0, 3000)}\n${JSON.stringify(jsonValue).slice(0, 3000)}`);
        counters.skippedYaml[reason] = (counters.skippedYaml[reason] ?? 0) + 1;
      }
    }
  }

  // 3: keys shuffled, in the same JSON rendering
  const shuffledText = jr.render(shuffleKeys(jsonValue, rng));
  const shuffled = check.analyze(shuffledText, "json", `${jr.name}, keys shuffled`);
  counters.analyses++;
  if (shuffled) check.sameFindings("key-order", json, shuffled, `${jr.name} vs the same with keys shuffled`);

  // 4: incremental edits, from the corpus text (or the unmutated value's rendering) to the mutant
  const toYaml = m.source.format === "yaml" && yamlText !== undefined && rng.chance(0.6);
  const format: Format = toYaml ? "yaml" : "json";
  const target = toYaml ? yamlText! : jsonText;
  const start = rng.chance(0.5) && m.source.format === format ? m.source.text : (toYaml ? yr : jr).render(m.source.value as Json);
  const fresh = toYaml ? yamlAnalysis : json;
  check.guard("incremental edits", () => incremental(check, rng, start, target, format, options, counters, fresh));
  if (json.document.parseErrors.length > 0) counters.parseErrors++;
  return check.failures;
}

/** A change as a client sends it, with the offsets it was computed from (for the client's own copy). */
interface Change {
  start: number;
  end: number;
  text: string;
}

/** The edits that turn `from` into `to`: one replacement of the differing middle, in a few pieces. */
function editScript(rng: Rng, from: string, to: string, typedStretch: number): Change[] {
  let p = 0;
  const max = Math.min(from.length, to.length);
  while (p < max && from.charCodeAt(p) === to.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && from.charCodeAt(from.length - 1 - s) === to.charCodeAt(to.length - 1 - s)) s++;
  // start a little earlier now and then, so the edits also cross unchanged text
  if (p > 0 && rng.chance(0.3)) p -= 1 + rng.int(Math.min(p, 20));
  const oldEnd = from.length - s;
  const inserted = to.slice(p, to.length - s);
  const changes: Change[] = [];
  // delete the old middle: the last few characters one at a time (backspace), the rest at once
  let end = oldEnd;
  const backspaces = Math.min(end - p, rng.int(typedStretch / 2 + 1));
  for (let i = 0; i < backspaces; i++, end--) changes.push({ start: end - 1, end, text: "" });
  // the rest of the old middle goes with the first piece of the new text
  let at = p;
  const typed = Math.min(inserted.length, rng.int(typedStretch + 1));
  const typedFrom = rng.int(inserted.length - typed + 1);
  const cuts = [0, typedFrom, typedFrom + typed, inserted.length];
  // more cuts in the pasted parts
  for (let i = 0; i < 2; i++) cuts.push(rng.int(inserted.length + 1));
  const sorted = [...new Set(cuts)].sort((a, b) => a - b);
  let pendingEnd = end; // the old text still to replace is [at, pendingEnd)
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i];
    const b = sorted[i + 1];
    if (typed > 0 && a >= typedFrom && b <= typedFrom + typed) {
      for (let k = a; k < b; k++) {
        changes.push({ start: at, end: pendingEnd, text: inserted[k] });
        pendingEnd = ++at;
        // a typo, fixed at once
        if (rng.chance(0.05)) changes.push({ start: at, end: at, text: "x" }, { start: at, end: at + 1, text: "" });
      }
    } else {
      changes.push({ start: at, end: pendingEnd, text: inserted.slice(a, b) });
      at += b - a;
      pendingEnd = at;
    }
  }
  if (pendingEnd > at) changes.push({ start: at, end: pendingEnd, text: "" });
  return changes;
}

/** Types the edits into the server's document layer (LazyTextDocument, LwirWorkspace) and compares with a fresh open. */
function incremental(
  check: Check, rng: Rng, from: string, to: string, format: Format, options: CheckOptions, counters: Counters, freshAnalysis: Analysis | undefined,
): void {
  const uri = format === "json" ? "file:///mutation/doc.lwir.json" : "file:///mutation/doc.lwir.yaml";
  const client = TextDocument.create(uri, format, 1, from);
  const server = lazyTextDocuments.create(uri, format, 1, from) as LazyTextDocument;
  const workspace = new LwirWorkspace({ get: (u) => (u === uri ? server : undefined) });
  // the server analyses the document when it opens, unless the first change comes before its timer fires
  if (rng.chance(0.5)) workspace.getAnalysis(uri);
  const changes = editScript(rng, from, to, options.typedStretch);
  let version = 1;
  let i = 0;
  let analysesLeft = options.midAnalyses;
  while (i < changes.length) {
    // one didChange carries one change, or a few (applied in order, each against the text before it)
    const batch = rng.chance(0.2) ? Math.min(changes.length - i, 1 + rng.int(3)) : 1;
    const events = [];
    for (let k = 0; k < batch; k++, i++) {
      const c = changes[i];
      const range = { start: client.positionAt(c.start), end: client.positionAt(c.end) };
      events.push({ range, text: c.text });
      TextDocument.update(client, [{ range, text: c.text }], version + 1);
    }
    version++;
    lazyTextDocuments.update(server, events, version);
    counters.edits += batch;
    if (analysesLeft > 0 && i < changes.length && rng.chance(0.15)) {
      analysesLeft--;
      const mid = workspace.getAnalysis(uri);
      counters.analyses++;
      if (mid) toDiagnostics(mid, { uri, relatedInformation: true });
    }
  }
  // (the client's text is the mutant unless a change ended between a "\r" and its "\n", which a position
  // cannot name; what must hold is that the server's copy is the client's)
  to = client.getText();
  if (server.getText() !== to) {
    check.fail("incremental", `the server's copy differs from the client's after ${changes.length} edits`);
    return;
  }
  const edited = workspace.getAnalysis(uri);
  counters.analyses++;
  // a fresh open of the same text: the analysis made above when it is that text (analysis is deterministic)
  const fresh = freshAnalysis && freshAnalysis.document.text === to ? freshAnalysis : analyzeText(to, format);
  const have = JSON.stringify(edited ? toDiagnostics(edited, { uri, relatedInformation: true }) : null);
  const want = JSON.stringify(toDiagnostics(fresh, { uri, relatedInformation: true }));
  if (have !== want) check.fail("incremental", `${format}: diagnostics after ${changes.length} incremental edits differ from a fresh open:\n  edited ${have.slice(0, 600)}\n  fresh  ${want.slice(0, 600)}`);
}

// ---- shrinking and reporting ---------------------------------------------------------------------

/**
 * A smaller value that still fails the same invariant: greedily drops object members and array elements
 * (largest first, from the root down), at most `budget` checks.
 */
export function shrink(m: Mutant, invariant: Invariant, options: CheckOptions, budget = 400): Json {
  const fails = (v: Json): boolean => checkMutant(m, newCounters(), options, v).some((f) => f.invariant === invariant);
  let current = clone(m.value);
  let tries = 0;
  let progress = true;
  while (progress && tries < budget) {
    progress = false;
    const nodes = walk(current).nodes.filter((n) => n.parent !== undefined);
    for (const n of nodes) {
      if (tries >= budget) break;
      const candidate = clone(current);
      // the same node in the copy
      let parent: unknown = candidate;
      for (const seg of n.path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[seg];
      if (Array.isArray(parent)) parent.splice(n.key as number, 1);
      else if (isObj(parent)) delete parent[n.key as string];
      else continue;
      tries++;
      if (fails(candidate)) {
        current = candidate;
        progress = true;
        break;
      }
    }
  }
  return current;
}

export function describeFailure(m: Mutant, baseSeed: number, failures: Failure[], shrunk?: Json): string {
  const lines = [
    `mutant ${m.index} of seed ${baseSeed} (its own seed ${m.seed}), from ${m.source.name}`,
    `replay: LWIR_MUTATION_SEED=${baseSeed} LWIR_MUTATION_INDEX=${m.index}`,
    `operations: ${m.ops.map((o) => `${o.name} ${o.detail}`).join("; ")}`,
    ...failures.slice(0, 4).map((f) => `[${f.invariant}] ${f.message}`),
    `mutant: ${JSON.stringify(m.value).slice(0, 6000)}`,
  ];
  if (shrunk !== undefined) lines.push(`shrunk: ${JSON.stringify(shrunk)}`);
  return lines.join("\n");
}

export interface RunResult {
  counters: Counters;
  reports: string[];
  failed: number;
}

/** Runs the mutants with these indexes from `baseSeed`; failures are reported once per kind, shrunk (at most 8). */
export function runMutations(baseSeed: number, indexes: Iterable<number>, options: CheckOptions): RunResult {
  const { seeds } = corpusSeeds();
  const counters = newCounters();
  const reports: string[] = [];
  const seen = new Set<string>();
  let failed = 0;
  for (const i of indexes) {
    const m = makeMutant(seeds, baseSeed, i);
    for (const c of m.categories) counters.categories[c] = (counters.categories[c] ?? 0) + 1;
    const failures = checkMutant(m, counters, options);
    if (failures.length === 0) continue;
    failed++;
    const signature = failures.map((f) => `${f.invariant}:${f.message.replace(/\d+/g, "#").slice(0, 80)}`).sort().join("|");
    if (seen.has(signature) || reports.length >= 8) continue;
    seen.add(signature);
    reports.push(describeFailure(m, baseSeed, failures, shrink(m, failures[0].invariant, options)));
  }
  return { counters, reports, failed };
}

/** The indexes 0 … count-1, or the one LWIR_MUTATION_INDEX names (to replay a failure). */
export function mutantIndexes(count: number): number[] {
  const only = indexFromEnv();
  return only !== undefined ? [only] : Array.from({ length: count }, (_, i) => i);
}

/** Adds `b`'s counts to `a`. */
export function addCounters(a: Counters, b: Counters): void {
  a.mutants += b.mutants;
  a.analyses += b.analyses;
  a.edits += b.edits;
  a.jsonLossy += b.jsonLossy;
  a.parseErrors += b.parseErrors;
  for (const [k, v] of Object.entries(b.skippedYaml)) a.skippedYaml[k] = (a.skippedYaml[k] ?? 0) + v;
  for (const [k, v] of Object.entries(b.categories)) a.categories[k] = (a.categories[k] ?? 0) + v;
}

export function seedFromEnv(fallback: number): number {
  const raw = process.env.LWIR_MUTATION_SEED;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) ? n >>> 0 : fallback;
}

export function indexFromEnv(): number | undefined {
  const raw = process.env.LWIR_MUTATION_INDEX;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}
