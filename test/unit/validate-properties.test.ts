// Property tests for validateLwir on realistic documents from our generator
// (bench/generate.mjs), mutated by fast-check: never throws, deterministic, the generator's
// injected errors are found exactly, JSON and YAML renderings agree (findings and WorkflowVersion),
// and object key order does not matter (catalog 1.3, 2 stage 1, 6.2).
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import YAML from "yaml";
import { validateLwir } from "../../server/src/lwir/validate";
import { canonicalJson, workflowVersionOf } from "../../server/src/lwir/canonical";
import { type Json, clone } from "./lwir-fixtures";
import { GENERATOR } from "../corpus";


interface Generated {
  name: string;
  doc: Json;
  /** The generator's own YAML rendering of the same document (valid documents only). */
  yamlText?: string;
  /** Injected errors as `"path code"` (error documents only). */
  expected?: string[];
}

const valid: Generated[] = [];
const withErrors: Generated[] = [];
let all: Generated[] = [];

function generate(dir: string, args: string[], out: string): string {
  execFileSync(process.execPath, [GENERATOR, ...args, "--out", join(dir, out)], { stdio: "pipe" });
  return readFileSync(join(dir, out), "utf8");
}

before(() => {
  const dir = mkdtempSync(join(tmpdir(), "lwir-props-"));
  try {
    const validSpecs: Array<[number, string, string[]]> = [[30, "1", []], [45, "2", []], [36, "snake-7", ["--id-style", "snake"]]];
    for (const [steps, seed, extra] of validSpecs) {
      const base = ["--steps", String(steps), "--seed", seed, ...extra];
      const name = `valid-${steps}-${seed}`;
      const json = generate(dir, [...base, "--format", "json"], `${name}.lwir.json`);
      const yamlText = generate(dir, [...base, "--format", "yaml"], `${name}.lwir.yaml`);
      valid.push({ name, doc: JSON.parse(json), yamlText });
    }
    const errorSpecs: Array<[number, string, number]> = [[40, "3", 9], [54, "5", 9], [32, "21", 6]];
    for (const [steps, seed, errors] of errorSpecs) {
      const name = `errors-${steps}-${seed}-${errors}`;
      const json = generate(dir, ["--steps", String(steps), "--seed", seed, "--errors", String(errors), "--format", "json"], `${name}.lwir.json`);
      const listed = JSON.parse(readFileSync(join(dir, `${name}.lwir.json.errors.json`), "utf8")) as Array<{ path: string; expectedCode: string }>;
      assert.equal(listed.length, errors, `${name}: the generator lists one entry per injected error`);
      withErrors.push({ name, doc: JSON.parse(json), expected: listed.map((e) => `${e.path} ${e.expectedCode}`).sort() });
    }
    all = [...valid, ...withErrors];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- helpers -------------------------------------------------------------------------------------

const sorted = (doc: unknown): string[] => validateLwir(doc).findings.map((f) => `${f.path} ${f.code}`).sort();

/** Every slot (parent + key) and every container of a value, iteratively. */
function slotsOf(root: Json): { slots: Array<{ parent: Json; key: string | number }>; containers: Json[]; stepEntries: Array<{ list: Json[]; i: number }> } {
  const slots: Array<{ parent: Json; key: string | number }> = [];
  const containers: Json[] = [];
  const stepEntries: Array<{ list: Json[]; i: number }> = [];
  const stack: Array<[Json, string | number | undefined]> = [[root, undefined]];
  while (stack.length > 0) {
    const [v, k] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    containers.push(v);
    if (Array.isArray(v)) {
      if (k === "steps") v.forEach((e, i) => { if (e && typeof e === "object" && !Array.isArray(e)) stepEntries.push({ list: v, i }); });
      v.forEach((e, i) => { slots.push({ parent: v, key: i }); stack.push([e, i]); });
    } else {
      for (const key of Object.keys(v)) { slots.push({ parent: v, key }); stack.push([v[key], key]); }
    }
  }
  return { slots, containers, stepEntries };
}

type Kind = "drop" | "retype" | "duplicate" | "rename" | "insert";
interface Mutation { kind: Kind; at: number; pick: number; name: string; value: unknown }

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Kind>("drop", "retype", "duplicate", "rename", "insert"),
  at: fc.nat(),
  pick: fc.nat(),
  name: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("id", "uses", "needs", "with", "output", "steps", "cache", "maxVisits", "cases", "default", "schema", "mode")),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom<unknown>("{{ steps.ghost.output }}", "{{ item }}", "{{ input.x", "end", "decision", "parallel", "code.run", [], {}, null, 0, 2, 101, "5"),
  ),
});

