// The evaluator against labelled cases written from the runtime semantics (sections 1–6): each line of
// test/corpus/eval/*.jsonl is a template, an optional context on top of context.json, and the value or
// `undefined` (or -0) it gives, or a part of the runtime's error text (`error`) and of our message (`message`).
// The shared context is read from JSON and from YAML (the same data written as YAML) through the document
// layer, so values that come from either format evaluate alike.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { stringify as yamlStringify } from "yaml";
import { parseDocument } from "../../server/src/document/document";
import { evaluateTemplate } from "../../server/src/run/evaluate";
import type { EvalContext } from "../../server/src/run/context";

const DIR = join("test", "corpus", "eval");

interface Case {
  section: string;
  id: string;
  template: string;
  context?: Partial<EvalContext>;
  value?: unknown;
  undefined?: boolean;
  /** The value is -0 (JSON has no way to write it). */
  minusZero?: boolean;
  error?: string;
  message?: string;
}

function readCases(): { file: string; cases: Case[] }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((file) => ({
      file,
      cases: readFileSync(join(DIR, file), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Case),
    }));
}

const contextText = readFileSync(join(DIR, "context.json"), "utf8");
const fromJson = parseDocument(contextText, "json");
const fromYaml = parseDocument(yamlStringify(JSON.parse(contextText)), "yaml");

export function check(c: Case, base: EvalContext): void {
  const context: EvalContext = { ...base, ...(c.context ?? {}) };
  const r = evaluateTemplate(c.template, context);
  if (c.error !== undefined) {
    assert.equal(r.ok, false, `${c.id}: expected an error, got ${r.ok ? JSON.stringify(r.value) : ""}`);
    if (r.ok) return;
    assert.ok(r.error.runtime.includes(c.error), `${c.id}: runtime error ${JSON.stringify(r.error.runtime)} lacks ${JSON.stringify(c.error)}`);
    if (c.message !== undefined) assert.ok(r.error.message.includes(c.message), `${c.id}: message ${JSON.stringify(r.error.message)} lacks ${JSON.stringify(c.message)}`);
    assert.match(r.error.message, /[.?]$/, `${c.id}: our message is a sentence`);
    return;
  }
  assert.equal(r.ok, true, `${c.id}: ${r.ok ? "" : r.error.message + " / " + r.error.runtime}`);
  if (!r.ok) return;
  if (c.undefined) assert.equal(r.value, undefined, c.id);
  else if (c.minusZero) assert.ok(Object.is(r.value, -0), c.id);
  else {
    assert.deepEqual(r.value, c.value, c.id);
    // Key order is part of the value (prompt text depends on it).
    assert.equal(JSON.stringify(r.value), JSON.stringify(c.value), `${c.id}: key order`);
  }
}

describe("evaluation cases (test/corpus/eval)", () => {
  const all = readCases();
  test("every section of the semantics has its cases", () => {
    const sections = new Set(all.flatMap((f) => f.cases.map((c) => c.section)));
    assert.deepEqual([...sections].sort(), ["1", "2", "3", "4", "5", "6"]);
    const total = all.reduce((n, f) => n + f.cases.length, 0);
    assert.ok(total >= 360, `only ${total} cases`);
    const ids = all.flatMap((f) => f.cases.map((c) => c.id));
    assert.equal(new Set(ids).size, ids.length, "ids are unique");
  });
  for (const [label, doc] of [["JSON", fromJson], ["YAML", fromYaml]] as const) {
    test(`the shared context read from ${label} parses`, () => assert.deepEqual(doc.parseErrors, []));
    for (const { file, cases } of all) {
      test(`${file}, context from ${label}`, () => {
        const base = doc.value as EvalContext;
        for (const c of cases) check(c, base);
      });
    }
  }
});
