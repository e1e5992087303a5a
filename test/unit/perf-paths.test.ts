// The shortcuts taken for speed give what the straightforward paths give: the depth scan of text JSON.parse
// accepted, the hashability walk over plain data, and the WorkflowVersion computed on first read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { scanJsonDepth, scanValidJsonDepth } from "../../server/src/document/depth";
import { hashabilityProblem, workflowVersionOf } from "../../server/src/lwir/canonical";
import { validateLwir } from "../../server/src/lwir/validate";
import { analyzeText } from "../../server/src/service/analysis";
import { GENERATOR } from "../corpus";

const GEN = GENERATOR;

function generate(args: string[]): string {
  const r = spawnSync(process.execPath, [GEN, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("scanValidJsonDepth equals scanJsonDepth on text JSON.parse accepts", () => {
  for (const seed of ["1", "2"]) {
    const text = generate(["--steps", "40", "--seed", seed]);
    assert.equal(scanValidJsonDepth(text), scanJsonDepth(text).depth);
  }
  for (const text of ['"a\\\\"', '["\\"[", {"k\\\\": [[]]}]', "[[[[1]]], {}]", '{"a": "]]]}}}"}', "  7  "]) {
    assert.equal(scanValidJsonDepth(text), scanJsonDepth(text).depth, text);
  }
  fc.assert(fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
    const text = JSON.stringify(v, null, pretty ? 2 : undefined);
    assert.equal(scanValidJsonDepth(text), scanJsonDepth(text).depth, text);
  }), { numRuns: 500 });
});

test("the plain-data hashability walk finds what the full walk finds on parsed values", () => {
  const texts = ['{"a": "\\ud800"}', '{"\\udc00": 1}', "[1e400]", '{"__proto__": {"x": [1, {"y": -0}]}}', '{"a": [[], {}, null, true, "s"]}'];
  for (const t of texts) {
    const v: unknown = JSON.parse(t);
    assert.equal(hashabilityProblem(v, true), hashabilityProblem(v), t);
  }
  fc.assert(fc.property(fc.jsonValue(), (v) => {
    const parsed: unknown = JSON.parse(JSON.stringify(v));
    assert.equal(hashabilityProblem(parsed, true), hashabilityProblem(parsed));
  }), { numRuns: 300 });
  const doc = JSON.parse(generate(["--steps", "30", "--seed", "3", "--errors", "4"]));
  assert.deepEqual(validateLwir(doc, { plainData: true }), validateLwir(doc));
});

test("an analysis computes its WorkflowVersion when first read, the same as computed at once", () => {
  for (const format of ["json", "yaml"] as const) {
    const text = generate(["--steps", "20", "--seed", "5", "--format", format]);
    const analysis = analyzeText(text, format);
    assert.equal(analysis.valid, true);
    const value = format === "json" ? JSON.parse(text) : analysis.document.value;
    assert.deepEqual(analysis.workflowVersion, workflowVersionOf(value));
    assert.equal(analysis.workflowVersion, analysis.workflowVersion, "computed once");
    assert.deepEqual({ ...analysis }.workflowVersion, workflowVersionOf(value));
  }
  const invalid = analyzeText('{"apiVersion": "x"}', "json");
  assert.equal(invalid.workflowVersion, null);
});