function applyMutation(doc: Json, m: Mutation): void {
  const { slots, containers, stepEntries } = slotsOf(doc);
  switch (m.kind) {
    case "drop": {
      if (slots.length === 0) return;
      const { parent, key } = slots[m.at % slots.length];
      if (Array.isArray(parent)) parent.splice(key as number, 1); else delete parent[key];
      return;
    }
    case "retype": {
      if (slots.length === 0) return;
      const { parent, key } = slots[m.at % slots.length];
      parent[key] = clone(m.value);
      return;
    }
    case "duplicate": {
      if (stepEntries.length === 0) return;
      const { list, i } = stepEntries[m.at % stepEntries.length];
      list.splice(m.pick % (list.length + 1), 0, clone(list[i]));
      return;
    }
    case "rename": {
      if (stepEntries.length === 0) return;
      const { list, i } = stepEntries[m.at % stepEntries.length];
      const other = stepEntries[m.pick % stepEntries.length];
      const choices: unknown[] = [other.list[other.i].id, "", "a.b", m.name, `${m.name}@attempt_1`, 7, "end", null];
      list[i].id = choices[m.pick % choices.length];
      return;
    }
    case "insert": {
      const target = containers[m.at % containers.length];
      if (Array.isArray(target)) target.splice(m.pick % (target.length + 1), 0, clone(m.value));
      else ownKey(target, m.name, clone(m.value));
      return;
    }
  }
}

const caseArb = fc.record({ which: fc.nat(), mutations: fc.array(mutationArb, { minLength: 1, maxLength: 4 }) });

function mutated(c: { which: number; mutations: Mutation[] }): Json {
  const doc = clone(all[c.which % all.length].doc);
  for (const m of c.mutations) applyMutation(doc, m);
  return doc;
}

/**
 * Sets a key the way JSON.parse and the YAML parser do: an own data property, even for "__proto__"
 * (an assignment would change the object's prototype instead, a value no parsed document holds).
 */
