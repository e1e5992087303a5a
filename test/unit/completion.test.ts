// service/completion.ts against the service layer: a `|` in a fixture marks the cursor. Every context
// is checked in JSON and in YAML, on documents that parse and on documents broken mid-typing (with
// the last good analysis standing in for the facts), and edits are applied and re-validated.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import { TextDocument } from "vscode-languageserver-textdocument";
import { InsertTextFormat, type CompletionItem, type TextEdit } from "vscode-languageserver-types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { provideCompletion, provideCompletionFromText, provideCompletionNearCursor, type EditedText } from "../../server/src/service/completion";
import { cursorAt, offsetOf } from "../../server/src/service/cursor";
import { expandSnippet, renderMember, renderValue, obj, str, arr, ph } from "../../server/src/service/snippets";
import { parseDocument } from "../../server/src/document/document";
import { parseTree } from "jsonc-parser";
import { STEP_ITEMS_LIMIT, stepWindow, subsequence } from "../../server/src/service/completionStepWindow";
import { workflowFacts } from "../../server/src/service/stepFacts";

type Format = "json" | "yaml";
const FORMATS: Format[] = ["json", "yaml"];
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

/**
 * A valid workflow: load → fan (parallel over load's rows, body price → note), a worker/check/route
 * loop (multi-visit), and summarize, the one terminal. Values named HOLE_* are where tests put the cursor.
 */
function base(): Json {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "demo" },
    input: {
      schema: {
        type: "object",
        properties: {
          name: { type: "string", description: "Customer name" },
          list: { type: "array", items: { type: "object", properties: { id: { type: "string" }, title: { type: "string", description: "Item title" } } } },
          customer: { type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } },
        },
      },
    },
    output: { schema: { type: "object" } },
    permissions: { models: ["gpt-4o-mini", "claude-sonnet"], tools: ["search", "fetch"] },
    steps: [
      {
        id: "load", uses: "tool.call", with: { tool: "search" },
        output: {
          mode: "object",
          schema: {
            type: "object",
            properties: {
              rows: { type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" } } } },
              meta: { type: "object", properties: { count: { type: "integer", description: "How many rows" } } },
            },
          },
        },
      },
      {
        id: "worker", uses: "ai.generate", maxVisits: 3,
        with: { model: "gpt-4o-mini", prompt: "Draft for {{ input.name }}; feedback {{ steps.check.lastOutput.feedback }}" },
        output: { mode: "object", schema: { type: "object", properties: { draft: { type: "string" } } } },
      },
      {
        id: "check", uses: "ai.generate", maxVisits: 3, needs: ["worker"],
        with: { model: "gpt-4o-mini", prompt: "Check {{ steps.worker.lastOutput.draft }}" },
        output: { mode: "object", schema: { type: "object", properties: { passed: { type: "boolean" }, feedback: { type: "string" } } } },
      },
      {
        id: "route", uses: "decision", maxVisits: 3, needs: ["check"],
        with: { cases: [{ when: "{{ steps.check.lastOutput.passed }}", to: "end" }], default: "worker" },
      },
      {
        id: "fan", uses: "parallel", needs: ["load"],
        with: {
          items: "{{ steps.load.output.rows }}", itemKey: "{{ item.sku }}", cardinality: { kind: "matches_items" },
          maxBranches: 5, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" },
        },
        steps: [
          { id: "price", uses: "ai.generate", with: { model: "gpt-4o-mini", prompt: "Price {{ item.sku }}" }, output: { mode: "text" } },
          { id: "note", uses: "ai.generate", needs: ["price"], with: { model: "gpt-4o-mini", prompt: "Note {{ steps.price.output }}" }, output: { mode: "text" } },
        ],
        output: structuredClone(ENVELOPE), // a copy: tests put holes into it
      },
      {
        id: "summarize", uses: "ai.generate", needs: ["fan"],
        with: { model: "gpt-4o-mini", prompt: "Summarize {{ steps.fan.output }}" }, output: { mode: "text" },
      },
    ],
  };
}

const IDX = { load: 0, worker: 1, check: 2, route: 3, fan: 4, summarize: 5 } as const;

function render(doc: Json, format: Format): string {
  return format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc, { lineWidth: 0 });
}

/** Renders `doc` and replaces `find` (a rendered fragment; `{json, yaml}` when they differ) by `replace` (with a `|`). */
function fixture(doc: Json, format: Format, find: string | { json: string; yaml: string }, replace: string | { json: string; yaml: string }): string {
  const text = render(doc, format);
  const f = typeof find === "string" ? find : find[format];
  const r = typeof replace === "string" ? replace : replace[format];
  const at = text.indexOf(f);
  assert.ok(at >= 0, `fixture: ${JSON.stringify(f)} not in the ${format} text`);
  assert.equal(text.indexOf(f, at + 1), -1, `fixture: ${JSON.stringify(f)} is not unique`);
  return text.slice(0, at) + r + text.slice(at + f.length);
}

/** A document with HOLE put into one string value, rendered as the format writes that string. */
function holeAt(format: Format, set: (doc: Json) => void, replaceJson: string, replaceYaml: string = replaceJson): string {
  const doc = base();
  set(doc);
  return fixture(doc, format, { json: '"HOLE"', yaml: "HOLE" }, { json: replaceJson, yaml: replaceYaml });
}

interface Result {
  text: string;
  items: CompletionItem[];
  labels: string[];
  analysis: Analysis;
  /** The list's isIncomplete. */
  incomplete: boolean;
  item(label: string): CompletionItem;
}

/**
 * Completion at the `|` of `marked`. `lastGood`: the text of an earlier version whose analysis stands in
 * when the current text does not parse (what the server keeps). Also checks that the text-only entry point
 * (no parse of the current text) answers the same.
 */
function complete(marked: string, format: Format, lastGood?: string, marker = "|"): Result {
  const offset = marked.indexOf(marker);
  assert.ok(offset >= 0 && marked.indexOf(marker, offset + 1) === -1, "exactly one cursor marker");
  const text = marked.slice(0, offset) + marked.slice(offset + marker.length);
  const analysis = analyzeText(text, format);
  const last = lastGood !== undefined ? analyzeText(lastGood, format) : undefined;
  const position = analysis.document.positionAt(offset);
  const list = provideCompletion(analysis, last, position);
  const parses = analysis.document.parseErrors.length === 0;
  const fast = provideCompletionFromText(text, format, parses ? analysis : last, position);
  assert.deepEqual(fast.items, list.items, "provideCompletionFromText answers like provideCompletion");
  assert.equal(fast.isIncomplete, list.isIncomplete);
  // and, where it applies (JSON, an edit inside the step at the cursor), from that step's text alone
  const source = parses ? analysis : last;
  if (format === "json" && source) {
    const near = provideCompletionNearCursor(editedFrom(source.document.text, text).edited, source, position);
    if (near) {
      assert.deepEqual(near, { isIncomplete: list.isIncomplete, items: list.items }, "provideCompletionNearCursor answers like provideCompletion");
      nearAnswers++;
    }
  }
  const items = list.items;
  return {
    text, items, analysis, labels: items.map((i) => i.label), incomplete: list.isIncomplete,
    item(label: string) {
      const found = items.find((i) => i.label === label);
      assert.ok(found, `no item ${JSON.stringify(label)} among ${JSON.stringify(items.map((i) => i.label))}`);
      return found;
    },
  };
}

/** How many completions in this file provideCompletionNearCursor answered (and matched). */
let nearAnswers = 0;

