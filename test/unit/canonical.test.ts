import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { parseYaml } from "./runtime-yaml";
import { MAX_DEPTH, canonicalJson, hashabilityProblem, workflowVersionOf } from "../../server/src/lwir/canonical";
import { sha256Hex } from "../../server/src/lwir/sha256";
import { CONFORMANCE, GENERATOR, REALWORLD, corpusCases } from "../corpus";
import { countObjectReads } from "./work-count";


/** Independent oracle: recursive, default sort, JSON.stringify for every scalar and key. */
function oracle(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(oracle).join(",") + "]";
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    return "{" + Object.keys(o).sort().map((k) => JSON.stringify(k) + ":" + oracle(o[k])).join(",") + "}";
  }
  return JSON.stringify(v);
}

/** A key-sorted copy, for the "equals JSON.stringify of a sorted copy" property. */
function sortedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o).sort()) Object.defineProperty(out, k, { value: sortedCopy(o[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

const hasIntegerLikeKey = (v: unknown): boolean => {
  if (Array.isArray(v)) return v.some(hasIntegerLikeKey);
  if (typeof v === "object" && v !== null) return Object.keys(v).some((k) => /^[0-9]+$/.test(k) || hasIntegerLikeKey((v as Record<string, unknown>)[k]));
  return false;
};

/** Checks that both entry points refuse `v` with the same message, containing each fragment. */
function refused(v: unknown, ...fragments: string[]): void {
  const p = hashabilityProblem(v);
  assert.ok(p !== undefined, "expected a problem");
  for (const f of fragments) assert.ok(p.includes(f), `"${p}" should mention "${f}"`);
  assert.throws(() => canonicalJson(v), (e: unknown) => e instanceof Error && !(e instanceof RangeError) && e.message === `not hashable: ${p}`);
}

function nested(depth: number, kind: "array" | "object"): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = kind === "array" ? [v] : { k: v };
  return v;
}

test("WorkflowVersion ids of every labelled corpus case", () => {
  let n = 0;
  for (const dir of [CONFORMANCE, REALWORLD]) {
    for (const f of corpusCases(dir).map((c) => c.name)) {
      const m = /^(.*)\.lwir\.(json|yaml)$/.exec(f);
      if (!m) continue;
      const label = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), "utf8")) as { workflowVersionId: string | null; findings: { code: string }[] };
      const text = readFileSync(join(dir, f), "utf8");
      const value: unknown = m[2] === "json" ? JSON.parse(text) : parseYaml(text);
      const nonHashable = label.findings.some((x) => x.code === "lwir.non_hashable");
      assert.equal(hashabilityProblem(value) !== undefined, nonHashable, `${f}: ${hashabilityProblem(value)}`);
      if (label.workflowVersionId === null) continue;
      const wv = workflowVersionOf(value);
      assert.equal(wv.id, label.workflowVersionId, f);
      assert.match(wv.hash, /^sha256:[0-9a-f]{64}$/);
      assert.equal(wv.hash.slice(7, 23), wv.id.slice(6));
      n++;
    }
  }
  assert.ok(n >= 90, `only ${n} labelled ids found`);
});

test("canonical output equals the oracle and JSON.stringify of a key-sorted copy (random JSON)", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
      const c = canonicalJson(v);
      assert.equal(c, oracle(v));
      if (!hasIntegerLikeKey(v)) assert.equal(c, JSON.stringify(sortedCopy(v)));
      assert.equal(hashabilityProblem(v), undefined);
      // Parsing the text back gives the same canonical text (the validator relies on it).
      assert.equal(canonicalJson(JSON.parse(c)), c);
    }),
    { numRuns: 2000 },
  );
});

