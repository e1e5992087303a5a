// service/edits.ts: minimal, formatting-preserving edits in JSON and YAML. Every case checks the exact
// text and a round-trip: the result parses, has the intended value, and every other value is unchanged.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../server/src/document/document";
import type { PathSegment } from "../../server/src/lwir/types";
import {
  type Json, type OffsetEdit, addNeedsEntries, addProperty, appendToArray, applyEdits, quoteYamlText, removeArrayElements, removeProperty,
  replaceInString, setProperty, setValue,
} from "../../server/src/service/edits";

type Format = "json" | "yaml";
type Edit = (doc: ReturnType<typeof parseDocument>) => OffsetEdit[] | undefined;

/** Applies `edit` to `text`, checks the exact result and that the new value is `change(old value)`. */
function check(format: Format, text: string, edit: Edit, expected: string, change: (v: any) => void): void {
  const doc = parseDocument(text, format);
  assert.deepEqual(doc.parseErrors, [], "the fixture parses");
  const edits = edit(doc);
  assert.ok(edits, "an edit is produced");
  const out = applyEdits(text, edits);
  assert.equal(out, expected);
  const after = parseDocument(out, format);
  assert.deepEqual(after.parseErrors, [], `the result parses:\n${out}`);
  const want = structuredClone(doc.value);
  change(want);
  assert.deepEqual(after.value, want);
}

function refuse(format: Format, text: string, edit: Edit): void {
  const doc = parseDocument(text, format);
  assert.equal(edit(doc), undefined);
}

const at = (v: any, segments: PathSegment[]) => segments.reduce((n, s) => n[s], v);

