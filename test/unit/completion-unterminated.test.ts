// Completion inside a string whose closing quote is not typed yet (editors without auto-closing
// quotes): the string runs to the end of its line, the text does not parse, and there may be no
// earlier analysis that did (a file opened broken). The answer must be the one given with the quote
// closed, in JSON and in YAML (double-quoted), at every expression position.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import type { CompletionItem, TextEdit } from "vscode-languageserver-types";
import { analyzeText } from "../../server/src/service/analysis";
import { provideCompletion } from "../../server/src/service/completion";

type Format = "json" | "yaml";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ENVELOPE: Json = {
  mode: "array",
  schema: {
    type: "array",
    items: {
      type: "object", required: ["itemKey", "status", "artifacts"],
      properties: { itemKey: { type: "string" }, status: { type: "string" }, output: true, artifacts: { type: "array", items: { type: "string" } } },
    },
  },
};

/** A valid workflow (checked below) with the string under test (HOLE) at `where`. */
function workflow(where: string): Json {
  const doc: Json = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "unterminated" },
    input: { schema: { type: "object", properties: { topic: { type: "string" }, rows: { type: "array", items: { type: "object", properties: { sku: { type: "string" } } } } } } },
    output: { schema: true },
    permissions: { models: ["m"], tools: ["search"] },
    steps: [
      { id: "load", uses: "tool.call", with: { tool: "search" }, output: { mode: "object", schema: { type: "object", properties: { hits: { type: "array" } } } } },
      {
        id: "fan", uses: "parallel", needs: ["load"],
        with: { items: "{{ input.rows }}", itemKey: "{{ item.sku }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "one", uses: "ai.generate", with: { model: "m", prompt: "{{ item.sku }}" }, output: { mode: "text" } }],
        output: ENVELOPE,
      },
      { id: "route", uses: "decision", needs: ["fan"], with: { cases: [{ when: "{{ steps.fan.output == 'x' }}", to: "write" }], default: "write" } },
      { id: "write", uses: "ai.generate", needs: ["load"], with: { model: "m", system: "Be brief", prompt: "Write" }, input: { seed: "x" }, output: { mode: "text" } },
    ],
  };
  const set: Record<string, () => void> = {
    prompt: () => { doc.steps[3].with.prompt = "HOLE"; },
    system: () => { doc.steps[3].with.system = "HOLE"; },
    input: () => { doc.steps[3].input.seed = "HOLE"; },
    when: () => { doc.steps[2].with.cases[0].when = "HOLE"; },
    items: () => { doc.steps[1].with.items = "HOLE"; },
    body: () => { doc.steps[1].steps[0].with.prompt = "HOLE"; },
  };
  set[where]();
  return doc;
}

test("the fixture is valid", () => {
  const doc = workflow("prompt");
  doc.steps[3].with.prompt = "Write";
  assert.deepEqual(analyzeText(JSON.stringify(doc), "json").findings.map((f) => `${f.path} ${f.code}`), []);
});

const render = (doc: Json, format: Format) => (format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc, { lineWidth: 0 }));

/** The text with HOLE replaced by `typed`, the quote left open (and the rest of the line dropped) or closed. */
function typing(format: Format, where: string, typed: string, closed: boolean): { text: string; position: { line: number; character: number } } {
  const rendered = render(workflow(where), format);
  const hole = format === "json" ? /"HOLE",?/ : /HOLE/;
  const at = rendered.search(hole);
  const text = rendered.replace(hole, (m) => `"${typed}${closed ? `"${m.endsWith(",") ? "," : ""}` : ""}`);
  const before = text.slice(0, at + 1 + typed.length).split("\n");
  return { text, position: { line: before.length - 1, character: before[before.length - 1].length } };
}

function answer(format: Format, where: string, typed: string, closed: boolean): CompletionItem[] {
  const { text, position } = typing(format, where, typed, closed);
  const analysis = analyzeText(text, format);
  assert.equal(analysis.document.parseErrors.length > 0, !closed, closed ? "the closed text parses" : "the open text does not parse");
  // no earlier analysis: the file was opened like this
  return provideCompletion(analysis, undefined, position).items;
}

const shape = (items: CompletionItem[]) => items.map((i) => ({ label: i.label, edit: (i.textEdit as TextEdit | undefined)?.newText, extra: i.additionalTextEdits?.map((e) => e.newText) }));

const CASES: Array<[where: string, typed: string, expected: string[]]> = [
  ["prompt", "Decide on {{ steps.", ["fan", "load", "route"]],
  ["prompt", "Decide on {{ steps.load.", ["output"]],
  ["prompt", "Decide on {{ steps.load.output.", ["hits"]],
  ["prompt", "About {{ input.", ["rows", "topic"]],
  ["system", "Say {{ steps.", ["fan", "load", "route"]],
  ["input", "{{ input.", ["rows", "topic"]],
  ["when", "{{ steps.", ["fan", "load"]],
  ["items", "{{ input.", ["rows", "topic"]],
  ["body", "{{ item.", ["sku"]],
  ["body", "{{ ", ["input", "item", "steps"]],
];

for (const format of ["json", "yaml"] as const) {
  describe(`${format}: an open string at the end of its line`, () => {
    for (const [where, typed, expected] of CASES) {
      test(`${where}: ${typed}`, () => {
        const open = answer(format, where, typed, false);
        const labels = open.map((i) => i.label).filter((l) => expected.includes(l)).sort();
        assert.deepEqual(labels, expected);
        assert.deepEqual(shape(open), shape(answer(format, where, typed, true)), "the same items and edits as with the quote closed");
      });
    }
    test("roots and functions after {{", () => {
      const labels = answer(format, "prompt", "Decide on {{ ", false).map((i) => i.label);
      for (const l of ["input", "steps", "workflow", "coalesce", "len"]) assert.ok(labels.includes(l), l);
      assert.ok(!labels.includes("item"), "item is offered only inside a parallel body");
    });
    test("nothing outside {{ }}", () => {
      assert.deepEqual(answer(format, "prompt", "Decide on {{ steps.load.output }} and then ", false).map((i) => i.label), []);
    });
  });
}

test("json: the next member already on the next line (the comma is missing too)", () => {
  const rendered = render(workflow("system"), "json");
  const text = rendered.replace(/"HOLE",/, '"Say {{ steps.');
  const lines = text.split("\n");
  const line = lines.findIndex((l) => l.includes("Say {{"));
  assert.match(lines[line + 1], /^\s*"prompt"/);
  const items = provideCompletion(analyzeText(text, "json"), undefined, { line, character: lines[line].length }).items;
  assert.deepEqual(items.map((i) => i.label).filter((l) => ["fan", "load", "route"].includes(l)).sort(), ["fan", "load", "route"]);
});