/**
 * `text` as an edit of `base` (one change: what lies between their common prefix and suffix), the way
 * LazyTextDocument exposes it; records the longest slice read.
 */
function editedFrom(base: string, text: string): { edited: EditedText; longestSlice: () => number } {
  let p = 0;
  while (p < base.length && p < text.length && base.charCodeAt(p) === text.charCodeAt(p)) p++;
  let q = 0;
  while (q < base.length - p && q < text.length - p && base.charCodeAt(base.length - 1 - q) === text.charCodeAt(text.length - 1 - q)) q++;
  const change = base === text ? null : { start: p, end: base.length - q, text: text.slice(p, text.length - q) };
  const doc = TextDocument.create("file:///x.lwir.json", "json", 0, text);
  let longest = 0;
  const edited: EditedText = {
    length: text.length,
    slice: (a, b) => { longest = Math.max(longest, b - a); return text.slice(a, b); },
    offsetAt: (position) => doc.offsetAt(position),
    changeSince: (t) => (t === base ? change : undefined),
  };
  return { edited, longestSlice: () => longest };
}

/** Applies an item (its text edit, expanded as the editor would with every default, and its additional edits). */
function accept(text: string, item: CompletionItem): string {
  const doc = TextDocument.create("file:///x", "plaintext", 0, text);
  const main = item.textEdit as TextEdit;
  assert.ok(main && "range" in main, "items carry a textEdit with a range");
  assert.equal(main.range.start.line, main.range.end.line, "the replace range is on one line");
  const edits = [
    { start: doc.offsetAt(main.range.start), end: doc.offsetAt(main.range.end), text: item.insertTextFormat === InsertTextFormat.Snippet ? expandSnippet(main.newText) : main.newText },
    ...(item.additionalTextEdits ?? []).map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), text: e.newText })),
  ].sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function codes(a: Analysis): string[] {
  return a.findings.map((f) => `${f.code} ${f.path}`).sort();
}

function count(a: Analysis, code: string): number {
  return a.findings.filter((f) => f.code === code).length;
}

function assertParses(text: string, format: Format): Analysis {
  const a = analyzeText(text, format);
  assert.deepEqual(a.document.parseErrors.map((p) => p.message), [], `parses:\n${text}`);
  return a;
}

// ---------------------------------------------------------------------------------------------

describe("the fixture", () => {
  for (const format of FORMATS) {
    test(`is valid (${format})`, () => {
      assert.deepEqual(codes(analyzeText(render(base(), format), format)), []);
    });
  }
});

describe("expressions: roots and functions", () => {
  for (const format of FORMATS) {
    test(`top-level step: roots without item, functions as snippets with their arity (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"Sum {{ |}}"', '"Sum {{ |}}"'), format);
      for (const root of ["input", "steps", "workflow", "step"]) assert.ok(r.labels.includes(root), root);
      assert.ok(!r.labels.includes("item"), "item only inside a parallel body");
      const coalesce = r.item("coalesce");
      assert.equal(coalesce.insertTextFormat, InsertTextFormat.Snippet);
      assert.equal((coalesce.textEdit as TextEdit).newText, "coalesce(${1:a}, ${2:b})");
      assert.equal((r.item("hmac").textEdit as TextEdit).newText, "hmac(${1:key}, ${2:value})");
      assert.equal((r.item("len").textEdit as TextEdit).newText, "len(${1:value})");
      assert.deepEqual(r.labels.filter((l) => ["coalesce", "date", "hmac", "json", "len", "lower", "sha256", "upper"].includes(l)).sort(),
        ["coalesce", "date", "hmac", "json", "len", "lower", "sha256", "upper"]);
    });

    test(`a partial root word is replaced; roots in input strings too (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].input = { x: "HOLE" }; }, '"{{ inp| }}"'), format);
      const input = r.item("input");
      const after = accept(r.text, input);
      assert.ok(after.includes("{{ input }}"), after);
    });

    test(`body step: item is offered (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.fan].steps[1].with.prompt = "HOLE"; }, '"{{ | }}"'), format);
      assert.ok(r.labels.includes("item"));
    });

    test(`a parallel's own items: no item at top level; its itemKey: item (${format})`, () => {
      const items = complete(holeAt(format, (d) => { d.steps[IDX.fan].with.items = "HOLE"; }, '"{{ |}}"'), format);
      assert.ok(items.labels.includes("input") && !items.labels.includes("item"));
      const key = complete(holeAt(format, (d) => { d.steps[IDX.fan].with.itemKey = "HOLE"; }, '"{{ |}}"'), format);
      assert.ok(key.labels.includes("item"));
    });

    test(`decision when is an expression position; a string outside one is not (${format})`, () => {
      const when = complete(holeAt(format, (d) => { d.steps[IDX.route].with.cases[0].when = "HOLE"; }, '"{{ steps.|}}"'), format);
      assert.ok(when.labels.includes("check"));
      const meta = complete(holeAt(format, (d) => { d.metadata.description = "HOLE"; }, '"{{ |}}"'), format);
      assert.deepEqual(meta.labels, []);
      const decisionOther = complete(holeAt(format, (d) => { d.steps[IDX.route].with.note = "HOLE"; }, '"{{ |}}"'), format);
      assert.deepEqual(decisionOther.labels, [], "a decision's other with strings are not templates");
    });
  }
});

describe("expressions: steps. and scopes", () => {
  for (const format of FORMATS) {
    test(`a top-level step sees the top-level steps, not body steps, not itself (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.| }}"'), format);
      assert.deepEqual([...r.labels].sort(), ["check", "fan", "load", "route", "worker"]);
      assert.equal(r.item("load").detail, "tool.call · output object");
      assert.equal(r.item("worker").detail, "ai.generate · output object · maxVisits 3");
      assert.equal(r.item("fan").detail, "parallel · output array");
      const edit = r.item("load").textEdit as TextEdit;
      assert.equal(edit.range.start.character, edit.range.end.character, "nothing typed yet: an insertion");
    });

    test(`a body step sees its own list and the parent's needs (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.fan].steps[1].with.prompt = "HOLE"; }, '"{{ steps.| }}"'), format);
      assert.deepEqual([...r.labels].sort(), ["load", "price"]);
    });

    test(`a partial id is the replace range and the filter (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.lo| }}"'), format);
      const load = r.item("load");
      assert.equal(load.filterText, "load");
      const after = accept(r.text, load);
      assert.ok(after.includes("{{ steps.load }}"), after);
    });

    test(`a step reads itself only on a loop, for lastOutput (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.worker].with.system = "HOLE"; }, '"{{ steps.| }}"'), format);
      assert.ok(r.labels.includes("worker"), "worker is on the worker/check/route loop");
      assert.equal(r.item("worker").additionalTextEdits, undefined);
      const s = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.system = "HOLE"; }, '"{{ steps.| }}"'), format);
      assert.ok(!s.labels.includes("summarize"));
    });

    test(`ids that are not dot segments use the bracket form, escaped for the host (${format})`, () => {
      const doc = base();
      doc.steps[IDX.load].id = "my load";
      doc.steps[IDX.fan].needs = ["my load"];
      doc.steps[IDX.fan].with.items = "{{ steps['my load'].output.rows }}";
      doc.steps[IDX.summarize].with.prompt = "HOLE";
      const r = complete(fixture(doc, format, { json: '"HOLE"', yaml: "HOLE" }, '"{{ steps.| }}"'), format);
      const item = r.item("my load");
      const after = accept(r.text, item);
      const a = assertParses(after, format);
      const prompt = (a.document.value as Json).steps[IDX.summarize].with.prompt;
      assert.equal(prompt, '{{ steps["my load"] }}');
    });
  }
});