describe("addNeedsEntries / appendToArray", () => {
  test("JSON: one entry per line keeps the indentation", () => {
    check("json", '{\n  "steps": [\n    {\n      "id": "c",\n      "needs": [\n        "a"\n      ]\n    }\n  ]\n}\n',
      (d) => addNeedsEntries(d, ["steps", 0], ["b", "x"]),
      '{\n  "steps": [\n    {\n      "id": "c",\n      "needs": [\n        "a",\n        "b",\n        "x"\n      ]\n    }\n  ]\n}\n',
      (v) => v.steps[0].needs.push("b", "x"));
  });

  test("JSON: an inline array keeps its separator; an empty one gets the entry inside", () => {
    check("json", '{"steps": [{"id": "c", "needs": ["a",  "b"]}]}', (d) => addNeedsEntries(d, ["steps", 0], ["z"]),
      '{"steps": [{"id": "c", "needs": ["a",  "b",  "z"]}]}', (v) => v.steps[0].needs.push("z"));
    check("json", '{"steps": [{"id": "c", "needs": [ ]}]}', (d) => addNeedsEntries(d, ["steps", 0], ["z", "y"]),
      '{"steps": [{"id": "c", "needs": ["z", "y"]}]}', (v) => v.steps[0].needs.push("z", "y"));
    check("json", '{"steps":[{"id":"c","needs":["a"]}]}', (d) => addNeedsEntries(d, ["steps", 0], ["z"]),
      '{"steps":[{"id":"c","needs":["a","z"]}]}', (v) => v.steps[0].needs.push("z"));
  });

  test("JSON: needs is created after uses (or id), in the step's layout", () => {
    check("json", '{\n\t"steps": [\n\t\t{\n\t\t\t"id": "c",\n\t\t\t"uses": "ai.generate",\n\t\t\t"with": {}\n\t\t}\n\t]\n}',
      (d) => addNeedsEntries(d, ["steps", 0], ["a"]),
      '{\n\t"steps": [\n\t\t{\n\t\t\t"id": "c",\n\t\t\t"uses": "ai.generate",\n\t\t\t"needs": ["a"],\n\t\t\t"with": {}\n\t\t}\n\t]\n}',
      (v) => { v.steps[0] = { id: "c", uses: "ai.generate", needs: ["a"], with: {} }; });
    check("json", '{"steps": [{"uses": "tool.call", "id": "c", "with": {}}]}', (d) => addNeedsEntries(d, ["steps", 0], ["a", "b"]),
      '{"steps": [{"uses": "tool.call", "id": "c", "needs": ["a", "b"], "with": {}}]}', (v) => { v.steps[0].needs = ["a", "b"]; });
    // The last property: no trailing comma anywhere.
    check("json", '{\n  "steps": [\n    {\n      "id": "c"\n    }\n  ]\n}', (d) => addNeedsEntries(d, ["steps", 0], ["a"]),
      '{\n  "steps": [\n    {\n      "id": "c",\n      "needs": ["a"]\n    }\n  ]\n}', (v) => { v.steps[0].needs = ["a"]; });
  });

  test("JSON: CRLF line breaks stay CRLF", () => {
    check("json", '{\r\n  "steps": [\r\n    {\r\n      "id": "c",\r\n      "uses": "x"\r\n    }\r\n  ]\r\n}\r\n', (d) => addNeedsEntries(d, ["steps", 0], ["a"]),
      '{\r\n  "steps": [\r\n    {\r\n      "id": "c",\r\n      "uses": "x",\r\n      "needs": ["a"]\r\n    }\r\n  ]\r\n}\r\n', (v) => { v.steps[0].needs = ["a"]; });
  });

  test("YAML: block sequence, flow sequence, quote style of the neighbours", () => {
    check("yaml", "steps:\n  - id: c\n    needs:\n      - a   # first\n    uses: x\n", (d) => addNeedsEntries(d, ["steps", 0], ["b"]),
      "steps:\n  - id: c\n    needs:\n      - a   # first\n      - b\n    uses: x\n", (v) => v.steps[0].needs.push("b"));
    check("yaml", "steps:\n- id: c\n  needs:\n  -   a\n", (d) => addNeedsEntries(d, ["steps", 0], ["b"]),
      "steps:\n- id: c\n  needs:\n  -   a\n  -   b\n", (v) => v.steps[0].needs.push("b"));
    check("yaml", "steps:\n  - id: c\n    needs: [a, b]  # deps\n", (d) => addNeedsEntries(d, ["steps", 0], ["d-1", "true", "007", "x y"]),
      'steps:\n  - id: c\n    needs: [a, b, d-1, "true", "007", "x y"]  # deps\n', (v) => v.steps[0].needs.push("d-1", "true", "007", "x y"));
    check("yaml", "steps:\n  - id: c\n    needs: ['a']\n", (d) => addNeedsEntries(d, ["steps", 0], ["b", "it's"]),
      "steps:\n  - id: c\n    needs: ['a', 'b', 'it''s']\n", (v) => v.steps[0].needs.push("b", "it's"));
    check("yaml", 'steps:\n  - id: c\n    needs:\n      - "a"\n', (d) => addNeedsEntries(d, ["steps", 0], ["b"]),
      'steps:\n  - id: c\n    needs:\n      - "a"\n      - "b"\n', (v) => v.steps[0].needs.push("b"));
    check("yaml", "steps:\n  - id: c\n    needs: []\n", (d) => addNeedsEntries(d, ["steps", 0], ["b"]),
      "steps:\n  - id: c\n    needs: [b]\n", (v) => v.steps[0].needs.push("b"));
  });

  test("YAML: needs is created after uses, in the document's sequence style", () => {
    check("yaml", "steps:\n  - id: a\n    uses: x\n  - id: c\n    uses: ai.generate  # model step\n    with:\n      prompt: hi\n",
      (d) => addNeedsEntries(d, ["steps", 1], ["a"]),
      "steps:\n  - id: a\n    uses: x\n  - id: c\n    uses: ai.generate  # model step\n    needs: [a]\n    with:\n      prompt: hi\n",
      (v) => { v.steps[1] = { id: "c", uses: "ai.generate", needs: ["a"], with: { prompt: "hi" } }; });
    // Block style when the document writes needs that way.
    check("yaml", "steps:\n  - id: a\n  - id: b\n    needs:\n      - a\n  - id: c\n    uses: x\n",
      (d) => addNeedsEntries(d, ["steps", 2], ["a", "b"]),
      "steps:\n  - id: a\n  - id: b\n    needs:\n      - a\n  - id: c\n    uses: x\n    needs:\n      - a\n      - b\n",
      (v) => { v.steps[2].needs = ["a", "b"]; });
    // A flow mapping step.
    check("yaml", "steps:\n  - {id: c, uses: x, with: {}}\n", (d) => addNeedsEntries(d, ["steps", 0], ["a"]),
      "steps:\n  - {id: c, uses: x, needs: [a], with: {}}\n", (v) => { v.steps[0] = { id: "c", uses: "x", needs: ["a"], with: {} }; });
    // Four-space indentation and CRLF.
    check("yaml", "steps:\r\n    -   id: c\r\n        uses: x\r\n", (d) => addNeedsEntries(d, ["steps", 0], ["a"]),
      "steps:\r\n    -   id: c\r\n        uses: x\r\n        needs: [a]\r\n", (v) => { v.steps[0].needs = ["a"]; });
  });

  test("YAML: the last line without a line break", () => {
    check("yaml", "steps:\n  - id: c\n    uses: x", (d) => addNeedsEntries(d, ["steps", 0], ["a"]),
      "steps:\n  - id: c\n    uses: x\n    needs: [a]", (v) => { v.steps[0].needs = ["a"]; });
  });

  test("YAML: aliases and anchored nodes are left alone", () => {
    refuse("yaml", "common: &c [a]\nsteps:\n  - id: c\n    needs: *c\n", (d) => addNeedsEntries(d, ["steps", 0], ["b"]));
    refuse("yaml", "steps:\n  - id: c\n    needs: &c [a]\n  - id: d\n    needs: *c\n", (d) => addNeedsEntries(d, ["steps", 0], ["b"]));
    refuse("yaml", "steps:\n  - &s\n    id: c\n    uses: x\nother: *s\n", (d) => addProperty(d, ["steps", 0], "needs", ["a"]));
    refuse("yaml", "steps:\n  - id: c\n    with: &w {p: 1}\n  - id: d\n    with: *w\n", (d) => setProperty(d, ["steps", 0, "with"], "p", 2));
  });

  test("appendToArray on other lists", () => {
    check("json", '{"permissions": {"models": []}}', (d) => appendToArray(d, ["permissions", "models"], ["m"]),
      '{"permissions": {"models": ["m"]}}', (v) => v.permissions.models.push("m"));
  });
});