test("objects with unusual keys: integer-like, __proto__, non-ASCII, key order of the catalog", () => {
  assert.equal(canonicalJson({ b: 1, "10": 2, "9": 3, "-1": 4, a: { "2": true, "1": false } }), '{"-1":4,"10":2,"9":3,"a":{"1":false,"2":true},"b":1}');
  const proto = JSON.parse('{"z":1,"__proto__":{"x":[1]},"a":2}') as unknown;
  assert.equal(canonicalJson(proto), '{"__proto__":{"x":[1]},"a":2,"z":1}');
  assert.equal(canonicalJson(JSON.parse('{"__proto__":1,"a":{"__proto__":[]}}')), '{"__proto__":1,"a":{"__proto__":[]}}');
  // The catalog's example order, written here in scrambled order.
  const o: Record<string, number> = {};
  for (const k of ["\ufb33", "\u{1f600}", "\u20ac", "\u00e9", "a", "A", "1", "\r"]) o[k] = 0;
  assert.equal(canonicalJson(o), '{"\\r":0,"1":0,"A":0,"a":0,"\u00e9":0,"\u20ac":0,"\u{1f600}":0,"\ufb33":0}');
  assert.equal(canonicalJson(Object.assign(Object.create(null) as object, { b: 1, a: 2 })), '{"a":2,"b":1}');
});

test("number and string spelling (catalog 6.1)", () => {
  assert.equal(canonicalJson(-0), "0");
  assert.equal(canonicalJson([-0, 0]), "[0,0]");
  assert.equal(canonicalJson(1e21), "1e+21");
  assert.equal(canonicalJson(1e20), "100000000000000000000");
  assert.equal(canonicalJson(1e-7), "1e-7");
  assert.equal(canonicalJson(0.000001), "0.000001");
  assert.equal(canonicalJson(5e-324), "5e-324");
  assert.equal(canonicalJson(JSON.parse("1.0")), "1");
  assert.equal(canonicalJson(JSON.parse("1e2")), "100");
  assert.equal(canonicalJson(JSON.parse("123456789012345678901234567890")), "1.2345678901234568e+29");
  assert.equal(canonicalJson(0.1 + 0.2), "0.30000000000000004");
  assert.equal(canonicalJson("\u2028\u2029"), '"\u2028\u2029"');
  assert.equal(canonicalJson("\u007f é 😀"), '"\u007f é 😀"');
  assert.equal(canonicalJson("\u0000\u0001\u001f"), '"\\u0000\\u0001\\u001f"');
  assert.equal(canonicalJson("\u000b\u000e"), '"\\u000b\\u000e"');
  assert.equal(canonicalJson('\b\f\n\r\t"\\/'), '"\\b\\f\\n\\r\\t\\"\\\\/"');
  assert.equal(canonicalJson({ "\u001f\n": "x" }), '{"\\u001f\\n":"x"}');
  assert.equal(canonicalJson([null, true, false, "", [], {}]), '[null,true,false,"",[],{}]');
  assert.equal(canonicalJson({ a: [1, { c: 3, b: 2 }], " ": null }), '{" ":null,"a":[1,{"b":2,"c":3}]}');
});

test("shared (non-cyclic) references are fine", () => {
  const shared = { x: [1, 2] };
  assert.equal(hashabilityProblem({ a: shared, b: shared, c: [shared, shared] }), undefined);
  assert.equal(canonicalJson({ b: shared, a: shared }), '{"a":{"x":[1,2]},"b":{"x":[1,2]}}');
});