describe("expressions: step properties and schemas", () => {
  for (const format of FORMATS) {
    const at = (expr: string, step: keyof typeof IDX = "summarize") =>
      complete(holeAt(format, (d) => { d.steps[IDX[step]].with.system = "HOLE"; }, `"{{ ${expr} }}"`), format);

    test(`single-visit → output; multi-visit → lastOutput and allVisits, never output (${format})`, () => {
      assert.deepEqual(at("steps.load.|").labels, ["output"]);
      assert.deepEqual(at("steps.worker.|").labels, ["lastOutput", "allVisits"]);
      assert.deepEqual(at("steps.check.l|").labels, ["lastOutput", "allVisits"]);
    });

    test(`output schema properties, nested, with type and description (${format})`, () => {
      const r = at("steps.load.output.|");
      assert.deepEqual(r.labels, ["rows", "meta"]);
      assert.equal(r.item("rows").detail, "array of object");
      const nested = at("steps.load.output.meta.|");
      assert.deepEqual(nested.labels, ["count"]);
      assert.equal(nested.item("count").detail, "integer");
      assert.match(JSON.stringify(nested.item("count").documentation), /How many rows/);
      assert.deepEqual(at("steps.check.lastOutput.|").labels, ["passed", "feedback"]);
      assert.deepEqual(at("steps.check.allVisits[0].|").labels, ["passed", "feedback"]);
    });

    test(`input. → the workflow input schema, nested (${format})`, () => {
      const r = at("input.|");
      assert.deepEqual(r.labels, ["name", "list", "customer"]);
      assert.equal(r.item("name").detail, "string");
      assert.match(JSON.stringify(r.item("name").documentation), /Customer name/);
      assert.deepEqual(at("input.customer.address.|").labels, ["city"]);
      assert.deepEqual(at("coalesce(input.customer.|, input.name)").labels, ["address"]);
    });

    test(`item. → the element schema of the parallel's items source (${format})`, () => {
      const body = complete(holeAt(format, (d) => { d.steps[IDX.fan].steps[0].with.system = "HOLE"; }, '"{{ item.| }}"'), format);
      assert.deepEqual(body.labels, ["sku", "qty"], "items: steps.load.output.rows");
      const key = complete(holeAt(format, (d) => { d.steps[IDX.fan].with.itemKey = "HOLE"; }, '"{{ item.|}}"'), format);
      assert.deepEqual(key.labels, ["sku", "qty"]);
      const fromInput = complete(holeAt(format, (d) => {
        d.steps[IDX.fan].with.items = "{{ input.list }}";
        d.steps[IDX.fan].steps[0].with.system = "HOLE";
      }, '"{{ item.| }}"'), format);
      assert.deepEqual(fromInput.labels, ["id", "title"]);
    });
  }
});

describe("accepting a step reference adds the needs entry", () => {
  for (const format of FORMATS) {
    test(`into an existing needs array; the result has one fewer undeclared dependency (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.| }}"'), format);
      const load = r.item("load");
      assert.equal(load.additionalTextEdits?.length, 1);
      assert.equal(r.item("fan").additionalTextEdits, undefined, "fan is already in needs");
      const typedOnly = accept(r.text, { ...load, additionalTextEdits: undefined });
      const withNeeds = accept(r.text, load);
      const before = assertParses(typedOnly, format);
      const after = assertParses(withNeeds, format);
      assert.equal(count(before, "step.undeclared_dependency"), 1);
      assert.equal(count(after, "step.undeclared_dependency"), 0);
      assert.deepEqual((after.document.value as Json).steps[IDX.summarize].needs, ["fan", "load"]);
    });

    test(`creating the array where there is none (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.load].with.query = "HOLE"; }, '"{{ steps.| }}"'), format);
      // load reads nothing yet; it cannot read fan (fan needs load: a cycle) nor worker? worker is fine
      const worker = r.item("worker");
      assert.equal(r.item("fan").additionalTextEdits, undefined, "fan needs load: load needing fan would close a cycle");
      assert.equal(worker.additionalTextEdits?.length, 1, "worker is multi-visit but cannot reach load: not exempt");
      const after = assertParses(accept(r.text, worker), format);
      assert.deepEqual((after.document.value as Json).steps[IDX.load].needs, ["worker"]);
      const typed = assertParses(accept(r.text, { ...worker, additionalTextEdits: undefined }), format);
      assert.equal(count(after, "step.undeclared_dependency"), count(typed, "step.undeclared_dependency") - 1);
    });

    test(`never an entry that closes a cycle, never for an exempt back-edge read (${format})`, () => {
      // check needs worker; route needs check: check reading route would close check → route → check
      const r = complete(holeAt(format, (d) => { d.steps[IDX.check].with.system = "HOLE"; }, '"{{ steps.| }}"'), format);
      assert.equal(r.item("route").additionalTextEdits, undefined);
      // worker reads check through the back-edge route → worker: lastOutput is exempt
      const w = complete(holeAt(format, (d) => { d.steps[IDX.worker].with.system = "HOLE"; }, '"{{ steps.| }}"'), format);
      assert.equal(w.item("check").additionalTextEdits, undefined);
      const prop = complete(holeAt(format, (d) => { d.steps[IDX.worker].with.system = "HOLE"; }, '"{{ steps.check.| }}"'), format);
      assert.equal(prop.item("lastOutput").additionalTextEdits, undefined);
      const after = assertParses(accept(prop.text, prop.item("lastOutput")), format);
      assert.equal(count(after, "step.undeclared_dependency"), 0);
    });

    test(`the property item adds the entry too when the id was typed by hand (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.load.| }}"'), format);
      const output = r.item("output");
      assert.equal(output.additionalTextEdits?.length, 1);
      const after = assertParses(accept(r.text, output), format);
      assert.equal(count(after, "step.undeclared_dependency"), 0);
    });

    test(`a body step reading an external step lists it in its own needs (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.fan].steps[0].with.system = "HOLE"; }, '"{{ steps.| }}"'), format);
      const load = r.item("load");
      const after = assertParses(accept(r.text, load), format);
      assert.deepEqual((after.document.value as Json).steps[IDX.fan].steps[0].needs, ["load"]);
      assert.equal(count(after, "step.undeclared_dependency"), 0);
    });

    test(`keeps the author's style: a multi-line JSON array / a YAML block sequence (${format})`, () => {
      const doc = base();
      doc.steps[IDX.summarize].with.prompt = "HOLE";
      let text = render(doc, format);
      if (format === "json") assert.ok(text.includes('"needs": [\n        "fan"\n      ]'), "JSON.stringify writes arrays one element per line");
      else text = text.replace("    needs:\n      - fan\n", "    needs:\n      - fan\n").replace(/needs:\n(\s+)- fan/, "needs:\n$1- fan");
      const marked = text.replace(format === "json" ? '"HOLE"' : "HOLE", '"{{ steps.| }}"');
      const r = complete(marked, format);
      const after = accept(r.text, r.item("load"));
      if (format === "json") assert.ok(after.includes('"needs": [\n        "fan",\n        "load"\n      ]'), after);
      else assert.match(after, /needs:\n(\s+)- fan\n\1- load\n/);
      assertParses(after, format);
    });
  }

  test("YAML flow needs and a new needs in a flow-style document", () => {
    const marked = [
      "apiVersion: littleworkflow.dev/v0.1",
      "kind: Workflow",
      "metadata: {name: demo}",
      "input: {schema: {type: object}}",
      "output: {schema: {type: object}}",
      "permissions: {models: [m], tools: [t]}",
      "steps:",
      "  - {id: a, uses: tool.call, with: {tool: t}, output: {mode: text}}",
      "  - {id: b, uses: tool.call, with: {tool: t}, output: {mode: text}}",
      "  - id: c",
      "    uses: ai.generate",
      "    needs: [b]",
      "    with: {model: m, prompt: \"{{ steps.| }}\"}",
      "    output: {mode: text}",
      "",
    ].join("\n");
    const r = complete(marked, "yaml");
    const after = accept(r.text, r.item("a"));
    assert.ok(after.includes("    needs: [b, a]"), after);
    const flowStep = complete(marked.replace('prompt: "{{ steps.| }}"', "prompt: x").replace("with: {tool: t}, output: {mode: text}}\n  - id: c", 'with: {tool: t, q: "{{ steps.| }}"}, output: {mode: text}}\n  - id: c'), "yaml");
    assert.deepEqual(flowStep.labels.sort(), ["a", "c"]);
    assert.equal(flowStep.item("c").additionalTextEdits, undefined, "c needs b: b needing c would close a cycle");
    const after2 = accept(flowStep.text, flowStep.item("a"));
    // after `uses`, where the add-needs quick fix puts it too (needsPlacement.ts)
    assert.ok(after2.includes("{id: b, uses: tool.call, needs: [a], with:"), after2);
    assert.equal(count(assertParses(after2, "yaml"), "step.undeclared_dependency"), 0);
  });
});

