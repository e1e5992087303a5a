// Cycle-aware editing (issue #14 item 3), in JSON and YAML: `needs` and decision-target completion mark
// the candidates that would close a loop (sorted last, never hidden); `lwir.invalid_cycle` offers
// "Remove needs entry …" fixes before the maxVisits one; the editor squiggles the needs entry (or route)
// closing the loop while the CLI keeps the node's range; the hover says to remove the edge first.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CodeAction, CompletionItem, Diagnostic, TextEdit } from "vscode-languageserver-types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { provideCompletion } from "../../server/src/service/completion";
import { provideCodeActions } from "../../server/src/service/codeActions";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { provideHover } from "../../server/src/service/hover";
import { type Json, aiStep, decisionStep, toolStep, withSteps } from "./lwir-fixtures";

type Format = "json" | "yaml";
const FORMATS: Format[] = ["json", "yaml"];
const URI = { json: "file:///w/cycle.lwir.json", yaml: "file:///w/cycle.lwir.yaml" };

const render = (doc: Json, format: Format) => (format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc));

function reader(id: string, prompt: string, extra: Json = {}): Json {
  return aiStep(id, { with: { model: "model-a", prompt }, ...extra });
}

/** Completion at the only `|` of `marked`; `lastGood`: an earlier text whose analysis stands in when this one does not parse. */
function complete(marked: string, format: Format, lastGood?: string): CompletionItem[] {
  const offset = marked.indexOf("|");
  assert.ok(offset >= 0 && marked.indexOf("|", offset + 1) === -1, "one cursor marker");
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const analysis = analyzeText(text, format);
  const last = lastGood === undefined ? undefined : analyzeText(lastGood, format);
  return provideCompletion(analysis, last, analysis.document.positionAt(offset)).items;
}

/** Labels in the order an editor shows them before any typing (by sortText). */
const ordered = (items: CompletionItem[]) => [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label)).map((i) => i.label);

/** `text` with its only `"HOLE"` (JSON) or `HOLE` (YAML) replaced by `replace[format]`. */
function hole(doc: Json, format: Format, replace: { json: string; yaml: string }): string {
  const text = render(doc, format);
  const find = format === "json" ? '"HOLE"' : "HOLE";
  assert.equal(text.split(find).length, 2, "one hole");
  return text.replace(find, replace[format]);
}

describe("completion marks the candidates that close a cycle", () => {
  for (const format of FORMATS) {
    test(`needs entries: a step needing a later step that needs it (${format})`, () => {
      // b needs a, c needs b: a needing b or c closes a loop; d is unrelated.
      const doc = withSteps([
        toolStep("a", { needs: ["HOLE"] }),
        reader("b", "{{ steps.a.output }}", { needs: ["a"] }),
        reader("c", "{{ steps.b.output }}", { needs: ["b"] }),
        toolStep("d"),
      ]);
      const items = complete(hole(doc, format, { json: '"|"', yaml: "|" }), format);
      assert.deepEqual(ordered(items), ["d", "b", "c"], "the closing ones last, none hidden");
      const b = items.find((i) => i.label === "b")!;
      const c = items.find((i) => i.label === "c")!;
      const d = items.find((i) => i.label === "d")!;
      assert.match(b.detail ?? "", /^closes a cycle: a → b → a · /);
      assert.match(c.detail ?? "", /^closes a cycle: a → b → c → a · /);
      assert.deepEqual(b.labelDetails, { description: "closes a cycle" });
      assert.equal(d.labelDetails, undefined);
      assert.doesNotMatch(d.detail ?? "", /cycle/);
    });

    test(`needs value snippets: the same marks and order (${format})`, () => {
      const doc = withSteps([
        toolStep("a", { needs: "HOLE" }),
        reader("b", "{{ steps.a.output }}", { needs: ["a"] }),
        toolStep("d"),
      ]);
      // `"needs": ,` does not parse: the facts come from the text before it
      const items = complete(hole(doc, format, { json: "|", yaml: "|" }), format, hole(doc, format, { json: "[]", yaml: "[]" }));
      assert.deepEqual(ordered(items), ["[d]", "[b]"]);
      assert.match(items.find((i) => i.label === "[b]")!.detail ?? "", /^closes a cycle: a → b → a/);
    });

    test(`decision targets: a route back is marked neutrally, after end (${format})`, () => {
      const doc = withSteps([
        reader("draft", "Write about {{ input.topic }}", { maxVisits: 3 }),
        decisionStep("check", { cases: [{ when: "{{ len(steps.draft.lastOutput) > 10 }}", to: "HOLE" }], default: "end" }, { needs: ["draft"], maxVisits: 3 }),
        reader("publish", "{{ steps.draft.lastOutput }}", { needs: ["draft"] }),
      ]);
      const items = complete(hole(doc, format, { json: '"|"', yaml: "|" }), format);
      assert.deepEqual(ordered(items), ["publish", "end", "draft"]);
      const draft = items.find((i) => i.label === "draft")!;
      assert.match(draft.detail ?? "", /^loops back: check → draft → check · /);
      assert.deepEqual(draft.labelDetails, { description: "loops back" });
      assert.doesNotMatch(draft.detail ?? "", /closes a cycle/);
      assert.equal(items.find((i) => i.label === "publish")!.labelDetails, undefined);
    });
  }
});

