// Every skeleton completion inserts (New workflow, the step snippets, the `input`/`output` keys, the
// `schema` key of an input or an output) must leave the type checks on: a schema that lists no property
// is a free-form object, about which the checks say nothing (docs/type-checks.md), so `properties: {}`
// would silence every `input.x`. Each skeleton is accepted as the editor would with every default, and
// each value it declares is then read with a property no schema has: the read must be reported.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import { TextDocument } from "vscode-languageserver-textdocument";
import { InsertTextFormat, type CompletionItem, type TextEdit } from "vscode-languageserver-types";
import { analyzeText } from "../../server/src/service/analysis";
import { provideCompletion } from "../../server/src/service/completion";
import { typeNotices } from "../../server/src/service/diagnostics";
import { expandSnippet } from "../../server/src/service/snippets";
import { STEP_TYPES } from "../../server/src/lwir/validate";

type Format = "json" | "yaml";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const PROBE = "zzzNotDeclared";

function render(doc: Json, format: Format): string {
  return format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc, { lineWidth: 0 });
}

/** A valid workflow; `HOLE` (a key or a string) marks where the cursor goes. */
function base(): Json {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "w" },
    input: { schema: { type: "object", properties: { topic: { type: "string" } } } },
    output: { schema: { type: "string" } },
    permissions: { models: ["gpt-4o-mini"], tools: ["search"] },
    steps: [{ id: "first", uses: "ai.generate", with: { model: "gpt-4o-mini", prompt: "About {{ input.topic }}" }, output: { mode: "text" } }],
  };
}

/** Completion at the `HOLE: 1` member (a key position) or at `"HOLE"`; the item labelled `label`, accepted with every default. */
function acceptAt(doc: Json, format: Format, hole: string, label: string): string {
  const text = render(doc, format);
  const at = text.indexOf(hole);
  assert.ok(at >= 0 && text.indexOf(hole, at + 1) < 0, `one ${hole} in\n${text}`);
  const marked = text.slice(0, at) + text.slice(at + hole.length);
  const analysis = analyzeText(marked, format);
  const lastGood = analyzeText(render(base(), format), format);
  const items = provideCompletion(analysis, lastGood, analysis.document.positionAt(at)).items;
  const item = items.find((i) => i.label === label);
  assert.ok(item, `${label} is offered (${format}); offered ${JSON.stringify(items.map((i) => i.label))}`);
  return accept(marked, item);
}

function accept(text: string, item: CompletionItem): string {
  const doc = TextDocument.create("file:///x", "plaintext", 0, text);
  const main = item.textEdit as TextEdit;
  const edits = [
    { start: doc.offsetAt(main.range.start), end: doc.offsetAt(main.range.end), text: item.insertTextFormat === InsertTextFormat.Snippet ? expandSnippet(main.newText) : main.newText },
    ...(item.additionalTextEdits ?? []).map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), text: e.newText })),
  ].sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/**
 * The reads of an undeclared property of each declared value of `text` (the input, each top-level step's
 * output) that nothing reports: neither a type check nor a runtime finding on that step's output.
 */
function silencedReads(text: string, format: Format): string[] {
  const value = analyzeText(text, format).document.value as Json;
  assert.ok(value && Array.isArray(value.steps), `a workflow:\n${text}`);
  const reads: Array<{ expr: string; needs?: string; step?: number }> = [];
  if (value.input && "schema" in value.input) reads.push({ expr: `input.${PROBE}` });
  value.steps.forEach((s: Json, i: number) => {
    if (s.uses !== "decision") reads.push({ expr: `steps.${s.id}.output.${PROBE}`, needs: s.id, step: i });
  });
  assert.ok(reads.length > 0);
  const silenced: string[] = [];
  for (const read of reads) {
    const probe = structuredClone(value);
    probe.steps.push({
      id: "probe", uses: "ai.generate", ...(read.needs ? { needs: [read.needs] } : {}),
      with: { model: probe.permissions.models[0], prompt: `Read {{ ${read.expr} }}` }, output: { mode: "text" },
    });
    const analysis = analyzeText(render(probe, format), format);
    const probeString = ["steps", probe.steps.length - 1, "with", "prompt"];
    const warned = typeNotices(analysis).some((n) => JSON.stringify(n.segments) === JSON.stringify(probeString));
    const refused = read.step !== undefined && analysis.findings.some((f) => f.path.startsWith(`$.steps[${read.step}].output`));
    if (!warned && !refused) silenced.push(read.expr);
  }
  return silenced;
}

/** The skeletons, each accepted into a document: [what, the document after]. */
function skeletons(format: Format): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const empty = analyzeText("", format);
  const newWorkflow = provideCompletion(empty, undefined, { line: 0, character: 0 }).items.find((i) => i.label === "New workflow");
  assert.ok(newWorkflow, "New workflow is offered in an empty document");
  out.push(["New workflow", accept("", newWorkflow)]);

  // the top-level input and output keys, where the document lacks them
  for (const key of ["input", "output"]) {
    const doc = base();
    delete doc[key];
    doc.HOLE = 1;
    out.push([`the ${key} key`, acceptAt(doc, format, format === "json" ? '"HOLE": 1' : "HOLE: 1", key)]);
    const inside = base();
    inside[key] = { HOLE: 1 };
    out.push([`schema in ${key}`, acceptAt(inside, format, format === "json" ? '"HOLE": 1' : "HOLE: 1", "schema")]);
  }

  // a new step of each type, after the first
  for (const uses of STEP_TYPES) {
    const doc = base();
    doc.steps.push("HOLE");
    const text = acceptAt(doc, format, format === "json" ? '"HOLE"' : "- HOLE", `${uses} step`);
    out.push([`the ${uses} step snippet`, text]);
  }

  // a step's output key, and the schema key of a step output in object mode
  for (const uses of ["ai.generate", "tool.call"]) {
    const doc = base();
    if (uses === "tool.call") doc.steps[0] = { id: "first", uses, with: { tool: "search" } };
    else delete doc.steps[0].output;
    doc.steps[0].HOLE = 1;
    out.push([`the output key of a ${uses} step`, acceptAt(doc, format, format === "json" ? '"HOLE": 1' : "HOLE: 1", "output")]);
  }
  const objectMode = base();
  objectMode.steps[0].output = { mode: "object", HOLE: 1 };
  out.push(["schema in a step's output", acceptAt(objectMode, format, format === "json" ? '"HOLE": 1' : "HOLE: 1", "schema")]);
  return out;
}

for (const format of ["json", "yaml"] as Format[]) {
  describe(`skeletons keep the type checks on (${format})`, () => {
    test("the probe itself: `properties: {}` silences a read, a declared property does not", () => {
      const open = base();
      open.input.schema.properties = {};
      assert.deepEqual(silencedReads(render(open, format), format), [`input.${PROBE}`]);
      assert.deepEqual(silencedReads(render(base(), format), format), []);
    });

    for (const [what, text] of skeletons(format)) {
      test(`${what}: no read of an undeclared property goes unreported`, () => {
        assert.deepEqual(analyzeText(text, format).document.parseErrors, [], `parses:\n${text}`);
        assert.deepEqual(silencedReads(text, format), [], `after ${what}:\n${text}`);
      });
    }
  });
}