test("every refusal of catalog 6.1 is refused, with what and where", () => {
  refused(undefined, "undefined", "at $");
  refused({ a: undefined }, "undefined", "at $.a");
  refused([1, undefined], "undefined", "at $[1]");
  refused({ f: () => 1 }, "function", "$.f");
  refused({ n: 10n }, "bigint", "$.n");
  refused({ s: Symbol("x") }, "symbol", "$.s");
  refused({ steps: [{ maxVisits: NaN }] }, "non-finite number", "at $.steps[0].maxVisits");
  refused({ x: Infinity }, "non-finite");
  refused({ x: -Infinity }, "non-finite");
  refused(JSON.parse('{"x": 1e400}'), "non-finite");
  refused({ s: "a\ud800b" }, "lone surrogate", "$.s");
  refused({ s: "\udc00" }, "lone surrogate");
  refused({ s: "\udc00\ud800" }, "lone surrogate"); // a reversed pair
  refused({ "k\ud800": 1 }, "lone surrogate in a key");
  refused(["ok", "\ud83d"], "lone surrogate", "$[1]");
  refused({ m: new Map() }, "Map", "$.m");
  refused({ s: new Set([1]) }, "Set", "$.s");
  refused({ w: new WeakMap() }, "WeakMap");
  refused({ w: new WeakSet() }, "WeakSet");
  refused({ d: new Date(0) }, "Date");
  refused({ r: /x/ }, "RegExp");
  refused({ e: new Error("x") }, "Error");
  refused({ p: Promise.resolve(1) }, "Promise");
  refused({ b: new Uint8Array(2) }, "Uint8Array");
  refused({ b: Buffer.from("x") }, "Buffer");
  refused({ b: new ArrayBuffer(2) }, "ArrayBuffer");
  refused({ b: new DataView(new ArrayBuffer(2)) }, "DataView");
  refused({ b: new Float64Array(1) }, "Float64Array");
  refused({ n: Object(1) as object }, "Number");
  refused({ n: Object("s") as object }, "String");
  refused({ n: Object(true) as object }, "Boolean");
  refused({ i: new Map([[1, 2]]).entries() }, "Map Iterator");
  refused({ g: (function* () {})() }, "Generator");
  (function (..._args: unknown[]) {
    refused({ a: arguments }, "symbol");
  })(1, 2);
  class Point {
    x = 1;
  }
  refused({ p: new Point() }, "instance of Point");
  class MyArray extends Array<number> {}
  refused({ a: MyArray.from([1]) }, "array subclass");
  refused({ a: [1, , 3] }, "sparse", "$.a");
  refused({ a: new Array(3) }, "sparse");
  refused({ a: Object.assign([1, 2], { extra: true }) }, "extra property", "extra");
  const withGetter = { get x(): number { return 1; } };
  refused({ o: withGetter }, "accessor", "\"x\"");
  const withSetter = {};
  Object.defineProperty(withSetter, "y", { set(_v: unknown) {}, enumerable: true });
  refused(withSetter, "accessor");
  const hidden = { a: 1 };
  Object.defineProperty(hidden, "h", { value: 1, enumerable: false });
  refused(hidden, "non-enumerable", "\"h\"");
  refused({ [Symbol("k")]: 1 }, "symbol");
  const arrGetter = [1, 2];
  Object.defineProperty(arrGetter, 0, { get: () => 1, enumerable: true });
  refused(arrGetter, "accessor");
  const arrSym = [1];
  (arrSym as unknown as Record<symbol, number>)[Symbol("s")] = 1;
  refused(arrSym, "symbol");
  refused(Object.create({ inherited: 1 }) as object, "non-plain prototype");
});

test("objects and arrays from another realm are plain", () => {
  const v = runInNewContext('({ b: [1, { c: "x" }], a: null })') as unknown;
  assert.equal(hashabilityProblem(v), undefined);
  assert.equal(canonicalJson(v), '{"a":null,"b":[1,{"c":"x"}]}');
  refused(runInNewContext("new Map()"), "Map");
});

test("cycles are reported, not followed", () => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  refused(o, "cyclic reference", "at $.self");
  const arr: unknown[] = [1];
  arr.push(arr);
  refused(arr, "cyclic reference", "at $[1]");
  const a: Record<string, unknown> = {};
  const b: Record<string, unknown> = { back: a };
  a.steps = [{ with: b }];
  refused({ doc: a }, "cyclic reference", "at $.doc.steps[0].with.back");
  // A cycle below a deep but legal prefix.
  const deep = nested(4990, "array") as unknown[];
  let inner = deep;
  while (Array.isArray(inner[0])) inner = inner[0] as unknown[];
  inner.push(inner);
  refused(deep, "cyclic reference");
});

test(`nesting: ${MAX_DEPTH} levels are fine, deeper is refused, 100,000 levels do not throw`, () => {
  const ok = nested(MAX_DEPTH, "array");
  assert.equal(hashabilityProblem(ok), undefined);
  assert.equal(canonicalJson(ok), "[".repeat(MAX_DEPTH) + "1" + "]".repeat(MAX_DEPTH));
  const okObj = nested(MAX_DEPTH, "object");
  assert.equal(hashabilityProblem(okObj), undefined);
  assert.equal(canonicalJson(okObj), '{"k":'.repeat(MAX_DEPTH) + "1" + "}".repeat(MAX_DEPTH));
  refused(nested(MAX_DEPTH + 1, "array"), `nesting deeper than ${MAX_DEPTH} levels`);
  for (const kind of ["array", "object"] as const) {
    const v = nested(100_000, kind);
    const p = hashabilityProblem(v);
    assert.ok(p !== undefined && p.includes(String(MAX_DEPTH)), p);
    refused(v, String(MAX_DEPTH));
  }
});

