// Fix titles in one style (docs/fix-titles.md): every code action title the server produces, collected
// from the light bulb over the whole corpus (each diagnostic of each document, the syntax cases too), an
// empty document, and fixtures for the fixes the corpus does not reach, is checked against the style.
// The test also requires each family of fixes to have been seen, so a fix that stops being reached here
// is noticed rather than silently unchecked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { stringify as toYaml } from "yaml";
import { analyzeText } from "../../server/src/service/analysis";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { provideCodeActions } from "../../server/src/service/codeActions";
import { FIX_ALL_KIND } from "../../server/src/protocol";
import { CONFORMANCE, REALWORLD, SYNTAX, corpusCases } from "../corpus";
import { type Json, aiStep, baseWorkflow, withSteps } from "./lwir-fixtures";

/** The verbs a fix title may start with (imperative, capitalised). */
const VERBS = ["Add", "Allow", "Change", "Declare", "Empty", "Fix", "Insert", "Put", "Quote", "Read", "Remove", "Set", "Use"];
/** The one title that names what it makes: the same words as the completion item that writes it. */
const NOUN_TITLES = new Set(["New workflow"]);

/** What is wrong with a title, by the style of docs/fix-titles.md; empty when it keeps it. */
export function titleStyleProblems(title: string): string[] {
  const out: string[] = [];
  if (title !== title.trim() || /\s{2,}/.test(title)) out.push("white space at an end or doubled");
  if (/[.!?:;,]$/.test(title)) out.push("ends with punctuation (no full stop)");
  if (title.length > 100) out.push("longer than 100 characters");
  if (NOUN_TITLES.has(title)) return out;
  const first = title.split(" ")[0];
  if (!VERBS.includes(first)) out.push(`starts with "${first}", not an imperative verb of ${VERBS.join(", ")}`);
  // What is outside the user's own text (double-quoted names, {{ }} templates) follows the style.
  const outside = title.replace(/\{\{.*?\}\}…?/g, " ").replace(/"[^"]*"/g, " ");
  if (/['`‘’“”]/.test(outside)) out.push("a name in other quotes than straight double quotes");
  // A colon belongs to the user's text or a value written as the document writes it ({kind: …}), not to the sentence.
  if (/:/.test(outside.replace(/\{[^{}]*\}/g, " "))) out.push("a colon in the sentence");
  for (const word of outside.split(/\s+/).slice(1)) {
    if (/^[A-Z][a-z]+$/.test(word)) out.push(`"${word}" capitalised: titles are in sentence case`);
  }
  return out;
}

function titlesOf(text: string, format: "json" | "yaml", into: Set<string>): void {
  const analysis = analyzeText(text, format);
  const uri = "file:///w/t";
  const diagnostics = toDiagnostics(analysis, { uri });
  const requests = [...diagnostics.map((d) => ({ range: d.range, diagnostics: [d] })),
    ...analysis.document.parseErrors.map((p) => ({ range: p.range, diagnostics: [] }))];
  for (const r of requests) {
    for (const a of provideCodeActions(analysis, { textDocument: { uri }, range: r.range, context: { diagnostics: r.diagnostics } })) into.add(a.title);
  }
  const whole = { start: { line: 0, character: 0 }, end: analysis.document.positionAt(text.length) };
  for (const a of provideCodeActions(analysis, { textDocument: { uri }, range: whole, context: { diagnostics: [], only: [FIX_ALL_KIND] } })) into.add(a.title);
}

/** Fixes the corpus does not reach. */
function fixtures(): Array<[string, "json" | "yaml"]> {
  const choice = withSteps([
    aiStep("classify", { output: { mode: "choice", values: ["a", "b"] } }),
    aiStep("pick", { output: { mode: "choice" } }),
    aiStep("label", { needs: ["classify"], with: { model: "model-a", prompt: "{{ steps.classify.output.label }} {{ input.ticket }} {{ input.topik }}" } }),
    aiStep("both", { with: { model: "model-a", prompt: "{{ steps.pick.output }} {{ steps.label.output }}" } }),
  ]);
  const cache = withSteps([aiStep("a", { cache: { ttl: 5 } })]);
  const perms: Json = baseWorkflow();
  perms.permissions.secrets = ["k"];
  perms.steps[1].with.model = "unlisted-large-model";
  const loop = withSteps([
    aiStep("draft", { with: { model: "model-a", prompt: "{{ steps.check.output }}" } }),
    aiStep("check", { needs: ["draft"], with: { model: "model-a", prompt: "{{ steps.draft.output }}" } }),
  ]);
  const json = JSON.stringify(baseWorkflow(), null, 2).replace('"kind": "Workflow",', '"kind": "Workflow"');
  const out: Array<[string, "json" | "yaml"]> = [["", "json"], ["", "yaml"], [json, "json"], ["apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\nmetadata:\n  name: a: b\n", "yaml"]];
  // a parallel step keyed by a number (lwir.item_key_not_string)
  const keyed: Json = withSteps([{
    id: "fan", uses: "parallel",
    with: { items: "{{ input.people }}", itemKey: "{{ item.id }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 1, failureMode: "all_settled", fanIn: { order: "input", output: "array" } },
    steps: [aiStep("greet", { with: { model: "model-a", prompt: "Greet {{ item.name }}" } })],
    output: { mode: "array", schema: { type: "array", items: { type: "object", required: ["itemKey", "status", "artifacts"], properties: { itemKey: {}, status: {}, artifacts: {}, output: {} } } } },
  }]);
  keyed.input.schema.properties.people = { type: "array", items: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } } };
  keyed.output.schema = { type: "array" };
  for (const d of [choice, cache, perms, loop, keyed]) out.push([JSON.stringify(d, null, 2), "json"], [toYaml(d), "yaml"]);
  out.push([toYaml(withSteps([aiStep("a", { with: { model: "model-a", prompt: "x" } }), aiStep("b", { needs: ["a"], with: { model: "model-a" } })])).replace("model: model-a\n    output", "model: model-a\n      prompt: {{ steps.a.output }}\n    output"), "yaml"]);
  return out;
}

/**
 * The shape of every title, one per family of fixes: the user's names in double quotes, the format's keys,
 * paths and templates bare. Every title must have one of these shapes, and each shape must be seen.
 */
const Q = '"[^"]+"';
const FAMILIES = [
  /^New workflow$/, /^Quote this value$/, /^Use a block scalar \(\|\)$/, /^Insert the missing comma$/, /^Fix all in file$/,
  new RegExp(`^Add ${Q} to the needs of (${Q}|this step)$`), /^Add all missing needs entries$/,
  new RegExp(`^Change ${Q} to ${Q}( and add ${Q}(, ${Q})* to the needs of (${Q}|this step))?$`),
  new RegExp(`^Remove needs entry ${Q} from step ${Q}$`),
  new RegExp(`^Set maxVisits to 2 on (${Q}|a step)(, (${Q}|a step))*( and read their lastOutput)?$`),
  /^Read steps\.\S+\.lastOutput instead of output$/, new RegExp(`^Remove cache from (${Q}|this step)$`), /^Empty permissions\.(secrets|network)$/,
  /^Remove permissions\.(secrets|network)$/, /^Remove repair\.model$/, new RegExp(`^Set (apiVersion|kind) to ${Q}$`), /^Set cardinality to \{kind: "matches_items"\}$/,
  new RegExp(`^Allow (model|tool) ${Q} in permissions\\.(models|tools)$`), new RegExp(`^Use the allowed (model|tool) ${Q}$`),
  /^Put \{\{.*in quotes$/, new RegExp(`^Add values to the output of (${Q}|this step)$`), /^Use steps\.\S+\.(output|lastOutput)$/,
  new RegExp(`^Declare ${Q} in input\\.schema$`),
  // the run-time checks (run/checks): a loop's read of a later step, a numeric itemKey
  /^Read steps\.\S+ through coalesce$/, /^Use json\(\S+\) as the key$/,
];

describe("fix titles in one style", () => {
  test("the style check itself", () => {
    assert.deepEqual(titleStyleProblems('Add "classify" to the needs of "write"'), []);
    assert.deepEqual(titleStyleProblems("Put {{ steps.a.output == 'x' }} in quotes"), []);
    assert.ok(titleStyleProblems("Add 'classify' to needs").length > 0, "single quotes");
    assert.ok(titleStyleProblems("Add needs entry.").length > 0, "a full stop");
    assert.ok(titleStyleProblems("Add Needs Entry").length > 0, "title case");
    assert.ok(titleStyleProblems("Needs entry for classify").length > 0, "not a verb");
    assert.ok(titleStyleProblems("Change to summary ").length > 0, "trailing space");
    assert.ok(titleStyleProblems('Set maxVisits: 2 on "a"').length > 0, "a colon");
  });

  test("every title the server produces keeps it", () => {
    const titles = new Set<string>();
    for (const dir of [CONFORMANCE, SYNTAX, REALWORLD]) {
      for (const c of corpusCases(dir)) titlesOf(readFileSync(c.file, "utf8"), c.format, titles);
    }
    for (const [text, format] of fixtures()) titlesOf(text, format, titles);
    const bad = [...titles].map((t) => [t, titleStyleProblems(t)] as const).filter(([, p]) => p.length > 0);
    assert.deepEqual(bad, [], "titles out of style");
    const shapeless = [...titles].filter((t) => !FAMILIES.some((f) => f.test(t)));
    assert.deepEqual(shapeless, [], "titles of no known shape (add the family, in the style, to FAMILIES and docs/fix-titles.md)");
    const missing = FAMILIES.filter((f) => ![...titles].some((t) => f.test(t)));
    assert.deepEqual(missing, [], `families not seen among:\n${[...titles].sort().join("\n")}`);
    assert.ok(titles.size >= FAMILIES.length);
  });
});
