// The evaluation API (server/src/run/) beyond the labelled cases: walking a value (1.2), where an
// error is, HMAC against node:crypto, and hostile input staying
// bounded (an error, never a throw or a stack overflow).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { evaluateExpression, evaluateTemplate, resolveValue, stringify } from "../../server/src/run/evaluate";
import { inCanonicalOrder, stepsMap, withRuntimeKeyOrder, type EvalContext } from "../../server/src/run/context";
import { hmacSha256Hex } from "../../server/src/run/hmac";
import { parseDocument } from "../../server/src/document/document";

const context: EvalContext = {
  input: { name: "Ada", n: 3, list: [1, 2], obj: { b: 1, a: 2 } },
  steps: stepsMap({ draft: { output: { title: "T" } } }),
  step: { id: "s" },
  workflow: { metadata: { name: "wf" } },
};

describe("resolveValue walks a value as the runtime walks a step input (1.2)", () => {
  test("objects become new objects without a prototype, in the source key order; arrays new arrays; scalars unchanged", () => {
    const source = { z: "{{ input.name }}", a: ["x {{ input.n }}", 1, true, null, { k: "{{ input.list }}" }], m: 2.5 };
    const r = resolveValue(source, context);
    assert.ok(r.ok);
    const v = r.value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), null);
    assert.deepEqual(Object.keys(v), ["z", "a", "m"]);
    assert.equal(JSON.stringify(v), '{"z":"Ada","a":["x 3",1,true,null,{"k":[1,2]}],"m":2.5}');
    assert.notEqual(v.a, source.a);
    assert.deepEqual(source.a[0], "x {{ input.n }}", "the source is not changed");
  });

  test("keys are never templates", () => {
    const r = resolveValue({ "{{ input.name }}": 1 }, context);
    assert.ok(r.ok);
    assert.deepEqual(Object.keys(r.value as object), ["{{ input.name }}"]);
  });

  for (const key of ["__proto__", "constructor", "prototype"]) {
    test(`a key "${key}" fails even without a template in its value, with where it is`, () => {
      // JSON.parse makes "__proto__" an own key, as the runtime's parser does.
      const value = JSON.parse(`{"a": {"ok": 1, "${key}": "plain"}}`) as unknown;
      const r = resolveValue(value, context);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.error.runtime, `Unsafe expression path segment '${key}'.`);
      assert.deepEqual(r.error.path, ["a", key]);
      assert.match(r.error.message, new RegExp(`"${key}"`));
    });
  }

  test("the same key read from YAML fails the same way", () => {
    const doc = parseDocument("a:\n  constructor: plain\n", "yaml");
    const r = resolveValue(doc.value, context);
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual(r.error.path, ["a", "constructor"]);
  });

  test("an error names the template, the expression and the path of the string", () => {
    const r = resolveValue({ prompt: ["ok", "Dear {{ input.name }}, {{ steps.draft.output.sumary }}"] }, context);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.error.path, ["prompt", 1]);
    assert.equal(r.error.template, "Dear {{ input.name }}, {{ steps.draft.output.sumary }}");
    assert.equal(r.error.expression, "steps.draft.output.sumary");
    assert.equal(r.error.runtime, "Expression 'steps.draft.output.sumary' could not be resolved at 'sumary'.");
    assert.equal(r.error.message, 'Cannot read steps.draft.output.sumary: steps.draft.output has no property "sumary" (it has "title").');
  });

  test("the first error stops the walk, in key order", () => {
    const r = resolveValue({ b: "{{ input.x1 }}", a: "{{ input.x2 }}" }, context);
    assert.ok(!r.ok && r.error.expression === "input.x1");
  });
});

describe("evaluateTemplate and evaluateExpression", () => {
  test("an error is a value with the expression and the template, never a throw", () => {
    const r = evaluateTemplate("a {{ len(input.n) }} b", context);
    assert.deepEqual(r, {
      ok: false,
      error: {
        message: "The value given to len() must be a text, an array or an object, not the number 3.",
        runtime: "len() supports strings, arrays, and objects.",
        expression: "len(input.n)",
        template: "a {{ len(input.n) }} b",
      },
    });
  });

  test("evaluateExpression reads one body", () => {
    assert.deepEqual(evaluateExpression(" input.list ", context), { ok: true, value: [1, 2] });
    assert.deepEqual(evaluateExpression("", context).ok, false);
  });

  test("steps given as an ordinary object: inherited names are still no step", () => {
    const plain: EvalContext = { input: {}, steps: JSON.parse('{"a": {"output": 1}}') as EvalContext["steps"] };
    assert.deepEqual(evaluateTemplate("{{ steps.a.output }}", plain), { ok: true, value: 1 });
    const r = evaluateTemplate("{{ steps.hasOwnProperty.output }}", plain);
    assert.ok(!r.ok && r.error.runtime === "Expression references incomplete step 'hasOwnProperty'.");
  });

  test("stringify writes values into text as 1.6 says", () => {
    assert.equal(stringify(undefined), "undefined");
    assert.equal(stringify(-0), "0");
    assert.equal(stringify({ b: 1, a: [null] }), '{"b":1,"a":[null]}');
    assert.equal(stringify(Object.assign(Object.create(null), { x: 1 })), '{"x":1}');
  });

  test("objects without a prototype compare and convert as plain objects do", () => {
    const bare = Object.assign(Object.create(null) as object, { x: 1 });
    const ctx: EvalContext = { input: { bare, arr: [bare] }, steps: {} };
    assert.deepEqual(evaluateTemplate('{{ input.bare == "[object Object]" }}', ctx), { ok: true, value: true });
    assert.deepEqual(evaluateTemplate("{{ upper(input.arr) }}", ctx), { ok: true, value: "[OBJECT OBJECT]" });
    assert.deepEqual(evaluateTemplate("{{ len(input.bare) }}", ctx), { ok: true, value: 1 });
    assert.deepEqual(evaluateTemplate("{{ input.bare < 1 }}", ctx), { ok: true, value: false });
  });
});