describe("addProperty", () => {
  test("JSON: after an anchor, first, into an empty object", () => {
    check("json", '{\n  "a": 1,\n  "b": 2\n}', (d) => addProperty(d, [], "x", { k: ["v"] }, { after: ["a"] }),
      '{\n  "a": 1,\n  "x": {\n    "k": ["v"]\n  },\n  "b": 2\n}', (v) => { v.x = { k: ["v"] }; });
    // Arrays one entry per line where the document writes them so.
    check("json", '{\n  "a": [\n    "p"\n  ]\n}', (d) => addProperty(d, [], "x", { k: ["v", "w"] }),
      '{\n  "a": [\n    "p"\n  ],\n  "x": {\n    "k": [\n      "v",\n      "w"\n    ]\n  }\n}', (v) => { v.x = { k: ["v", "w"] }; });
    check("json", '{\n  "a": 1\n}', (d) => addProperty(d, [], "x", "s", { first: true }),
      '{\n  "x": "s",\n  "a": 1\n}', (v) => { v.x = "s"; });
    check("json", '{"a": 1}', (d) => addProperty(d, [], "x", true, { first: true }), '{"x": true, "a": 1}', (v) => { v.x = true; });
    check("json", '{\n  "w": {}\n}', (d) => addProperty(d, ["w"], "k", 1),
      '{\n  "w": {\n    "k": 1\n  }\n}', (v) => { v.w.k = 1; });
    check("json", '{"a" : 1, "b" : 2}', (d) => addProperty(d, [], "x", 3), '{"a" : 1, "b" : 2, "x" : 3}', (v) => { v.x = 3; });
  });

  test("YAML: block members at the siblings' column; nested objects as block mappings", () => {
    check("yaml", "apiVersion: v\nsteps: []\n", (d) => addProperty(d, [], "permissions", { models: ["m"] }, { after: ["apiVersion"] }),
      "apiVersion: v\npermissions:\n  models: [m]\nsteps: []\n", (v) => { v.permissions = { models: ["m"] }; });
    check("yaml", "kind: Workflow\n", (d) => addProperty(d, [], "apiVersion", "littleworkflow.dev/v0.1", { first: true }),
      "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n", (v) => { v.apiVersion = "littleworkflow.dev/v0.1"; });
    check("yaml", "steps:\n  - id: p\n    with:\n      items: x\n      itemKey: y  # key\n      maxBranches: 3\n",
      (d) => addProperty(d, ["steps", 0, "with"], "cardinality", { kind: "matches_items" }, { after: ["items", "itemKey"] }),
      "steps:\n  - id: p\n    with:\n      items: x\n      itemKey: y  # key\n      cardinality:\n        kind: matches_items\n      maxBranches: 3\n",
      (v) => { v.steps[0].with.cardinality = { kind: "matches_items" }; });
    check("yaml", "steps:\n  - id: p\n    with: {items: x}\n", (d) => addProperty(d, ["steps", 0, "with"], "cardinality", { kind: "matches_items" }),
      "steps:\n  - id: p\n    with: {items: x, cardinality: {kind: matches_items}}\n", (v) => { v.steps[0].with.cardinality = { kind: "matches_items" }; });
    check("yaml", "w: {}\n", (d) => addProperty(d, ["w"], "k", 1), "w: {k: 1}\n", (v) => { v.w.k = 1; });
    // Before the first key of a sequence entry: the dash stays in front.
    check("yaml", "steps:\n  - id: a\n    uses: x\n", (d) => addProperty(d, ["steps", 0], "maxVisits", 2, { first: true }),
      "steps:\n  - maxVisits: 2\n    id: a\n    uses: x\n", (v) => { v.steps[0] = { maxVisits: 2, id: "a", uses: "x" }; });
  });

  test("refuses an existing key", () => {
    refuse("json", '{"a": 1}', (d) => addProperty(d, [], "a", 2));
  });
});