describe("documents broken mid-typing", () => {
  for (const format of FORMATS) {
    test(`an unterminated string while typing "{{ steps." (${format})`, () => {
      const good = holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"Sum"');
      const broken = holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.|');
      const r = complete(broken, format, good);
      assert.ok(r.analysis.document.parseErrors.length > 0, "the text does not parse");
      assert.deepEqual([...r.labels].sort(), ["check", "fan", "load", "route", "worker"]);
      // accepting keeps the needs edit on the current text
      const after = accept(r.text, r.item("load"));
      assert.ok(after.includes("{{ steps.load"), after);
      const fixed = after.replace('"{{ steps.load\n', '"{{ steps.load.output }}"\n');
      const a = assertParses(fixed, format);
      assert.equal(count(a, "step.undeclared_dependency"), 0);
    });

    test(`schema properties while broken, from the last good analysis (${format})`, () => {
      const good = holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"Sum"');
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.load.output.|'), format, good);
      assert.deepEqual(r.labels, ["rows", "meta"]);
    });

    test(`without any good analysis: roots still come (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ |'), format);
      assert.ok(r.labels.includes("steps") && r.labels.includes("coalesce"));
    });
  }

  for (const format of FORMATS) {
    test(`steps inserted above since the last analysis: the step is found by its id (${format})`, () => {
      const good = render(base(), format);
      const doc = base();
      doc.steps.unshift({ id: "fresh", uses: "tool.call", with: { tool: "search" }, output: { mode: "text" } });
      doc.steps[IDX.summarize + 1].with.prompt = "HOLE";
      const marked = fixture(doc, format, { json: '"HOLE"', yaml: "HOLE" }, '"{{ steps.|');
      // The open quote alone breaks the text: closed at the end of the line it parses, so the facts are the text's own.
      const r = complete(marked, format, good);
      assert.deepEqual([...r.labels].sort(), ["check", "fan", "fresh", "load", "route", "worker"], "the facts of the text with the quote closed");
      const after = accept(r.text, r.item("load")).replace('"{{ steps.load\n', '"{{ steps.load.output }}"\n');
      const a = assertParses(after, format);
      assert.deepEqual((a.document.value as Json).steps[IDX.summarize + 1].needs, ["fan", "load"]);
      // Broken elsewhere too: the facts are the last good ones, and the step is still found by its id.
      const stale = complete(marked.replace(format === "json" ? '"kind": "Workflow",' : "kind: Workflow\n", format === "json" ? '"kind": "Workflow",,' : "kind: [Workflow\n"), format, good);
      assert.deepEqual([...stale.labels].sort(), ["check", "fan", "load", "route", "worker"], "the facts are the last good ones");
      const staleAfter = accept(stale.text, stale.item("load")).replace('"{{ steps.load\n', '"{{ steps.load.output }}"\n');
      assert.ok(staleAfter.includes('"load"') || /- load\b/.test(staleAfter), "load is added to the step's needs");
    });
  }

  test("JSON: the rest of the document missing (no closing braces)", () => {
    const good = holeAt("json", (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"x"');
    const full = holeAt("json", (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.check.|}}"');
    const truncated = full.slice(0, full.indexOf("|") + 1);
    const r = complete(truncated, "json", good);
    assert.deepEqual(r.labels, ["lastOutput", "allVisits"]);
  });

  test("JSON: a missing closing brace earlier in the step", () => {
    const good = render(base(), "json");
    const marked = good.replace('"prompt": "Summarize {{ steps.fan.output }}"\n      },', '"prompt": "Summarize {{ steps.fan.output }}"\n      ,\n      "input": {"a": "{{ steps.|}}"},');
    const r = complete(marked, "json", good);
    assert.ok(r.analysis.document.parseErrors.length > 0);
    assert.deepEqual(r.labels.sort(), ["check", "fan", "load", "route", "worker"]);
  });

  test("YAML: a half-typed key line, and an unquoted template", () => {
    const good = render(base(), "yaml");
    const half = good.replace("      prompt: Summarize {{ steps.fan.output }}\n", "      prompt: Summarize {{ steps.fan.output }}\n      sys|\n");
    const r = complete(half, "yaml", good);
    assert.deepEqual(r.labels.sort(), ["args", "system"]);
    assert.equal((r.item("system").textEdit as TextEdit).newText, 'system: "${1}"');
    const plain = good.replace("      prompt: Summarize {{ steps.fan.output }}\n", "      prompt: Summarize {{ steps.fan.output }}\n      system: Use {{ steps.|\n");
    const p = complete(plain, "yaml", good);
    assert.deepEqual(p.labels.sort(), ["check", "fan", "load", "route", "worker"]);
  });

  test("YAML: a block scalar line", () => {
    const good = render(base(), "yaml");
    const marked = good.replace("      prompt: Summarize {{ steps.fan.output }}\n", "      prompt: |\n        Summarize this:\n        {{ steps.load.output.§ }}\n");
    const r = complete(marked, "yaml", good, "§");
    assert.deepEqual(r.labels, ["rows", "meta"]);
  });
});

describe("values outside expressions", () => {
  for (const format of FORMATS) {
    test(`needs entries: steps of the same list, not itself, not already listed (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].needs = ["fan", "HOLE"]; }, '"|"', "|"), format);
      assert.deepEqual(r.labels.sort(), ["check", "load", "route", "worker"]);
      const after = accept(r.text, r.item("load"));
      assert.deepEqual((assertParses(after, format).document.value as Json).steps[IDX.summarize].needs, ["fan", "load"]);
      const body = complete(holeAt(format, (d) => { d.steps[IDX.fan].steps[1].needs = ["price", "HOLE"]; }, '"|"', "|"), format);
      assert.deepEqual(body.labels, ["load"], "a body step: the parent's needs are readable too");
    });

    test(`decision targets: steps in scope and end (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.route].with.default = "HOLE"; }, '"w|"', "w|"), format);
      assert.deepEqual(r.labels.sort(), ["check", "end", "fan", "load", "summarize", "worker"]);
      const after = accept(r.text, r.item("worker"));
      assert.equal((assertParses(after, format).document.value as Json).steps[IDX.route].with.default, "worker");
      const to = complete(holeAt(format, (d) => { d.steps[IDX.route].with.cases[0].to = "HOLE"; }, '"|"', "|"), format);
      assert.ok(to.labels.includes("end") && to.labels.includes("summarize"));
    });

    test(`uses: the five types with a description; no parallel in a body (${format})`, () => {
      const r = complete(holeAt(format, (d) => { d.steps[IDX.summarize].uses = "HOLE"; }, '"|"', "|"), format);
      assert.deepEqual(r.labels, ["ai.generate", "tool.call", "code.run", "parallel", "decision"]);
      assert.ok(r.items.every((i) => i.documentation));
      const body = complete(holeAt(format, (d) => { d.steps[IDX.fan].steps[0].uses = "HOLE"; }, '"|"', "|"), format);
      assert.ok(!body.labels.includes("parallel"));
    });

    test(`output.mode, failureMode, fanIn.order, fanIn.outputStep (${format})`, () => {
      assert.deepEqual(complete(holeAt(format, (d) => { d.steps[IDX.summarize].output.mode = "HOLE"; }, '"|"', "|"), format).labels,
        ["text", "object", "array", "choice", "json"]);
      assert.deepEqual(complete(holeAt(format, (d) => { d.steps[IDX.fan].with.failureMode = "HOLE"; }, '"|"', "|"), format).labels,
        ["fail_fast", "all_settled"]);
      assert.deepEqual(complete(holeAt(format, (d) => { d.steps[IDX.fan].with.fanIn.order = "HOLE"; }, '"|"', "|"), format).labels,
        ["input", "itemKey"]);
      const out = complete(holeAt(format, (d) => { d.steps[IDX.fan].with.fanIn.outputStep = "HOLE"; }, '"|"', "|"), format);
      assert.deepEqual(out.labels, ["price", "note"]);
    });

    test(`with.model from permissions.models, with.tool from permissions.tools (${format})`, () => {
      const m = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.model = "HOLE"; }, '"gp|"', "gp|"), format);
      assert.deepEqual(m.labels, ["gpt-4o-mini", "claude-sonnet"]);
      const after = accept(m.text, m.item("claude-sonnet"));
      assert.equal((assertParses(after, format).document.value as Json).steps[IDX.summarize].with.model, "claude-sonnet");
      const t = complete(holeAt(format, (d) => { d.steps[IDX.load].with.tool = "HOLE"; }, '"|"', "|"), format);
      assert.deepEqual(t.labels, ["search", "fetch"]);
    });
  }

  test("value text is valid in every host form: JSON bare, JSON string, YAML plain, single- and double-quoted", () => {
    const cases: Array<[Format, string]> = [
      ["json", "|"], ["json", '"|"'], ["json", '"gpt|"'], ["yaml", "|"], ["yaml", "'|'"], ["yaml", '"gp|"'], ["yaml", "gp|"],
    ];
    for (const [format, hole] of cases) {
      const doc = base();
      doc.steps[IDX.summarize].with.model = "HOLE";
      const text = render(doc, format);
      const marked = text.replace(format === "json" ? '"HOLE"' : "HOLE", hole);
      const r = complete(marked, format, render(base(), format)); // `"model": ,` does not parse
      assert.ok(r.labels.includes("gpt-4o-mini"), `${format} ${hole}: ${r.labels}`);
      const after = accept(r.text, r.item("gpt-4o-mini"));
      const a = assertParses(after, format);
      assert.equal((a.document.value as Json).steps[IDX.summarize].with.model, "gpt-4o-mini", `${format} ${hole}`);
      assert.deepEqual(codes(a), [], `${format} ${hole}:\n${after}`);
    }
  });

  test("YAML block needs: a `- ` item, and a blank line under the key", () => {
    const good = render(base(), "yaml");
    const marked = good.replace("    needs:\n      - fan\n    with:\n      model: gpt-4o-mini\n      prompt: Summarize", "    needs:\n      - fan\n      - |\n    with:\n      model: gpt-4o-mini\n      prompt: Summarize");
    const r = complete(marked, "yaml", good);
    assert.deepEqual(r.labels.sort(), ["check", "load", "route", "worker"]);
    const after = accept(r.text, r.item("load"));
    assert.deepEqual((assertParses(after, "yaml").document.value as Json).steps[IDX.summarize].needs, ["fan", "load"]);
  });
});

describe("keys and snippets", () => {
  for (const format of FORMATS) {
    test(`step keys, without the ones written (${format})`, () => {
      const doc = base();
      doc.steps[IDX.summarize].HOLE = 1;
      const r = complete(fixture(doc, format, { json: '"HOLE": 1', yaml: "HOLE: 1" }, { json: "|", yaml: "|" }), format);
      assert.deepEqual(r.labels.sort(), ["input", "maxVisits", "onFailure", "sensitive"]);
    });

    test(`with keys of each type (${format})`, () => {
      const keysFor = (i: number, extra: (d: Json) => void = () => undefined) => {
        const doc = base();
        extra(doc);
        doc.steps[i].with.HOLE = 1;
        return complete(fixture(doc, format, { json: '"HOLE": 1', yaml: "HOLE: 1" }, "|"), format).labels.sort();
      };
      assert.deepEqual(keysFor(IDX.summarize), ["args", "system"]);
      assert.deepEqual(keysFor(IDX.load), ["args"]);
      assert.deepEqual(keysFor(IDX.route), []);
      assert.deepEqual(keysFor(IDX.fan, (d) => { delete d.steps[IDX.fan].with.cardinality; delete d.steps[IDX.fan].with.failureMode; }), ["cardinality", "failureMode"]);
    });

    test(`key snippets produce valid shapes when expanded (${format})`, () => {
      const cases: Array<[string, string[], (d: Json) => Json]> = [
        ["cardinality", ["cardinality"], (d) => d.steps[IDX.fan].with],
        ["fanIn", ["fanIn"], (d) => d.steps[IDX.fan].with],
        ["maxConcurrency", ["maxConcurrency"], (d) => d.steps[IDX.fan].with],
        ["output", ["output"], (d) => d.steps[IDX.summarize]],
        ["output", ["output"], (d) => d.steps[IDX.fan]],
        ["onFailure", [], (d) => d.steps[IDX.summarize]],
        ["maxVisits", [], (d) => d.steps[IDX.summarize]],
        ["model", ["model"], (d) => d.steps[IDX.summarize].with],
      ];
      for (const [label, remove, target] of cases) {
        const doc = base();
        const t = target(doc);
        for (const k of remove) delete t[k];
        t.HOLE = 1;
        const r = complete(fixture(doc, format, { json: '"HOLE": 1', yaml: "HOLE: 1" }, "|"), format, render(base(), format));
        const after = accept(r.text, r.item(label));
        assert.deepEqual(codes(assertParses(after, format)), [], `${label}:\n${after}`);
      }
    });

    test(`a new step of each type, as a snippet in the document's syntax (${format})`, () => {
      for (const uses of ["ai.generate", "tool.call", "code.run", "parallel", "decision"]) {
        const r = complete(newStepMarker(format), format, render(base(), format));
        const after = accept(r.text, r.item(`${uses} step`));
        const a = assertParses(after, format);
        const steps = (a.document.value as Json).steps;
        assert.equal(steps.length, 7, after);
        assert.equal(steps[6].uses, uses);
        const mine = a.findings.filter((f) => f.path.startsWith("$.steps[6]"));
        assert.deepEqual(mine.map((f) => f.code), [], `${uses}:\n${after}`);
        const others = codes(a).filter((c) => !c.includes("$.steps[6]"));
        assert.deepEqual(others, uses === "decision" ? [] : ["terminal.ambiguous $.steps"], `${uses}: only the new terminal`);
      }
    });

    test(`a new body step: no parallel offered (${format})`, () => {
      const doc = base();
      doc.steps[IDX.fan].steps.push("HOLE");
      const r = complete(fixture(doc, format, { json: '"HOLE"', yaml: "- HOLE" }, { json: "|", yaml: "- |" }), format, render(base(), format));
      assert.deepEqual(r.labels, ["ai.generate step", "tool.call step", "code.run step", "decision step"]);
      const after = accept(r.text, r.item("ai.generate step"));
      const a = assertParses(after, format);
      assert.deepEqual(codes(a), [], after);
    });
  }

  test("YAML: a blank line in the steps list gets `- ` and the snippet is indented to the cursor column", () => {
    const text = render(base(), "yaml");
    const r = complete(text + "  |", "yaml");
    const item = r.item("tool.call step");
    const newText = (item.textEdit as TextEdit).newText;
    assert.ok(newText.startsWith("- id: ${1:call}\n    uses: tool.call\n    with:\n      tool: ${2|search,fetch|}"), newText);
    const after = accept(r.text, item);
    assert.equal((assertParses(after, "yaml").document.value as Json).steps.length, 7);
  });

  test("JSON: a comma goes before a new member when the previous one lacks it", () => {
    const text = render(base(), "json").replace('"output": {\n        "mode": "text"\n      }\n    }\n  ]', '"output": {\n        "mode": "text"\n      }\n      |\n    }\n  ]');
    const r = complete(text, "json");
    const item = r.item("maxVisits");
    const after = accept(r.text, item);
    assert.equal((assertParses(after, "json").document.value as Json).steps[IDX.summarize].maxVisits, 2);
  });
});