// ---- the fixes -------------------------------------------------------------------------------------------

interface Setup {
  format: Format;
  text: string;
  analysis: Analysis;
  diagnostics: Diagnostic[];
}

function setup(text: string, format: Format): Setup {
  const analysis = analyzeText(text, format);
  assert.deepEqual(analysis.document.parseErrors, [], "the fixture parses");
  return { format, text, analysis, diagnostics: toDiagnostics(analysis, { uri: URI[format] }) };
}

function cycleActions(s: Setup): { diagnostic: Diagnostic; actions: CodeAction[] } {
  const diagnostic = s.diagnostics.find((d) => d.code === "lwir.invalid_cycle");
  assert.ok(diagnostic, `a cycle diagnostic among ${s.diagnostics.map((d) => d.code).join(", ")}`);
  const actions = provideCodeActions(s.analysis, { textDocument: { uri: URI[s.format] }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
  return { diagnostic, actions };
}

function apply(s: Setup, action: CodeAction): string {
  const edits: TextEdit[] = action.edit?.changes?.[URI[s.format]] ?? [];
  assert.ok(edits.length > 0, `${action.title} has edits`);
  return TextDocument.applyEdits(TextDocument.create(URI[s.format], s.format, 0, s.text), edits);
}

/** Applies the fix and re-validates: parses, the cycle finding is gone, every other finding was there before. */
function applyAndCheck(s: Setup, action: CodeAction): { text: string; value: Json } {
  const text = apply(s, action);
  const after = analyzeText(text, s.format);
  assert.deepEqual(after.document.parseErrors, [], `the fixed text parses:\n${text}`);
  assert.equal(after.findings.filter((f) => f.code === "lwir.invalid_cycle").length, 0, `the cycle is gone:\n${text}`);
  const before = s.analysis.findings.filter((f) => f.code !== "lwir.invalid_cycle").map((f) => `${f.code} ${f.message}`);
  for (const f of after.findings) assert.ok(before.includes(`${f.code} ${f.message}`), `no new finding: ${f.code} ${f.message}\n${text}`);
  return { text, value: after.document.value as Json };
}

const titles = (actions: CodeAction[]) => actions.map((a) => a.title);

/** a needs b (the entry that closes the loop), and x when listed (then x comes first and a reads it); b reads a and needs it. */
function twoStepLoop(aNeeds: string[]): Json {
  const x = aNeeds.includes("x");
  return withSteps([
    ...(x ? [toolStep("x")] : []),
    reader("a", x ? "{{ steps.x.output }}" : "{{ input.topic }}", { needs: aNeeds }),
    reader("b", "{{ steps.a.output }}", { needs: ["a"] }),
  ]);
}

describe("lwir.invalid_cycle: Remove needs entry", () => {
  for (const format of FORMATS) {
    test(`only the entry whose removal adds no finding; the last entry goes with its key (${format})`, () => {
      const s = setup(render(twoStepLoop(["b"]), format), format);
      const { diagnostic, actions } = cycleActions(s);
      // removing "a" from b would leave b reading a without needing it: not offered
      assert.deepEqual(titles(actions), ['Remove needs entry "b" from step "a"']);
      assert.equal(actions[0].isPreferred, true, "the only fix");
      assert.deepEqual(actions[0].diagnostics, [diagnostic]);
      const { text, value } = applyAndCheck(s, actions[0]);
      // `needs: []` would say nothing more and change the WorkflowVersion: the key goes with its last entry.
      assert.equal("needs" in value.steps[0], false, text);
      assert.equal((text.match(/needs/g) ?? []).length, 1, `only b's needs is left:\n${text}`);
    });

    test(`flow [x, b] and [b, x] keep their commas (${format})`, () => {
      for (const needs of [["x", "b"], ["b", "x"]]) {
        const doc = twoStepLoop(needs);
        const text = format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc, { flowCollectionPadding: false }).replace(/needs:\n\s+- (\w+)\n\s+- (\w+)\n/, "needs: [$1, $2]\n");
        if (format === "yaml") assert.ok(text.includes(`needs: [${needs.join(", ")}]`), text);
        const s = setup(text, format);
        const { actions } = cycleActions(s);
        assert.deepEqual(titles(actions), ['Remove needs entry "b" from step "a"']);
        const out = applyAndCheck(s, actions[0]);
        assert.deepEqual(out.value.steps[1].needs, ["x"]);
        if (format === "yaml") assert.ok(out.text.includes("needs: [x]\n"), out.text);
        else assert.ok(out.text.includes('"needs": [\n        "x"\n      ]\n'), out.text);
      }
    });

    test(`a self-need, with other entries and alone (${format})`, () => {
      for (const needs of [["x", "a"], ["a"]]) {
        const doc = withSteps([...(needs.includes("x") ? [toolStep("x")] : []), reader("a", "{{ input.topic }}", { needs })]);
        const s = setup(render(doc, format), format);
        const { actions } = cycleActions(s);
        assert.deepEqual(titles(actions), ['Remove needs entry "a" from step "a"']);
        const out = applyAndCheck(s, actions[0]);
        const kept = needs.filter((n) => n !== "a");
        assert.deepEqual(out.value.steps[out.value.steps.length - 1].needs, kept.length > 0 ? kept : undefined);
      }
    });

    test(`the edge that closes the loop in list order comes first; each offered one breaks it (${format})`, () => {
      // a → b → c → a, nobody reads anyone: every entry breaks the loop; c's entry in a closes it.
      const doc = withSteps([
        toolStep("a", { needs: ["c"] }),
        toolStep("b", { needs: ["a"] }),
        reader("c", "{{ input.topic }}", { needs: ["b"] }),
      ]);
      const s = setup(render(doc, format), format);
      const { actions } = cycleActions(s);
      assert.deepEqual(titles(actions), ['Remove needs entry "c" from step "a"', 'Remove needs entry "a" from step "b"', 'Remove needs entry "b" from step "c"']);
      assert.ok(actions.every((a) => a.isPreferred !== true), "none is clearly the one");
      // each leaves exactly one final step (the one whose only reader lost its entry)
      for (const action of actions) {
        const text = apply(s, action);
        const after = analyzeText(text, format);
        assert.equal(after.findings.filter((f) => f.code === "lwir.invalid_cycle").length, 0, `${action.title}:\n${text}`);
      }
      applyAndCheck(s, actions[0]);
    });

    test(`an entry whose removal leaves a smaller loop is not offered (${format})`, () => {
      // Two loops, a → b → a and a → b → c → a: only the edge a → b (b's need of a) is on both; any other
      // removal leaves one of them.
      const doc = withSteps([
        toolStep("a", { needs: ["b", "c"] }),
        toolStep("b", { needs: ["a"] }),
        reader("c", "{{ input.topic }}", { needs: ["b"] }),
      ]);
      const s = setup(render(doc, format), format);
      const { actions } = cycleActions(s);
      assert.deepEqual(titles(actions), ['Remove needs entry "a" from step "b"']);
      applyAndCheck(s, actions[0]);
    });

    test(`YAML block lists and JSON multi-line arrays (${format})`, () => {
      const doc = withSteps([
        toolStep("x"),
        toolStep("y"),
        reader("a", "{{ steps.x.output }} {{ steps.y.output }}", { needs: ["x", "b", "y"] }),
        reader("b", "{{ steps.a.output }}", { needs: ["a"] }),
      ]);
      const text = format === "json" ? render(doc, format) : toYaml(doc); // yaml writes block sequences
      if (format === "yaml") assert.match(text, /needs:\n\s+- x\n\s+- b\n\s+- y\n/);
      const s = setup(text, format);
      const { actions } = cycleActions(s);
      assert.deepEqual(titles(actions), ['Remove needs entry "b" from step "a"']);
      const out = applyAndCheck(s, actions[0]);
      assert.deepEqual(out.value.steps[2].needs, ["x", "y"]);
      if (format === "yaml") assert.match(out.text, /needs:\n(\s+)- x\n\1- y\n/);
      // and the only entry of a block list
      const single = withSteps([reader("a", "{{ input.topic }}", { needs: ["b"] }), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]);
      const s2 = setup(render(single, format), format);
      const { actions: actions2 } = cycleActions(s2);
      assert.deepEqual(titles(actions2), ['Remove needs entry "b" from step "a"']);
      const out2 = applyAndCheck(s2, actions2[0]);
      assert.equal(out2.value.steps[0].needs, undefined);
    });

    test(`decision routes are not removed; maxVisits comes after and is not preferred (${format})`, () => {
      // draft → check (needs) → draft (route); check's condition reads the input, so its need of draft may go.
      const doc = withSteps([
        reader("draft", "Write about {{ input.topic }}"),
        decisionStep("check", { cases: [{ when: "{{ input.topic == 'again' }}", to: "draft" }], default: "end" }, { needs: ["draft"] }),
      ]);
      const s = setup(render(doc, format), format);
      const { actions } = cycleActions(s);
      assert.deepEqual(titles(actions), ['Remove needs entry "draft" from step "check"', 'Set maxVisits to 2 on "draft", "check"']);
      assert.ok(actions.every((a) => a.isPreferred !== true));
      assert.ok(!actions.some((a) => /Remove .*"check"\W* from step "draft"|route|to:/.test(a.title)));
      applyAndCheck(s, actions[0]);
      // reading draft in the condition: the need is real, only maxVisits is left
      const reads = withSteps([
        reader("draft", "Write about {{ input.topic }}"),
        decisionStep("check", { cases: [{ when: "{{ len(steps.draft.output) > 10 }}", to: "draft" }], default: "end" }, { needs: ["draft"] }),
      ]);
      const r = cycleActions(setup(render(reads, format), format)).actions;
      assert.deepEqual(titles(r), ['Set maxVisits to 2 on "draft", "check" and read their lastOutput']);
      assert.notEqual(r[0].isPreferred, true);
    });

    test(`an entry whose removal would leave a second final step is not offered (re-validated) (${format})`, () => {
      // a ⇄ b, c needs b; nobody reads anyone. Without b's need of a, a would be a final step beside c.
      const doc = withSteps([
        toolStep("a", { needs: ["b"] }),
        toolStep("b", { needs: ["a"] }),
        reader("c", "{{ input.topic }}", { needs: ["b"] }),
      ]);
      const s = setup(render(doc, format), format);
      const { actions } = cycleActions(s);
      assert.deepEqual(titles(actions), ['Remove needs entry "b" from step "a"']);
      applyAndCheck(s, actions[0]);
      // the premise: the other removal does trade the cycle for terminal.ambiguous
      const other = structuredClone(doc);
      other.steps[1].needs = [];
      assert.deepEqual(analyzeText(render(other, format), format).findings.map((f) => f.code), ["terminal.ambiguous"]);
    });

    test(`a lastOutput read the loop allowed keeps its entry (${format})`, () => {
      const doc = withSteps([reader("a", "{{ steps.b.lastOutput }}", { needs: ["b"] }), reader("b", "{{ steps.a.lastOutput }}", { needs: ["a"] })]);
      assert.deepEqual(cycleActions(setup(render(doc, format), format)).actions, []);
    });
  }
});

// ---- where the squiggle is, and the hover ----------------------------------------------------------------

describe("lwir.invalid_cycle: the editor's range and the hover", () => {
  for (const format of FORMATS) {
    test(`the squiggle is on the needs entry that closes the loop; the finding keeps the node's range (${format})`, () => {
      const s = setup(render(twoStepLoop(["x", "b"]), format), format);
      const { diagnostic } = cycleActions(s);
      const finding = s.analysis.findings.find((f) => f.code === "lwir.invalid_cycle")!;
      assert.equal(finding.path, "$.steps");
      const doc = s.analysis.document;
      const slice = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
        s.text.slice(doc.offsetAt(r.start), doc.offsetAt(r.end));
      assert.equal(slice(diagnostic.range), format === "json" ? '"b"' : "b");
      assert.equal(diagnostic.range.start.line, doc.positionAt(s.text.indexOf(format === "json" ? '"b"\n' : "- b\n")).line);
      assert.notDeepEqual(finding.range, diagnostic.range, "the CLI's range stays the list's");
      assert.equal(doc.findingRange(["steps"]).start.line, finding.range.start.line);
      // a light bulb there: the editor may send no diagnostics in the context
      const actions = provideCodeActions(s.analysis, { textDocument: { uri: URI[format] }, range: diagnostic.range, context: { diagnostics: [] } });
      assert.deepEqual(titles(actions), ['Remove needs entry "b" from step "a"']);
    });

    test(`a self-need is squiggled on itself (${format})`, () => {
      const s = setup(render(withSteps([toolStep("x"), reader("a", "{{ input.topic }}", { needs: ["x", "a"] })]), format), format);
      const { diagnostic } = cycleActions(s);
      const doc = s.analysis.document;
      const at = doc.offsetAt(diagnostic.range.start);
      assert.equal(s.text.slice(at, doc.offsetAt(diagnostic.range.end)), format === "json" ? '"a"' : "a");
      assert.ok(at > s.text.indexOf(format === "json" ? '"x",' : "- x"), "the second entry, not x");
    });

    test(`a loop closed by a decision route is squiggled on the route (${format})`, () => {
      const doc = withSteps([
        reader("draft", "Write about {{ input.topic }}"),
        decisionStep("check", { cases: [{ when: "{{ input.topic == 'x' }}", to: "draft" }], default: "end" }, { needs: ["draft"] }),
      ]);
      const s = setup(render(doc, format), format);
      const { diagnostic } = cycleActions(s);
      const d = s.analysis.document;
      assert.equal(s.text.slice(d.offsetAt(diagnostic.range.start), d.offsetAt(diagnostic.range.end)), format === "json" ? '"draft"' : "draft");
      assert.equal(diagnostic.range.start.line, d.positionAt(s.text.indexOf(format === "json" ? '"to": "draft"' : "to: draft")).line);
    });

    test(`the hover on the squiggle says to remove the edge before making it a loop (${format})`, () => {
      const s = setup(render(twoStepLoop(["b"]), format), format);
      const { diagnostic } = cycleActions(s);
      const hover = provideHover(s.analysis, diagnostic.range.start);
      assert.ok(hover, "a hover on the squiggle");
      const value = (hover.contents as { value: string }).value;
      assert.match(value, /lwir\.invalid_cycle/);
      const fix = value.slice(value.indexOf("*How to fix:*"));
      const remove = fix.search(/remove the `needs` entry/i);
      assert.ok(remove >= 0, value);
      assert.ok(fix.indexOf("maxVisits") > remove && fix.indexOf("decision step") > remove, `removing comes first:\n${value}`);
    });
  }
});