describe("setValue / setProperty", () => {
  test("JSON scalars and objects", () => {
    check("json", '{\n  "apiVersion": "v1",\n  "n": 1\n}', (d) => setValue(d, ["apiVersion"], "littleworkflow.dev/v0.1"),
      '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "n": 1\n}', (v) => { v.apiVersion = "littleworkflow.dev/v0.1"; });
    check("json", '{"c": "x", "n": 1}', (d) => setProperty(d, [], "c", { kind: "matches_items" }),
      '{"c": {"kind": "matches_items"}, "n": 1}', (v) => { v.c = { kind: "matches_items" }; });
    check("json", '{"s": {"maxVisits": "1"}}', (d) => setProperty(d, ["s"], "maxVisits", 2), '{"s": {"maxVisits": 2}}', (v) => { v.s.maxVisits = 2; });
  });

  test("YAML keeps the quote style, and a block collection becomes a flow value on the key's line", () => {
    check("yaml", "apiVersion: 'v1'  # old\nkind: x\n", (d) => setValue(d, ["apiVersion"], "littleworkflow.dev/v0.1"),
      "apiVersion: 'littleworkflow.dev/v0.1'  # old\nkind: x\n", (v) => { v.apiVersion = "littleworkflow.dev/v0.1"; });
    check("yaml", 'kind: "flow"\n', (d) => setValue(d, ["kind"], "Workflow"), 'kind: "Workflow"\n', (v) => { v.kind = "Workflow"; });
    check("yaml", "kind: 3\n", (d) => setValue(d, ["kind"], "Workflow"), "kind: Workflow\n", (v) => { v.kind = "Workflow"; });
    check("yaml", "permissions:\n  secrets:\n    - a\n    - b\n  models: []\n", (d) => setValue(d, ["permissions", "secrets"], []),
      "permissions:\n  secrets: []\n  models: []\n", (v) => { v.permissions.secrets = []; });
    check("yaml", "p:\n  c:\n    kind: x\n  n: 1\n", (d) => setValue(d, ["p", "c"], { kind: "matches_items" }),
      "p:\n  c: {kind: matches_items}\n  n: 1\n", (v) => { v.p.c = { kind: "matches_items" }; });
    check("yaml", "p:\n  c:\n  n: 1\n", (d) => setValue(d, ["p", "c"], 2), "p:\n  c: 2\n  n: 1\n", (v) => { v.p.c = 2; });
  });
});