describe("more shapes of text", () => {
  for (const format of FORMATS) {
    test(`CRLF line endings (${format})`, () => {
      const marked = holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.load.output.| }}"').replace(/\n/g, "\r\n");
      const r = complete(marked, format);
      assert.deepEqual(r.labels, ["rows", "meta"]);
      const after = accept(r.text, r.item("load" === "load" ? "meta" : "rows"));
      assert.ok(after.includes("{{ steps.load.output.meta }}"));
      const n = complete(holeAt(format, (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.| }}"').replace(/\n/g, "\r\n"), format);
      const withNeeds = accept(n.text, n.item("load"));
      assert.equal(count(assertParses(withNeeds, format), "step.undeclared_dependency"), 0);
    });

    test(`a partial key is replaced; with a colon after it only the name (${format})`, () => {
      const doc = base();
      doc.steps[IDX.summarize].HOLE = 1;
      const partial = complete(fixture(doc, format, { json: '"HOLE": 1', yaml: "HOLE: 1" }, { json: '"maxV|"', yaml: "maxV|" }), format, render(base(), format));
      const after = accept(partial.text, partial.item("maxVisits"));
      assert.equal((assertParses(after, format).document.value as Json).steps[IDX.summarize].maxVisits, 2);
      const named = complete(fixture(doc, format, { json: '"HOLE": 1', yaml: "HOLE: 1" }, { json: '"maxV|": 4', yaml: "maxV|: 4" }), format);
      const renamed = accept(named.text, named.item("maxVisits"));
      assert.equal((assertParses(renamed, format).document.value as Json).steps[IDX.summarize].maxVisits, 4);
    });
  }

  test("YAML: nothing inside comments; a space after a bare colon", () => {
    const good = render(base(), "yaml");
    const comment = good.replace("      model: gpt-4o-mini\n      prompt: Summarize", "      # {{ steps.|\n      model: gpt-4o-mini\n      prompt: Summarize");
    assert.deepEqual(complete(comment, "yaml", good).labels, []);
    const trailing = good.replace("      prompt: Summarize {{ steps.fan.output }}", "      prompt: Summarize {{ steps.fan.output }} # steps.|");
    assert.deepEqual(complete(trailing, "yaml", good).labels, []);
    const colon = good.replace("    uses: tool.call\n", "    uses:|\n");
    const r = complete(colon, "yaml", good);
    const after = accept(r.text, r.item("tool.call"));
    assert.equal((assertParses(after, "yaml").document.value as Json).steps[IDX.load].uses, "tool.call");
  });

  test("YAML: an empty `needs:` gets the entry after its colon", () => {
    const good = render(base(), "yaml");
    const marked = good.replace("    needs:\n      - fan\n    with:\n      model: gpt-4o-mini\n      prompt: Summarize {{ steps.fan.output }}",
      "    needs:\n    with:\n      model: gpt-4o-mini\n      prompt: Summarize {{ steps.fan.output }} {{ steps.| }}");
    const r = complete(marked, "yaml", good);
    const after = accept(r.text, r.item("load"));
    assert.ok(after.includes("    needs: [load]\n"), after);
  });

  test("JSON: the bracket form typed inside a JSON string (escaped quotes)", () => {
    const marked = holeAt("json", (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps[\\"lo|\\"].output }}"');
    const r = complete(marked, "json");
    const after = accept(r.text, r.item("load"));
    assert.equal((assertParses(after, "json").document.value as Json).steps[IDX.summarize].with.prompt, '{{ steps["load"].output }}');
  });

  test("YAML: `- i|` in a step list offers the new steps and the step keys", () => {
    const text = render(base(), "yaml");
    const r = complete(text + "  - i|", "yaml", text);
    assert.ok(r.labels.includes("ai.generate step") && r.labels.includes("id"));
    const after = accept(r.text, r.item("id"));
    assert.ok(after.endsWith("  - id: step"), after.slice(-40));
    const snippet = accept(r.text, r.item("decision step"));
    assert.deepEqual(codes(assertParses(snippet, "yaml")), []);
  });

  test("YAML written in flow style (a JSON-like document)", () => {
    const marked = JSON.stringify(base(), null, 2).replace('"Summarize {{ steps.fan.output }}"', '"Summarize {{ steps.| }}"');
    const r = complete(marked, "yaml");
    assert.deepEqual(r.labels.sort(), ["check", "fan", "load", "route", "worker"]);
    const after = accept(r.text, r.item("load"));
    assert.equal(count(assertParses(after, "yaml"), "step.undeclared_dependency"), 0);
  });

  test("JSON: a new step in an empty list, and keys in an empty step object", () => {
    const doc = base();
    doc.steps[IDX.fan].with.items = "{{ input.list }}";
    doc.steps[IDX.fan].steps = [];
    const text = JSON.stringify(doc, null, 2).replace('"steps": []', '"steps": [|]');
    const r = complete(text, "json");
    const after = accept(r.text, r.item("tool.call step"));
    const a = assertParses(after, "json");
    assert.deepEqual(codes(a), []);
    const keys = complete(JSON.stringify(doc, null, 2).replace('"steps": []', '"steps": [{|}]'), "json", JSON.stringify(base(), null, 2));
    assert.deepEqual(keys.labels.slice(0, 2), ["id", "uses"]);
  });

  test("the whole needs value and output.mode of a parallel step", () => {
    const r = complete(holeAt("yaml", (d) => { d.steps[IDX.summarize].needs = "HOLE"; }, "|"), "yaml");
    assert.ok(r.labels.includes("[load]"));
    const after = accept(r.text, r.item("[load]"));
    assert.deepEqual((assertParses(after, "yaml").document.value as Json).steps[IDX.summarize].needs, ["load"]);
    const mode = complete(holeAt("json", (d) => { d.steps[IDX.fan].output.mode = "HOLE"; }, '"|"'), "json");
    assert.deepEqual(mode.labels, ["array"]);
  });
});

