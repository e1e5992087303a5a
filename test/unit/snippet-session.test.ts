// A snippet session as VS Code runs one: a step snippet is inserted, the user types over a placeholder
// and accepts a suggestion. VS Code ends the session when an accepted edit reaches outside the
// placeholder being typed in: Tab then no longer moves to the next place, and what is typed next lands
// in the wrong value (issue 14: the prompt typed into "model"). So every completion offered inside a
// snippet's placeholder must edit within it, and accepting it must leave a document that parses.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CompletionItem, TextEdit } from "vscode-languageserver-types";
import { analyzeText } from "../../server/src/service/analysis";
import { provideCompletion } from "../../server/src/service/completion";
import { STEP_TYPES } from "../../server/src/lwir/validate";

type Format = "json" | "yaml";

/** Snippet text → the text VS Code inserts (each placeholder its default or first choice) and the placeholders' ranges. */
function expand(snippet: string): { text: string; stops: Array<{ n: number; start: number; end: number }> } {
  let text = "";
  const stops: Array<{ n: number; start: number; end: number }> = [];
  const defaults = new Map<number, string>();
  for (let i = 0; i < snippet.length;) {
    const c = snippet[i];
    if (c === "\\" && i + 1 < snippet.length && "\\$}".includes(snippet[i + 1])) { text += snippet[i + 1]; i += 2; continue; }
    const m = /^\$(?:(\d+)|\{(\d+)(?:([:|])((?:\\.|[^\\}])*))?\})/.exec(snippet.slice(i));
    if (c === "$" && m) {
      const n = Number(m[1] ?? m[2]);
      let value = defaults.get(n) ?? "";
      if (m[3] === ":") value = m[4].replace(/\\(.)/g, "$1");
      if (m[3] === "|") value = /^((?:\\.|[^\\,|])*)/.exec(m[4])![1].replace(/\\(.)/g, "$1");
      if (m[3]) defaults.set(n, value);
      stops.push({ n, start: text.length, end: text.length + value.length });
      text += value;
      i += m[0].length;
      continue;
    }
    text += c;
    i++;
  }
  return { text, stops };
}

/** A one-step workflow and the place of a new step in its list (JSON: after a comma, which does not parse until the step is there; `valid` is the text before). */
function workflow(format: Format): { text: string; offset: number; valid: string } {
  const head = {
    apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "w" },
    input: { schema: { type: "object", properties: { topic: { type: "string" }, rows: { type: "array" } } } },
    permissions: { models: ["gpt-4o-mini", "gpt-4o"], tools: ["search"] },
  };
  const first = { id: "classify", uses: "ai.generate", with: { model: "gpt-4o-mini", prompt: "Classify {{ input.topic }}" }, output: { mode: "text" } };
  if (format === "json") {
    const text = JSON.stringify({ ...head, steps: [first] }, null, 2);
    const at = text.lastIndexOf("}\n  ]") + 1;
    const withNew = text.slice(0, at) + ",\n    " + text.slice(at);
    return { text: withNew, offset: at + ",\n    ".length, valid: text };
  }
  const lines = [
    "apiVersion: littleworkflow.dev/v0.1", "kind: Workflow", "metadata:", "  name: w",
    "input:", "  schema:", "    type: object", "    properties:", "      topic: {type: string}", "      rows: {type: array}",
    "permissions:", "  models: [gpt-4o-mini, gpt-4o]", "  tools: [search]",
    "steps:", "  - id: classify", "    uses: ai.generate", "    with:", "      model: gpt-4o-mini", '      prompt: "Classify {{ input.topic }}"',
    "    output:", "      mode: text", "  - ",
  ];
  const text = lines.join("\n") + "\n";
  return { text, offset: text.length - 1, valid: text.slice(0, -"  - \n".length) };
}

function offsetRange(doc: TextDocument, e: TextEdit): [number, number] {
  return [doc.offsetAt(e.range.start), doc.offsetAt(e.range.end)];
}

for (const format of ["json", "yaml"] as Format[]) {
  describe(`a step snippet's placeholders in ${format}`, () => {
    const uri = `file:///w.lwir.${format}`;
    const base = workflow(format);
    const baseDoc = TextDocument.create(uri, format, 1, base.text);
    const items = provideCompletion(analyzeText(base.text, format), analyzeText(base.valid, format), baseDoc.positionAt(base.offset)).items;
    for (const uses of STEP_TYPES) {
      test(`${uses}: each suggestion offered while typing over a placeholder edits inside it, and accepting it keeps the document parsing`, () => {
        assert.deepEqual(analyzeText(base.valid, format).document.parseErrors, []);
        const item = items.find((i) => i.label === `${uses} step`);
        assert.ok(item, `"${uses} step" is offered`);
        const edit = item.textEdit as TextEdit;
        const [from, to] = offsetRange(baseDoc, edit);
        const snippet = expand(edit.newText);
        const inserted = base.text.slice(0, from) + snippet.text + base.text.slice(to);
        const lastGood = analyzeText(inserted, format);
        assert.deepEqual(lastGood.document.parseErrors, [], `the snippet as inserted parses:\n${inserted}`);
        let checked = 0;
        for (const stop of snippet.stops) {
          if (stop.n === 0 || stop.end === stop.start) continue;
          const start = from + stop.start;
          const placeholder = inserted.slice(start, from + stop.end);
          const typed = placeholder.slice(0, 2);
          const text = inserted.slice(0, start) + typed + inserted.slice(from + stop.end);
          const doc = TextDocument.create(uri, format, 2, text);
          const cursor = start + typed.length;
          const offered: CompletionItem[] = provideCompletion(analyzeText(text, format), lastGood, doc.positionAt(cursor)).items;
          for (const o of offered) {
            const e = o.textEdit as TextEdit;
            const [s, t] = offsetRange(doc, e);
            assert.ok(s >= start && t <= cursor,
              `typing ${JSON.stringify(typed)} over placeholder ${JSON.stringify(placeholder)}: "${o.label}" edits ${JSON.stringify(text.slice(s, t))}, outside the placeholder`);
            assert.equal(o.additionalTextEdits, undefined, `"${o.label}" edits elsewhere too`);
            const accepted = text.slice(0, s) + e.newText + text.slice(t);
            if (o.insertTextFormat !== 2) {
              assert.deepEqual(analyzeText(accepted, format).document.parseErrors, [], `accepting "${o.label}" over ${JSON.stringify(typed)}:\n${accepted}`);
            }
            checked++;
          }
        }
        assert.ok(checked > 0, "some placeholder has suggestions");
      });
    }
  });
}