describe("removeProperty", () => {
  test("JSON: with the following comma, or the preceding one for the last property", () => {
    check("json", '{\n  "id": "a",\n  "cache": {\n    "key": "x"\n  },\n  "uses": "t"\n}', (d) => removeProperty(d, [], "cache"),
      '{\n  "id": "a",\n  "uses": "t"\n}', (v) => { delete v.cache; });
    check("json", '{\n  "id": "a",\n  "cache": true\n}', (d) => removeProperty(d, [], "cache"), '{\n  "id": "a"\n}', (v) => { delete v.cache; });
    check("json", '{"cache": true}', (d) => removeProperty(d, [], "cache"), "{}", (v) => { delete v.cache; });
    check("json", '{"a": 1, "cache": true, "b": 2}', (d) => removeProperty(d, [], "cache"), '{"a": 1, "b": 2}', (v) => { delete v.cache; });
  });

  test("YAML: whole lines, a dash-line key, flow mappings", () => {
    check("yaml", "steps:\n  - id: a\n    cache:\n      key: x  # k\n    uses: t\n", (d) => removeProperty(d, ["steps", 0], "cache"),
      "steps:\n  - id: a\n    uses: t\n", (v) => { delete v.steps[0].cache; });
    check("yaml", "steps:\n  - id: a\n    cache: true\n", (d) => removeProperty(d, ["steps", 0], "cache"),
      "steps:\n  - id: a\n", (v) => { delete v.steps[0].cache; });
    check("yaml", "steps:\n  - cache: true\n    id: a\n", (d) => removeProperty(d, ["steps", 0], "cache"),
      "steps:\n  - id: a\n", (v) => { delete v.steps[0].cache; });
    check("yaml", "s: {a: 1, cache: 2}\n", (d) => removeProperty(d, ["s"], "cache"), "s: {a: 1}\n", (v) => { delete v.s.cache; });
    check("yaml", "s:\r\n  cache: 1\r\n  a: 2\r\n", (d) => removeProperty(d, ["s"], "cache"), "s:\r\n  a: 2\r\n", (v) => { delete v.s.cache; });
    check("yaml", "s:\n  cache: 1\nt: 2\n", (d) => removeProperty(d, ["s"], "cache"), "s: {}\nt: 2\n", (v) => { delete v.s.cache; });
  });
});