describe("hmac() is HMAC-SHA-256 as node:crypto computes it", () => {
  test("keys and messages of every length and script, lone surrogates included", () => {
    const samples = ["", "k", "x".repeat(63), "x".repeat(64), "x".repeat(65), "y".repeat(200), "clé", "😀 emoji", "\ud800 lone", "a\u0000b"];
    for (const key of samples) {
      for (const message of samples) {
        const expected = createHmac("sha256", key).update(message).digest("hex");
        assert.equal(hmacSha256Hex(key, message), expected, `${JSON.stringify(key)} / ${JSON.stringify(message)}`);
      }
    }
  });
});

describe("hostile input stays bounded: an error or a value, never a throw", () => {
  const bounded = (template: string) => {
    const r = evaluateTemplate(template, context);
    assert.equal(typeof r.ok, "boolean");
    return r;
  };

  test("calls nested past the validator's 300 levels are refused before any work", () => {
    const deep = "len(".repeat(100_000) + "input.name" + ")".repeat(100_000);
    const r = bounded(`{{ ${deep} }}`);
    assert.ok(!r.ok && r.error.limit === true && /300 levels/.test(r.error.message));
    const ok = bounded(`{{ ${"upper(".repeat(300)}input.name${")".repeat(300)} }}`);
    assert.deepEqual(ok, { ok: true, value: "ADA" });
  });

  test("brackets nested past the bound", () => {
    const r = bounded(`{{ input${"[".repeat(50_000)} }}`);
    assert.ok(!r.ok);
  });

  test("a very long string, many templates, long literals", () => {
    const many = "{{ input.n }}-".repeat(50_000);
    const r = bounded(many);
    assert.ok(r.ok && (r.value as string).length === 100_000);
    const long = bounded(`{{ "${"x".repeat(2_000_000)}" }}`);
    assert.ok(long.ok && (long.value as string).length === 2_000_000);
    const spaces = bounded(`{{ ${" ".repeat(1_000_000)}x`);
    assert.ok(spaces.ok || !spaces.ok);
  });

  test("many || and many comparisons stay linear", () => {
    const ors = bounded(`{{ ${Array(100_000).fill("input.zero").join(" || ")} }}`);
    assert.ok(!ors.ok && ors.error.runtime.includes("at 'zero'"));
    const falses = bounded(`{{ ${Array(100_000).fill("false").join(" || ")} }}`);
    assert.deepEqual(falses, { ok: true, value: false });
    // right to left: 1 < 1 is false, then 1 < false is false, all the way
    const chain = bounded(`{{ ${Array(100_000).fill("1").join(" < ")} }}`);
    assert.deepEqual(chain, { ok: true, value: false });
    const upward = bounded(`{{ ${Array(100_000).fill("0").join(" < ")} < 1 }}`);
    assert.deepEqual(upward, { ok: true, value: true });
  });

  test("deeply nested data: stringified, walked, hashed", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const ctx: EvalContext = { input: { deep }, steps: {} };
    for (const t of ["x {{ input.deep }}", "{{ json(input.deep) }}", "{{ upper(input.deep) }}", "{{ sha256(input.deep) }}", "{{ len(input.deep) }}"]) {
      const r = evaluateTemplate(t, ctx);
      assert.equal(typeof r.ok, "boolean", t);
    }
    const walked = resolveValue({ deep }, ctx);
    assert.ok(!walked.ok && walked.error.limit === true);
  });
});

describe("the runtime's key order (6.7)", () => {
  test("inCanonicalOrder sorts every object's keys by code unit, integer-like keys first, and keeps arrays and a __proto__ key", () => {
    const value = JSON.parse('{"b": 1, "a": [{"z": 1, "y": 2}], "10": 0, "2": 0, "B": 0, "__proto__": {"x": 1}}') as unknown;
    const sorted = inCanonicalOrder(value);
    assert.equal(JSON.stringify(sorted), '{"2":0,"10":0,"B":0,"__proto__":{"x":1},"a":[{"y":2,"z":1}],"b":1}');
    assert.equal(Object.getPrototypeOf(sorted), Object.prototype);
  });

  test("withRuntimeKeyOrder: step outputs and visits, step and workflow sorted; input and item as given", () => {
    const ctx: EvalContext = {
      input: { z: 1, a: 1 },
      item: { z: 1, a: 1 },
      hasItem: true,
      steps: stepsMap({ s: { output: { z: 1, a: 1 }, visits: [{ z: 1, a: 1 }] } }),
      step: { z: 1, a: 1 },
      workflow: { z: 1, a: 1 },
    };
    const r = evaluateTemplate("{{ steps.s.output }} {{ steps.s.allVisits }} {{ step }} {{ workflow }} {{ input }} {{ item }}", withRuntimeKeyOrder(ctx));
    assert.deepEqual(r, { ok: true, value: '{"a":1,"z":1} [{"a":1,"z":1}] {"a":1,"z":1} {"a":1,"z":1} {"z":1,"a":1} {"z":1,"a":1}' });
  });
});