function ownKey(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy with every object's keys inserted in a shuffled order (seeded). */
function shuffledKeys(v: Json, seed: number): Json {
  let s = seed >>> 0 || 1;
  const rand = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
  const copy = (x: Json): Json => {
    if (x === null || typeof x !== "object") return x;
    if (Array.isArray(x)) return x.map(copy);
    const keys = Object.keys(x);
    for (let i = keys.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [keys[i], keys[j]] = [keys[j], keys[i]]; }
    const out: Json = {};
    for (const k of keys) ownKey(out, k, copy(x[k]));
    return out;
  };
  return copy(v);
}

/** Catalog 6.1 written independently: keys sorted by UTF-16 code units, JSON.stringify spelling otherwise. */
function referenceCanonical(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map(referenceCanonical).join(",") + "]";
  const o = v as Record<string, unknown>;
  return "{" + Object.keys(o).sort().map((k) => JSON.stringify(k) + ":" + referenceCanonical(o[k])).join(",") + "}";
}
const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const viaYaml = (doc: unknown): unknown => YAML.parse(YAML.stringify(doc, { aliasDuplicateObjects: false }));

const RUNS = 40;
/** YAML rendering and parsing dominate the run time. */
const YAML_RUNS = 15;

// ---- tests ---------------------------------------------------------------------------------------

describe("generated documents", () => {
  test("valid documents are valid, in JSON and in the generator's YAML rendering", () => {
    assert.ok(valid.length >= 3);
    for (const g of valid) {
      assert.deepEqual(sorted(g.doc), [], g.name);
      assert.deepEqual(sorted(YAML.parse(g.yamlText!)), [], `${g.name} (yaml)`);
    }
  });

  test("--errors documents give exactly the findings listed in their .errors.json", () => {
    assert.ok(withErrors.length >= 3);
    for (const g of withErrors) assert.deepEqual(sorted(g.doc), g.expected, g.name);
  });

  test("valid documents have the same WorkflowVersion in JSON and YAML renderings", () => {
    for (const g of valid) {
      const fromJson = workflowVersionOf(g.doc);
      assert.match(fromJson.id, /^wfver_[0-9a-f]{16}$/);
      assert.equal(fromJson.hash, "sha256:" + fromJson.hash.slice(7));
      assert.equal(fromJson.id, "wfver_" + fromJson.hash.slice(7, 23));
      assert.deepEqual(workflowVersionOf(YAML.parse(g.yamlText!)), fromJson, `${g.name}: generator YAML`);
      assert.deepEqual(workflowVersionOf(viaYaml(g.doc)), fromJson, `${g.name}: YAML.stringify`);
      assert.deepEqual(workflowVersionOf(shuffledKeys(g.doc, 99)), fromJson, `${g.name}: shuffled keys`);
    }
  });

  test("distinct documents have distinct WorkflowVersions", () => {
    const ids = new Set(valid.map((g) => workflowVersionOf(g.doc).id));
    assert.equal(ids.size, valid.length);
    const changed = clone(valid[0].doc);
    changed.metadata.version = "0.1.1";
    assert.notEqual(workflowVersionOf(changed).id, workflowVersionOf(valid[0].doc).id);
  });
});

describe("canonical JSON and WorkflowVersion (catalog 6.1, 6.2)", () => {
  test("the catalog's key order, number spelling and string escapes", () => {
    const value = {
      "a": 1, "A": 2, "1": 3, "\r": 4, "é": 5, "€": 6, "😀": 7, "\uFB33": 8, "10": 9, "9": 10, "": 11,
      nums: [1e21, 1e-7, 5e-324, -0, 1.0, 1e2, 123456789012345678901234567890, 0.000001, -1.5, 2 ** 53 + 2],
      strs: ["\u0001\u001f", "\u007f\u2028\u2029", "\b\f\n\r\t", "\"\\/", "é😀"],
      nested: { z: [], y: {}, x: [null, true, false] },
    };
    const expected = '{"":11,"\\r":4,"1":3,"10":9,"9":10,"A":2,"a":1,' +
      '"nested":{"x":[null,true,false],"y":{},"z":[]},' +
      '"nums":[1e+21,1e-7,5e-324,0,1,100,1.2345678901234568e+29,0.000001,-1.5,9007199254740994],' +
      '"strs":["\\u0001\\u001f","\u007f\u2028\u2029","\\b\\f\\n\\r\\t","\\"\\\\/","é😀"],' +
      '"é":5,"€":6,"😀":7,"\uFB33":8}';
    assert.equal(canonicalJson(value), expected);
    assert.equal(referenceCanonical(value), expected);
  });

  test("generated documents: canonical JSON and WorkflowVersion match an independent computation", () => {
    for (const g of all) {
      const text = referenceCanonical(g.doc);
      assert.equal(canonicalJson(g.doc), text, g.name);
      const hex = sha256Hex(text);
      assert.deepEqual({ ...workflowVersionOf(g.doc) }, { id: "wfver_" + hex.slice(0, 16), hash: "sha256:" + hex }, g.name);
    }
  });

  test("mutated documents: canonical JSON matches an independent computation", () => {
    fc.assert(fc.property(caseArb, fc.nat(), (c, seed) => {
      const doc = mutated(c);
      const text = referenceCanonical(doc);
      assert.equal(canonicalJson(doc), text);
      assert.equal(canonicalJson(shuffledKeys(doc, seed)), text);
    }), { numRuns: RUNS });
  });
});

describe("mutated documents (fast-check)", () => {
  test("validateLwir never throws and its findings are well formed", () => {
    fc.assert(fc.property(caseArb, (c) => {
      const doc = mutated(c);
      const r = validateLwir(doc);
      assert.equal(r.valid, r.findings.length === 0);
      for (const f of r.findings) {
        assert.equal(f.severity, "error");
        assert.ok(f.message.length > 0);
        assert.ok(f.path.startsWith("$"));
      }
    }), { numRuns: RUNS });
  });

  test("results are deterministic: same input, or a deep copy of it, gives the same findings", () => {
    fc.assert(fc.property(caseArb, (c) => {
      const doc = mutated(c);
      const first = validateLwir(doc);
      assert.deepEqual(validateLwir(doc), first);
      assert.deepEqual(validateLwir(clone(doc)), first);
    }), { numRuns: RUNS });
  });

  test("a document and its YAML rendering give the same findings and paths", () => {
    fc.assert(fc.property(caseArb, (c) => {
      const doc = mutated(c);
      assert.deepEqual(sorted(viaYaml(doc)), sorted(doc));
    }), { numRuns: YAML_RUNS });
  });

  test("shuffling object keys gives the same multiset of findings", () => {
    fc.assert(fc.property(caseArb, fc.nat(), (c, seed) => {
      const doc = mutated(c);
      assert.deepEqual(sorted(shuffledKeys(doc, seed)), sorted(doc));
    }), { numRuns: RUNS });
  });

  test("the generator's injected errors survive key shuffling and YAML rendering", () => {
    for (const g of withErrors) {
      assert.deepEqual(sorted(shuffledKeys(g.doc, 7)), g.expected, `${g.name} shuffled`);
      assert.deepEqual(sorted(viaYaml(g.doc)), g.expected, `${g.name} yaml`);
    }
  });
});