describe("replaceInString", () => {
  const replaceOutput = (segments: PathSegment[]) => (d: ReturnType<typeof parseDocument>) => {
    const s = at(d.value, segments) as string;
    const i = s.indexOf(".output") + 1;
    // The source offset, as the diagnostics layer finds it: the same spelling in the written scalar.
    const loc = d.locate(segments)!;
    const src = d.text.indexOf("output", loc.valueStart);
    return replaceInString(d, segments, i, i + 6, "lastOutput", { start: src, end: src + 6 });
  };
  test("in place, in every scalar style", () => {
    check("json", '{"p": "A \\"q\\" {{ steps.x.output }}"}', replaceOutput(["p"]), '{"p": "A \\"q\\" {{ steps.x.lastOutput }}"}',
      (v) => { v.p = 'A "q" {{ steps.x.lastOutput }}'; });
    check("yaml", "p: Read {{ steps.x.output }}\n", replaceOutput(["p"]), "p: Read {{ steps.x.lastOutput }}\n", (v) => { v.p = "Read {{ steps.x.lastOutput }}"; });
    check("yaml", "p: |\n  Read\n  {{ steps.x.output }}\n", replaceOutput(["p"]), "p: |\n  Read\n  {{ steps.x.lastOutput }}\n",
      (v) => { v.p = "Read\n{{ steps.x.lastOutput }}\n"; });
    check("yaml", "p: 'it''s {{ steps.x.output }}'\n", replaceOutput(["p"]), "p: 'it''s {{ steps.x.lastOutput }}'\n", (v) => { v.p = "it's {{ steps.x.lastOutput }}"; });
  });

  test("without a source span the string is rewritten in its quote style", () => {
    check("yaml", "p: 'a {{ steps.x.output }}'\n", (d) => replaceInString(d, ["p"], 13, 19, "lastOutput"),
      "p: 'a {{ steps.x.lastOutput }}'\n", (v) => { v.p = "a {{ steps.x.lastOutput }}"; });
    // A wrong source span is not trusted.
    check("json", '{"p": "{{ steps.x.output }}"}', (d) => replaceInString(d, ["p"], 11, 17, "lastOutput", { start: 0, end: 6 }),
      '{"p": "{{ steps.x.lastOutput }}"}', (v) => { v.p = "{{ steps.x.lastOutput }}"; });
  });
});

describe("quoteYamlText", () => {
  const quote = (text: string, value: string) => {
    const doc = parseDocument(text, "yaml");
    const start = doc.text.indexOf("{{");
    const end = doc.text.lastIndexOf("}}") + 2;
    const out = applyEdits(text, quoteYamlText(doc, start, end)!);
    const after = parseDocument(out, "yaml");
    assert.deepEqual(after.parseErrors, []);
    assert.equal((after.value as any).p, value, out);
    return out;
  };
  test("the quoted text is the string the author wrote", () => {
    assert.equal(quote("p: {{ input.topic }}\n", "{{ input.topic }}"), 'p: "{{ input.topic }}"\n');
    assert.equal(quote("p: {{ coalesce(input.a, \"x\") }}\n", '{{ coalesce(input.a, "x") }}'), "p: '{{ coalesce(input.a, \"x\") }}'\n");
    assert.equal(quote("p: {{ input.a == 'it''s' }}\n", "{{ input.a == 'it''s' }}"), "p: \"{{ input.a == 'it''s' }}\"\n");
  });
});

describe("round-trip property: random edits on generated shapes", () => {
  // Small documents in several layouts; every operation must keep them parsing and change only its target.
  const layouts: Array<{ format: Format; text: (o: Json) => string }> = [
    { format: "json", text: (o) => JSON.stringify(o, null, 2) },
    { format: "json", text: (o) => JSON.stringify(o, null, "\t").replace(/\n/g, "\r\n") },
    { format: "json", text: (o) => JSON.stringify(o) },
  ];
  const docs: Json[] = [
    { steps: [{ id: "a", uses: "x" }, { id: "b", uses: "y", needs: ["a"], with: { p: "q" } }] },
    { steps: [{ id: "a" }, { uses: "y", id: "b", needs: [], with: {} }] },
  ];
  for (const [li, layout] of layouts.entries()) {
    for (const [di, base] of docs.entries()) {
      test(`layout ${li}, document ${di}`, () => {
        const text = layout.text(base);
        const ops: Array<[Edit, (v: any) => void]> = [
          [(d) => addNeedsEntries(d, ["steps", 0], ["z"]), (v) => { v.steps[0].needs = ["z"]; }],
          [(d) => addNeedsEntries(d, ["steps", 1], ["z", "y"]), (v) => { (v.steps[1].needs ??= []).push("z", "y"); }],
          [(d) => setProperty(d, ["steps", 1], "maxVisits", 2), (v) => { v.steps[1].maxVisits = 2; }],
          [(d) => removeProperty(d, ["steps", 1], "with"), (v) => { delete v.steps[1].with; }],
          [(d) => setProperty(d, ["steps", 1, "with"], "k", { a: [1, "b"] }), (v) => { v.steps[1].with.k = { a: [1, "b"] }; }],
        ];
        for (const [op, change] of ops) {
          const doc = parseDocument(text, layout.format);
          const out = applyEdits(text, op(doc)!);
          const want = structuredClone(doc.value) as any;
          change(want);
          const after = parseDocument(out, layout.format);
          assert.deepEqual(after.parseErrors, [], out);
          assert.deepEqual(after.value, want, out);
          if (text.includes("\r\n")) assert.ok(!/[^\r]\n/.test(out), "CRLF kept");
        }
      });
    }
  }
});