/** The step list with the cursor where a new last step goes. */
function newStepMarker(format: Format): string {
  const text = render(base(), format);
  if (format === "yaml") return text + "  - |";
  const end = text.lastIndexOf("}\n  ]");
  return text.slice(0, end) + "},\n    |\n  ]\n}\n";
}

describe("cursor", () => {
  test("JSON path, key and value positions, comma needs", () => {
    const t = '{"a": {"b": [1, "x", {"c": "|"}]}}';
    const off = t.indexOf("|");
    const c = cursorAt(t.replace("|", ""), "json", off)!;
    assert.deepEqual(c.path, ["a", "b", 2, "c"]);
    assert.equal(c.kind, "value");
    const k = cursorAt('{"a": 1 }', "json", 8)!;
    assert.equal(k.kind, "key");
    assert.equal(k.commaBefore, 7);
  });

  test("YAML indentless sequences, nested items, comments and blank lines", () => {
    const src = "steps:\n- id: a\n  # comment\n\n  with:\n    x: 1\n- id: b\n  needs:\n  - a\n  - |\n";
    const off = src.indexOf("|");
    const c = cursorAt(src.replace("|", ""), "yaml", off)!;
    assert.deepEqual(c.path, ["steps", 1, "needs", 1]);
    assert.equal(c.frames.find((f) => f.path.length === 2)?.members.get("id"), "b");
  });

  test("offsetOf clamps like TextDocument and handles CRLF", () => {
    const t = "ab\r\ncd\nef";
    const doc = TextDocument.create("x", "plaintext", 0, t);
    for (const p of [{ line: 0, character: 1 }, { line: 1, character: 5 }, { line: 2, character: 0 }, { line: 9, character: 0 }]) {
      assert.equal(offsetOf(t, p), doc.offsetAt(p));
    }
  });
});