test("the iterative writer (deep values, integer-like keys) agrees with the oracle", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 3 }), fc.integer({ min: 190, max: 400 }), (v, depth) => {
      // Deeper than the native writer is trusted with, and with integer-like keys.
      let w: unknown = { "7": v, "10": [v] };
      for (let i = 0; i < depth; i++) w = i % 2 ? [w] : { z: w, "0": i };
      assert.equal(canonicalJson(w), oracle(w));
    }),
    { numRuns: 100 },
  );
});

test("YAML values: recursive alias is cyclic, !!binary/!!set/!!omap are refused", () => {
  refused(parseYaml("a: &x\n  b: *x\n", { maxAliasCount: -1 }), "cyclic");
  refused(parseYaml("a: !!binary aGVsbG8=\n"), "$.a");
  refused(parseYaml("a: !!set\n  ? x\n"), "Set", "$.a");
  refused(parseYaml("a: !!omap\n  - x: 1\n"), "Map", "$.a");
});

test("workflowVersionOf: id and hash shape, same id for JSON and YAML of the same value", () => {
  const doc = { apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "x" } };
  const wv = workflowVersionOf(doc);
  assert.equal(wv.hash, "sha256:" + sha256Hex(canonicalJson(doc)));
  assert.equal(wv.id, "wfver_" + wv.hash.slice(7, 23));
  assert.deepEqual(workflowVersionOf(parseYaml("metadata: {name: x}\nkind: Workflow\napiVersion: littleworkflow.dev/v0.1\n")), wv);
  assert.throws(() => workflowVersionOf({ x: NaN }), /non-finite/);
});

test("speed on a 5.9 MB generated document", () => {
  const dir = mkdtempSync(join(tmpdir(), "lwir-canonical-"));
  const file = join(dir, "big.lwir.json");
  const gen = spawnSync(process.execPath, [GENERATOR, "--steps", "5000", "--seed", "1", "--out", file], { encoding: "utf8" });
  assert.equal(gen.status, 0, gen.stderr);
  const text = readFileSync(file, "utf8");
  const value = JSON.parse(text) as unknown;
  const median = (f: () => void): number => {
    const xs: number[] = [];
    for (let r = 0; r < 7; r++) {
      const t = performance.now();
      f();
      xs.push(performance.now() - t);
    }
    return xs.sort((a, b) => a - b)[3];
  };
  let c = "";
  const tCanon = median(() => (c = canonicalJson(value)));
  const tCheck = median(() => assert.equal(hashabilityProblem(value), undefined));
  const tStringify = median(() => JSON.stringify(value));
  const tHash = median(() => sha256Hex(c));
  assert.equal(c, oracle(value));
  console.log(
    `${(text.length / 1e6).toFixed(1)} MB document (${(c.length / 1e6).toFixed(1)} MB canonical): canonicalJson ${tCanon.toFixed(1)} ms, ` +
      `hashabilityProblem ${tCheck.toFixed(1)} ms, sha256Hex of the canonical text ${tHash.toFixed(1)} ms, plain JSON.stringify ${tStringify.toFixed(1)} ms`,
  );
});

test("work: canonicalJson and hashabilityProblem read each node of a document a bounded number of times", () => {
  // Linear in the document (counted in reads of the value, work-count.ts); their speed is the benchmark's business.
  const doc = (steps: number) => ({
    apiVersion: "littleworkflow.dev/v0.1",
    steps: Array.from({ length: steps }, (_, i) => ({ id: `s${i}`, uses: "ai.generate", needs: i > 0 ? [`s${i - 1}`] : [], with: { prompt: `{{ input.x }} ${i}`, n: i / 7 } })),
  });
  for (const [what, f] of [["canonicalJson", canonicalJson], ["hashabilityProblem", hashabilityProblem]] as const) {
    const [small, large] = [1000, 2000].map((n) => countObjectReads(doc(n), (v) => void f(v)));
    assert.ok(large <= 2.2 * small, `${what}: ${small} reads of 1,000 steps, ${large} of 2,000`);
    assert.ok(large <= 2000 * 100, `${what}: ${large} reads of 2,000 steps`);
  }
});