describe("removeArrayElements", () => {
  const needs: PathSegment[] = ["steps", 0, "needs"];
  const drop = (indexes: number[]) => (v: any) => { at(v, needs).splice(0, Infinity, ...at(v, needs).filter((_: unknown, i: number) => !indexes.includes(i))); };

  test("JSON one per line: first, middle, last, a trailing run, all", () => {
    const text = '{\n  "steps": [\n    {\n      "id": "c",\n      "needs": [\n        "a",\n        "b",\n        "d"\n      ]\n    }\n  ]\n}\n';
    const lines = (...ids: string[]) => '{\n  "steps": [\n    {\n      "id": "c",\n      "needs": [' + (ids.length ? "\n" + ids.map((i) => `        "${i}"`).join(",\n") + "\n      " : "") + ']\n    }\n  ]\n}\n';
    check("json", text, (d) => removeArrayElements(d, needs, [0]), lines("b", "d"), drop([0]));
    check("json", text, (d) => removeArrayElements(d, needs, [1]), lines("a", "d"), drop([1]));
    check("json", text, (d) => removeArrayElements(d, needs, [2]), lines("a", "b"), drop([2]));
    check("json", text, (d) => removeArrayElements(d, needs, [1, 2]), lines("a"), drop([1, 2]));
    check("json", text, (d) => removeArrayElements(d, needs, [0, 2]), lines("b"), drop([0, 2]));
    check("json", text, (d) => removeArrayElements(d, needs, [0, 1, 2]), lines(), drop([0, 1, 2]));
  });

  test("YAML flow: the commas and spaces between stay as written", () => {
    const text = "steps:\n  - id: c\n    needs: [a, b, d]\n";
    check("yaml", text, (d) => removeArrayElements(d, needs, [0]), "steps:\n  - id: c\n    needs: [b, d]\n", drop([0]));
    check("yaml", text, (d) => removeArrayElements(d, needs, [2]), "steps:\n  - id: c\n    needs: [a, b]\n", drop([2]));
    check("yaml", text, (d) => removeArrayElements(d, needs, [0, 1, 2]), "steps:\n  - id: c\n    needs: []\n", drop([0, 1, 2]));
  });

  test("YAML block: whole lines; the last entry leaves []", () => {
    const text = "steps:\n  - id: c\n    needs:\n      - a\n      - b # why\n    uses: x\n";
    check("yaml", text, (d) => removeArrayElements(d, needs, [1]), "steps:\n  - id: c\n    needs:\n      - a\n    uses: x\n", drop([1]));
    check("yaml", text, (d) => removeArrayElements(d, needs, [0, 1]), "steps:\n  - id: c\n    needs: []\n    uses: x\n", drop([0, 1]));
    check("yaml", "steps:\n  - id: c\n    needs:\n    - a\n", (d) => removeArrayElements(d, needs, [0]), "steps:\n  - id: c\n    needs: []\n", drop([0]));
  });

  test("refuses what it cannot edit safely: an index out of range, an alias, not an array", () => {
    refuse("yaml", "steps:\n  - id: c\n    needs: [a]\n", (d) => removeArrayElements(d, needs, [3]));
    refuse("yaml", "x: &n [a, b]\nsteps:\n  - id: c\n    needs: *n\n", (d) => removeArrayElements(d, needs, [0]));
    refuse("json", '{"steps": [{"id": "c", "needs": "a"}]}', (d) => removeArrayElements(d, needs, [0]));
  });
});