describe("snippets", () => {
  test("render in JSON and YAML, escape snippet syntax and expand", () => {
    const v = obj([["items", str("{{ ", ph("x", "input.a"), " }}")], ["list", arr([str("a"), str("b")])], ["deep", obj([["k", str("v")], ["o", obj([["z", str("1")]], true)]], false)]], false);
    const json = renderMember("with", v, { format: "json", indent: 4, unit: 2 });
    assert.equal(expandSnippet(json), '"with": {\n      "items": "{{ input.a }}",\n      "list": ["a", "b"],\n      "deep": {\n        "k": "v",\n        "o": {"z": "1"}\n      }\n    }');
    const yaml = renderMember("with", v, { format: "yaml", indent: 4, unit: 2 });
    assert.equal(expandSnippet(yaml), 'with:\n      items: "{{ input.a }}"\n      list: [a, b]\n      deep:\n        k: v\n        o: {z: "1"}');
    assert.ok(json.includes("\\}\\}"), "braces are escaped in snippet text");
    assert.equal(expandSnippet(renderValue(str(ph("m", "a$b")), { format: "json", indent: 0, unit: 2 })), '"a$b"');
  });
});

describe("long step lists: a window that follows what is typed", () => {
  // 600 chained steps s0..s599 before summarize; the cursor goes into s300's prompt (or needs)
  const N = 600;
  function long(format: Format, set: (step: Json) => void): string {
    const doc = base();
    for (let i = 0; i < N; i++) {
      doc.steps.splice(IDX.summarize + i, 0, {
        id: `s${i}`, uses: "ai.generate", needs: i > 0 ? [`s${i - 1}`] : [],
        with: { model: "gpt-4o-mini", prompt: `Step ${i}` },
        output: { mode: "object", schema: { type: "object" } },
      });
    }
    set(doc.steps[IDX.summarize + 300]);
    return render(doc, format);
  }
  const mark = (text: string, replace: string) => {
    const hole = text.match(/"HERE"|HERE/)!;
    assert.equal(text.indexOf(hole[0], hole.index! + 1), -1, "one hole");
    return text.slice(0, hole.index) + replace + text.slice(hole.index! + hole[0].length);
  };

  for (const format of FORMATS) {
    test(`past ${STEP_ITEMS_LIMIT} ids: the nearest steps and the needs, marked incomplete (${format})`, () => {
      const r = complete(mark(long(format, (s) => { s.with.prompt = "HERE"; }), '"{{ steps.| }}"'), format);
      assert.equal(r.incomplete, true);
      assert.equal(r.items.length, STEP_ITEMS_LIMIT);
      // s299 (in needs), then the 199 nearest: s200..s400 without s300 itself
      const expected = Array.from({ length: 201 }, (_, k) => `s${200 + k}`).filter((id) => id !== "s300");
      assert.deepEqual([...r.labels].sort(), expected.sort());
      // shown in document order, needs first
      assert.deepEqual([...r.items].sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1)).map((i) => i.label).slice(0, 3), ["s299", "s200", "s201"]);
    });

    test(`what is typed filters all the steps, far ones included (${format})`, () => {
      const r = complete(mark(long(format, (s) => { s.with.prompt = "HERE"; }), '"{{ steps.s1| }}"'), format);
      assert.equal(r.incomplete, true, "the answer was filtered: typing on must ask again");
      const prefixed = Array.from({ length: N }, (_, i) => `s${i}`).filter((id) => id.startsWith("s1") && id !== "s300");
      assert.ok(prefixed.length < STEP_ITEMS_LIMIT);
      for (const id of prefixed) assert.ok(r.labels.includes(id), `${id} starts with what is typed`);
      for (const label of r.labels) assert.ok(subsequence("s1", label), `${label} matches s1`);
      const s12 = complete(mark(long(format, (s) => { s.with.prompt = "HERE"; }), '"{{ steps.S12| }}"'), format);
      assert.ok(s12.labels.includes("s12") && s12.labels.includes("s129") && !s12.labels.includes("s13"), "ignoring case");
    });

    test(`needs entries of a long list are a window too (${format})`, () => {
      const text = long(format, (s) => { s.needs = ["HERE"]; });
      const r = complete(mark(text, format === "json" ? '"s|"' : "s|"), format);
      assert.equal(r.incomplete, true);
      const nearest = Array.from({ length: 201 }, (_, k) => `s${200 + k}`).filter((id) => id !== "s300");
      assert.deepEqual([...r.labels].sort(), nearest.sort(), "all match `s`: the 200 nearest");
      const typed = complete(mark(text, format === "json" ? '"s29|"' : "s29|"), format);
      assert.equal(typed.incomplete, true);
      assert.deepEqual([...typed.labels].sort(), Array.from({ length: N }, (_, i) => `s${i}`).filter((id) => id !== "s300" && subsequence("s29", id)).sort());
    });
  }

  test("a short list is complete and unfiltered", () => {
    const r = complete(holeAt("json", (d) => { d.steps[IDX.summarize].with.prompt = "HOLE"; }, '"{{ steps.zz| }}"'), "json");
    assert.equal(r.incomplete, false);
    assert.deepEqual([...r.labels].sort(), ["check", "fan", "load", "route", "worker"], "the client filters a complete list itself");
  });

  test("stepWindow ranks pinned, then enclosing lists, then distance (earlier first)", () => {
    const facts = workflowFacts({
      steps: [
        ...Array.from({ length: 8 }, (_, i) => ({ id: `a${i}`, uses: "ai.generate" })),
        { id: "p", uses: "parallel", needs: ["a0"], with: {}, steps: Array.from({ length: 8 }, (_, i) => ({ id: `b${i}`, uses: "ai.generate" })) },
      ],
    })!;
    const body = facts.lists[1];
    const candidates = [...body.steps, ...body.external.values()];
    const w = stepWindow(candidates, { typed: "", list: body, center: 4, pinned: (s) => s.id === "b7", limit: 5 });
    assert.equal(w.truncated, true);
    assert.deepEqual(w.steps.map((s) => s.id), ["b3", "b4", "b5", "b7", "a0"], "b7 pinned, a0 enclosing, then b4 (distance 0), b3 before b5");
    const all = stepWindow(candidates, { typed: "", list: body, center: 4, pinned: () => false, limit: 9 });
    assert.deepEqual({ truncated: all.truncated, n: all.steps.length }, { truncated: false, n: 9 });
    assert.deepEqual(stepWindow(candidates, { typed: "B6", list: body, center: 0, pinned: () => false, limit: 5 }).steps.map((s) => s.id), ["b6"]);
  });
});

describe("right after an edit, JSON: the step around the cursor suffices", () => {
  const BIG = 300;
  function big(): Json {
    const doc = base();
    for (let i = 0; i < BIG; i++) {
      doc.steps.splice(IDX.summarize + i, 0, {
        id: `s${i}`, uses: "ai.generate", needs: i > 0 ? [`s${i - 1}`] : [],
        with: { model: "gpt-4o-mini", prompt: `Step ${i}: {{ steps` }, output: { mode: "object", schema: { type: "object" } },
      });
    }
    return doc;
  }
  const before = render(big(), "json");
  const last = analyzeText(before, "json");
  const site = before.indexOf("Step 150: {{ steps") + "Step 150: {{ steps".length;
  const type = (typed: string, at = site) => before.slice(0, at) + typed + before.slice(at);
  const positionIn = (text: string, offset: number) => TextDocument.create("x", "json", 0, text).positionAt(offset);

  test("typing `.` after `{{ steps`: the same answer as from the whole text, reading only around the step", () => {
    const text = type(".");
    const position = positionIn(text, site + 1);
    const { edited, longestSlice } = editedFrom(before, text);
    const near = provideCompletionNearCursor(edited, last, position);
    assert.ok(near, "answered near the cursor");
    assert.deepEqual(near, provideCompletionFromText(text, "json", last, position));
    assert.ok(near.items.some((i) => i.label === "s149") && near.items.every((i) => i.label !== "s150"));
    // the first 200 lines (the indent unit) and the step's lines: bounded, not the document
    assert.ok(longestSlice() < 6000 && text.length > 90_000, `read ${longestSlice()} of ${text.length} characters`);
    // accepting an id that needs a needs entry edits the step, at the right place in the whole text
    const item = near.items.find((i) => i.label === "s60")!;
    assert.equal(item.additionalTextEdits?.length, 1);
    const after = accept(text, item);
    assert.deepEqual((assertParses(after.replace("{{ steps.s60", "{{ steps.s60.output }}"), "json").document.value as Json).steps[IDX.summarize + 150].needs, ["s149", "s60"]);
  });

  test("where the step alone might not tell, it declines (the caller reads the whole text)", () => {
    const dotted = type(".");
    const decline = (text: string, offset: number, why: string, base = before) =>
      assert.equal(provideCompletionNearCursor(editedFrom(base, text).edited, last, positionIn(text, offset)), undefined, why);
    decline(type('."'), site + 2, "a quote typed");
    decline(type(".\n"), site + 3, "a line break typed");
    decline(before.replace('"Step 3: {{ steps"', '"Step 3: {{ stepsx"').replace("Step 150: {{ steps", "Step 150: {{ steps."), site + 1, "two changes");
    const elsewhere = before.replace("Step 3: {{ steps", "Step 3: {{ stepsx");
    decline(elsewhere, elsewhere.indexOf("Step 150: {{ steps") + 18, "the change is in another step");
    decline(dotted, site + 1, "not an edit of the analysed text", type("x", 0));
    const beyond = positionIn(dotted, site + 1);
    assert.equal(provideCompletionNearCursor(editedFrom(before, dotted).edited, last, { line: beyond.line, character: beyond.character + 500 }), undefined, "a position past the line's end");
    assert.equal(provideCompletionNearCursor(editedFrom(before, dotted).edited, analyzeText(render(big(), "yaml"), "yaml"), positionIn(dotted, site + 1)), undefined, "YAML");
  });

  test("it answered for the fixtures of this file too, always as from the whole text", () => {
    // (the check runs in complete(), for every JSON fixture where it applies)
    assert.ok(nearAnswers >= 40, `only ${nearAnswers} near-cursor answers`);
    console.log(`near-cursor answers: ${nearAnswers}`);
  });
});

describe("performance", () => {
  // Speed is measured by `npm run bench`, never asserted as wall-clock time here; what is asserted is that
  // completion answers from the text and the last analysis alone, on text no parser would accept.
  test("completion right after an edit on a 1,000-step document answers from the text and the last analysis", () => {
    for (const format of FORMATS) {
      const doc = base();
      for (let i = 0; i < 1000; i++) {
        doc.steps.splice(IDX.summarize, 0, {
          id: `s${i}`, uses: "ai.generate", needs: i > 0 ? [`s${i - 1}`] : [],
          with: { model: "gpt-4o-mini", prompt: `Step ${i}: {{ input.name }} and some longer prose to make the document realistic in size.` },
          output: { mode: "object", schema: { type: "object", properties: { a: { type: "string" }, b: { type: "number" } } } },
        });
      }
      const before = render(doc, format);
      const last = analyzeText(before, format);
      // type `{{ steps.` into the prompt of the last step (summarize)
      const anchor = format === "json" ? '"prompt": "Summarize {{ steps.fan.output }}"' : "prompt: Summarize {{ steps.fan.output }}";
      const at = before.indexOf(anchor) + anchor.length - (format === "json" ? 1 : 0);
      // the edit, plus a second one that leaves the document unparsable (an unclosed bracket at the end)
      const text = before.slice(0, at) + " {{ steps.s99" + before.slice(at) + "\n[";
      const offset = at + " {{ steps.s99".length;
      const position = TextDocument.create("x", "plaintext", 0, text).positionAt(offset);
      const labels = provideCompletionFromText(text, format, last, position).items.map((i) => i.label);
      assert.ok(analyzeText(text, format).document.parseErrors.length > 0, `${format}: the edited text must not parse`);
      assert.ok(labels.includes("s99") && labels.includes("s998"), `${format}: ${labels.slice(0, 5)}`);
    }
  });
});
