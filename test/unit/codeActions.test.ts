// service/codeActions.ts: every quick fix in JSON and YAML, applied and re-validated. A fix must remove
// its finding, leave fewer findings and add none, and leave every line it does not touch byte-identical.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYamlText, stringify as toYaml } from "yaml";
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from "vscode-languageserver-types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { YAML_UNQUOTED_TEMPLATE, toDiagnostics } from "../../server/src/service/diagnostics";
import { FIX_ALL_TITLE, provideCodeActions } from "../../server/src/service/codeActions";
import { FIX_ALL_KIND } from "../../server/src/protocol";
import { FIX_ALL_IN_FILE_TITLE } from "../../server/src/service/fixAllInFile";
import { type Json, aiStep, baseWorkflow, codeRunStep, decisionStep, parallelStep, toolStep, withSteps } from "./lwir-fixtures";
import { GENERATOR } from "../corpus";

type Format = "json" | "yaml";
const FORMATS: Format[] = ["json", "yaml"];
const URI = { json: "file:///w/fix.lwir.json", yaml: "file:///w/fix.lwir.yaml" };

function render(doc: Json, format: Format): string {
  return format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc);
}

function reader(id: string, prompt: string, extra: Json = {}): Json {
  return aiStep(id, { with: { model: "model-a", prompt }, ...extra });
}

interface Setup {
  text: string;
  format: Format;
  analysis: Analysis;
  diagnostics: Diagnostic[];
}

function setup(text: string, format: Format): Setup {
  const analysis = analyzeText(text, format);
  assert.deepEqual(analysis.document.parseErrors, [], "the fixture parses");
  return { text, format, analysis, diagnostics: toDiagnostics(analysis, { uri: URI[format] }) };
}

/** The code actions for the diagnostic with this code (and path), as an editor asks: its range, itself in the context. */
function actionsFor(s: Setup, code: string, path?: string, only?: string[]): { diagnostic: Diagnostic; actions: CodeAction[] } {
  const diagnostic = s.diagnostics.find((d) => d.code === code && (path === undefined || (d.data as { path: string }).path === path));
  assert.ok(diagnostic, `a ${code} diagnostic${path ? ` at ${path}` : ""} among ${s.diagnostics.map((d) => `${d.code} ${(d.data as { path: string }).path}`).join(", ")}`);
  const actions = provideCodeActions(s.analysis, {
    textDocument: { uri: URI[s.format] }, range: diagnostic.range, context: { diagnostics: [diagnostic], ...(only ? { only } : {}) },
  });
  return { diagnostic, actions };
}

function editsOf(action: CodeAction, format: Format): TextEdit[] {
  const edits = action.edit?.changes?.[URI[format]];
  assert.ok(edits && edits.length > 0, `${action.title}: edits for the document`);
  return edits;
}

/** Applies LSP text edits (non-overlapping) to a text. */
function applyTextEdits(s: Setup, edits: TextEdit[]): string {
  const doc = s.analysis.document;
  const offs = edits.map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), text: e.newText }))
    .sort((a, b) => b.start - a.start);
  for (let i = 1; i < offs.length; i++) assert.ok(offs[i].end <= offs[i - 1].start, "edits do not overlap");
  let out = s.text;
  for (const e of offs) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

const key = (f: { code: string; path: string }) => `${f.path} ${f.code}`;
function counts(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of list) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/**
 * Applies the action and checks: the result parses; the targeted finding is gone (one fewer at its
 * code and path); fewer findings in all; no finding that was not there before; lines outside the
 * edited ones unchanged.
 */
function applyAndCheck(s: Setup, action: CodeAction, target: { code: string; path: string } | undefined): { text: string; after: Analysis } {
  const edits = editsOf(action, s.format);
  const text = applyTextEdits(s, edits);
  const after = analyzeText(text, s.format);
  assert.deepEqual(after.document.parseErrors, [], `the fixed text parses:\n${text}`);
  const before = counts(s.analysis.findings.map(key));
  const now = counts(after.findings.map(key));
  for (const [k, n] of now) assert.ok((before.get(k) ?? 0) >= n, `no new finding: ${k}\n${text}`);
  if (target) {
    assert.ok(after.findings.length < s.analysis.findings.length, `fewer findings (${s.analysis.findings.length} → ${after.findings.length})\n${text}`);
    assert.ok((now.get(key(target)) ?? 0) < (before.get(key(target)) ?? 0), `the targeted ${key(target)} is gone\n${text}`);
  }
  assertUntouchedLines(s, text, edits);
  return { text, after };
}

/** Every line before the first edited line and after the last one is byte-identical (line breaks included). */
function assertUntouchedLines(s: Setup, out: string, edits: TextEdit[]): void {
  const lines = (t: string) => t.split(/(?<=\n)/);
  const a = lines(s.text);
  const b = lines(out);
  const first = Math.min(...edits.map((e) => e.range.start.line));
  const last = Math.max(...edits.map((e) => e.range.end.line));
  assert.deepEqual(b.slice(0, first), a.slice(0, first), "lines before the edit");
  const tail = a.length - last - 1;
  assert.deepEqual(tail > 0 ? b.slice(b.length - tail) : [], tail > 0 ? a.slice(a.length - tail) : [], "lines after the edit");
  // And between edits: each edit only replaces its own range (a small region, not the document).
  for (const e of edits) assert.ok(e.range.end.line - e.range.start.line <= 6, `a small edit: ${JSON.stringify(e)}`);
}

function only(actions: CodeAction[], title: RegExp): CodeAction {
  const found = actions.filter((a) => title.test(a.title));
  assert.equal(found.length, 1, `one action matching ${title} among: ${actions.map((a) => a.title).join(" | ")}`);
  return found[0];
}

function checkFix(doc: Json | string, format: Format, code: string, path: string, title: RegExp, preferred = true): string {
  const s = setup(typeof doc === "string" ? doc : render(doc, format), format);
  const { diagnostic, actions } = actionsFor(s, code, path);
  const action = only(actions, title);
  assert.equal(action.kind, "quickfix");
  assert.deepEqual(action.diagnostics, [diagnostic]);
  assert.equal(action.isPreferred === true, preferred, `isPreferred of ${action.title}`);
  return applyAndCheck(s, action, { code, path }).text;
}

/** A generator document (bench/generate.mjs) and the errors it injected. */
function generate(args: { steps: number; seed: number; errors: number; format: Format }): { text: string; injected: Array<{ kind: string }> } {
  const dir = mkdtempSync(join(tmpdir(), "lwir-gen-"));
  const out = join(dir, `doc.lwir.${args.format}`);
  const r = spawnSync(process.execPath, [GENERATOR, "--steps", String(args.steps), "--seed", String(args.seed),
    "--errors", String(args.errors), "--format", args.format, "--out", out], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return { text: readFileSync(out, "utf8"), injected: args.errors > 0 ? JSON.parse(readFileSync(`${out}.errors.json`, "utf8")) : [] };
}

// ---- fixtures ----------------------------------------------------------------------------------

/** write reads gather but does not need it. */
function undeclared(): Json {
  const doc = baseWorkflow();
  delete doc.steps[1].needs;
  return doc;
}

function loop(over: { draft?: Json; critique?: Json; gate?: Json } = {}, extra: Json[] = []): Json {
  return withSteps([
    reader("draft", "Improve using {{ steps.critique.lastOutput }}", { maxVisits: 3, ...over.draft }),
    reader("critique", "Critique {{ steps.draft.lastOutput }}", { needs: ["draft"], maxVisits: 3, ...over.critique }),
    decisionStep("gate", { cases: [{ when: "{{ steps.critique.lastOutput == 'ok' }}", to: extra.length ? "publish" : "end" }], default: "draft" },
      { needs: ["critique"], maxVisits: 3, ...over.gate }),
    ...extra,
  ]);
}

for (const format of FORMATS) {
  describe(`quick fixes (${format})`, () => {
    test("step.undeclared_dependency: needs is created after uses", () => {
      const out = checkFix(undeclared(), format, "step.undeclared_dependency", "$.steps[1].with.prompt", /^Add "gather" to the needs of "write"$/);
      assert.ok(analyzeText(out, format).valid);
      // The document writes arrays one entry per line (JSON.stringify with indentation): so does the fix.
      if (format === "json") assert.match(out, /"uses": "ai.generate",\n      "needs": \[\n        "gather"\n      \],\n/);
      else assert.match(out, /uses: ai.generate\n    needs: \[ gather \]\n|uses: ai.generate\n    needs:\n      - gather\n|uses: ai.generate\n    needs: \[gather\]\n/);
    });

    test("step.undeclared_dependency: appended to an existing needs", () => {
      const doc = withSteps([toolStep("a"), toolStep("b"), reader("c", "{{ steps.a.output }} {{ steps.b.output }}", { needs: ["a"] })]);
      const out = checkFix(doc, format, "step.undeclared_dependency", "$.steps[2].with.prompt", /^Add "b" to the needs of "c"$/);
      assert.ok(analyzeText(out, format).valid, out);
    });

    test("step.undeclared_dependency: a body step reading an external step", () => {
      const doc = withSteps([toolStep("ctx"), parallelStep("fan", [reader("one", "{{ item }} {{ steps.ctx.output }}")], { needs: ["ctx"] })]);
      const out = checkFix(doc, format, "step.undeclared_dependency", "$.steps[1].steps[0].with.prompt", /^Add "ctx" to the needs of "one"$/);
      assert.ok(analyzeText(out, format).valid, out);
    });

    test("step.undeclared_dependency: nothing when the entry would close a cycle", () => {
      const doc = withSteps([reader("a", "{{ steps.b.output }}"), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]);
      const s = setup(render(doc, format), format);
      const { actions } = actionsFor(s, "step.undeclared_dependency", "$.steps[0].with.prompt");
      assert.deepEqual(actions, []);
    });

    test("fix all: every missing entry at once, as a quick fix and as source.fixAll.lwir", () => {
      const doc = withSteps([
        toolStep("a"), toolStep("b"),
        reader("c", "{{ steps.a.output }} {{ steps.b.output }}"),
        reader("d", "{{ steps.c.output }}"),
      ]);
      const s = setup(render(doc, format), format);
      const quick = actionsFor(s, "step.undeclared_dependency", "$.steps[2].with.prompt");
      const all = only(quick.actions, new RegExp(`^${FIX_ALL_TITLE}$`));
      assert.equal(all.kind, "quickfix");
      assert.equal(all.diagnostics!.length, 1);
      const { after } = applyAndCheck(s, all, { code: "step.undeclared_dependency", path: "$.steps[2].with.prompt" });
      assert.ok(after.valid, after.findings.map(key).join("\n"));
      const source = actionsFor(s, "step.undeclared_dependency", "$.steps[2].with.prompt", [FIX_ALL_KIND]).actions;
      // The source action is "Fix all in file" (lwir validate --fix): here the same entries, as one edit.
      assert.deepEqual(source.map((a) => [a.kind, a.title]), [[FIX_ALL_KIND, FIX_ALL_IN_FILE_TITLE]]);
      assert.equal(applyTextEdits(s, editsOf(source[0], format)), applyTextEdits(s, editsOf(all, format)));
      // `source` (the parent kind) asks for it too; a plain quick-fix request does not get the source action.
      assert.equal(actionsFor(s, "step.undeclared_dependency", "$.steps[2].with.prompt", ["source"]).actions.length, 1);
      assert.ok(!quick.actions.some((a) => a.kind === FIX_ALL_KIND));
      assert.ok(FIX_ALL_KIND.startsWith(`${CodeActionKind.SourceFixAll}.`), "a kind under LSP's source.fixAll, which editors run on save");
    });

    test("lwir.output_ambiguous_for_multi_visit: .output → .lastOutput", () => {
      const doc = withSteps([toolStep("a", { maxVisits: 2 }), reader("b", "{{ steps.a.output }} and {{ steps.a.lastOutput }}", { needs: ["a"] })]);
      const out = checkFix(doc, format, "lwir.output_ambiguous_for_multi_visit", "$.steps[1].with.prompt", /^Read steps\.a\.lastOutput instead of output$/);
      assert.ok(out.includes("{{ steps.a.lastOutput }} and {{ steps.a.lastOutput }}"), out);
      assert.ok(analyzeText(out, format).valid);
    });

    test("lwir.output_ambiguous_for_multi_visit: each occurrence the finding is about", () => {
      const doc = withSteps([toolStep("a", { maxVisits: 2 }), reader("b", "{{ steps.a.output }} / {{ steps.a.output.x }}", { needs: ["a"] })]);
      const s = setup(render(doc, format), format);
      const ambiguous = s.diagnostics.filter((d) => d.code === "lwir.output_ambiguous_for_multi_visit");
      assert.equal(ambiguous.length, 2);
      const results = ambiguous.map((d) => {
        const [action] = provideCodeActions(s.analysis, { textDocument: { uri: URI[format] }, range: d.range, context: { diagnostics: [d] } });
        return applyAndCheck(s, action, { code: "lwir.output_ambiguous_for_multi_visit", path: "$.steps[1].with.prompt" }).text;
      });
      assert.ok(results[0].includes("{{ steps.a.lastOutput }} / {{ steps.a.output.x }}"), results[0]);
      assert.ok(results[1].includes("{{ steps.a.output }} / {{ steps.a.lastOutput.x }}"), results[1]);
    });

    test("lwir.invalid_cycle: maxVisits 2 on each member below 2 (added or replaced)", () => {
      const doc = loop({ gate: { maxVisits: undefined }, draft: { maxVisits: 1 } });
      // not preferred: whether a loop is meant is for the author (removing an edge comes first where one may go)
      const out = checkFix(doc, format, "lwir.invalid_cycle", "$.steps", /^Set maxVisits to 2 on "draft", "gate"$/, false);
      assert.ok(analyzeText(out, format).valid, out);
    });

    test("lwir.invalid_cycle: .output reads of the members become .lastOutput", () => {
      const publish = reader("publish", "Publish {{ steps.critique.output }}", { needs: ["critique"] });
      const doc = loop({ critique: { maxVisits: undefined } }, [publish]);
      const out = checkFix(doc, format, "lwir.invalid_cycle", "$.steps", /^Set maxVisits to 2 on "critique" and read their lastOutput$/, false);
      assert.ok(analyzeText(out, format).valid, out);
      assert.ok(out.includes("Publish {{ steps.critique.lastOutput }}"));
    });

    test("lwir.invalid_cycle: nothing when the cycle also lacks a decision step", () => {
      const doc = withSteps([reader("a", "{{ steps.b.lastOutput }}", { needs: ["b"] }), reader("b", "{{ steps.a.lastOutput }}", { needs: ["a"] })]);
      const s = setup(render(doc, format), format);
      assert.deepEqual(actionsFor(s, "lwir.invalid_cycle", "$.steps").actions, []);
    });

    test("schema.unimplemented_field: remove cache", () => {
      const doc = withSteps([toolStep("a", { cache: { key: "{{ input.topic }}", ttl: 60 } }), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]);
      const out = checkFix(doc, format, "schema.unimplemented_field", "$.steps[0].cache", /^Remove cache from "a"$/);
      assert.ok(analyzeText(out, format).valid);
    });

    test("schema.unimplemented_field: empty permissions.secrets, or remove it", () => {
      const doc = baseWorkflow();
      doc.permissions.secrets = ["API_KEY", "OTHER"];
      const out = checkFix(doc, format, "schema.unimplemented_field", "$.permissions.secrets", /^Empty permissions\.secrets$/);
      assert.ok(analyzeText(out, format).valid);
      const out2 = checkFix(doc, format, "schema.unimplemented_field", "$.permissions.secrets", /^Remove permissions\.secrets$/, false);
      assert.ok(analyzeText(out2, format).valid);
      doc.permissions.network = ["example.com"];
      checkFix(doc, format, "schema.unimplemented_field", "$.permissions.network", /^Empty permissions\.network$/);
    });

    test("schema.invalid: apiVersion and kind set, or added where missing", () => {
      const doc = baseWorkflow();
      doc.apiVersion = "littleworkflow.dev/v0";
      doc.kind = "Flow";
      const out = checkFix(doc, format, "schema.invalid", "$.apiVersion", /^Set apiVersion to "littleworkflow.dev\/v0.1"$/);
      checkFix(out, format, "schema.invalid", "$.kind", /^Set kind to "Workflow"$/);
      const missing = baseWorkflow();
      delete missing.apiVersion;
      delete missing.kind;
      const added = checkFix(missing, format, "schema.invalid", "$.apiVersion", /^Set apiVersion/);
      assert.ok(added.startsWith(format === "json" ? '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "metadata"' : "apiVersion: littleworkflow.dev/v0.1\nmetadata:"), added);
      const both = checkFix(added, format, "schema.invalid", "$.kind", /^Set kind/);
      assert.ok(analyzeText(both, format).valid, both);
      assert.ok(both.startsWith(format === "json" ? '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "kind": "Workflow",\n' : "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n"), both);
    });

    test("parallel.invalid_cardinality: added to with, or its kind set", () => {
      const fan = parallelStep("fan");
      delete fan.with.cardinality;
      const out = checkFix(withSteps([fan]), format, "parallel.invalid_cardinality", "$.steps[0].with.cardinality.kind", /^Set cardinality/);
      assert.ok(analyzeText(out, format).valid, out);
      const wrong = parallelStep("fan");
      wrong.with.cardinality = { kind: "per_item", note: "x" };
      const out2 = checkFix(withSteps([wrong]), format, "parallel.invalid_cardinality", "$.steps[0].with.cardinality.kind", /^Set cardinality/);
      assert.ok(analyzeText(out2, format).valid, out2);
      const scalar = parallelStep("fan");
      scalar.with.cardinality = "matches_items";
      const out3 = checkFix(withSteps([scalar]), format, "parallel.invalid_cardinality", "$.steps[0].with.cardinality.kind", /^Set cardinality/);
      assert.ok(analyzeText(out3, format).valid, out3);
    });

    test("model.disallowed: appended to permissions.models; the allowed ones offered instead", () => {
      const doc = withSteps([aiStep("a", { with: { model: "other-model", prompt: "x" } })]);
      const out = checkFix(doc, format, "model.disallowed", "$.steps[0].with.model", /^Allow model "other-model" in permissions\.models$/, false);
      assert.ok(analyzeText(out, format).valid);
      const s = setup(render(doc, format), format);
      const titles = actionsFor(s, "model.disallowed").actions.map((a) => a.title);
      assert.deepEqual(titles, ['Allow model "other-model" in permissions.models', 'Use the allowed model "model-a"', 'Use the allowed model "model-b"']);
      checkFix(doc, format, "model.disallowed", "$.steps[0].with.model", /^Use the allowed model "model-b"$/, false);
      // One edit from both allowed models: those come first (a typo), neither preferred (no clear winner).
      const typo = withSteps([aiStep("a", { with: { model: "model-z", prompt: "x" } })]);
      const close = actionsFor(setup(render(typo, format), format), "model.disallowed").actions;
      assert.deepEqual(close.map((a) => [a.title, a.isPreferred === true]), [
        ['Use the allowed model "model-a"', false], ['Use the allowed model "model-b"', false], ['Allow model "model-z" in permissions.models', false],
      ]);
    });

    test("model.disallowed / tool.disallowed: permissions or the list created where absent", () => {
      const doc = withSteps([aiStep("a", { with: { model: "m1", prompt: "x" } }), toolStep("t", { needs: ["a"] })]);
      delete doc.permissions;
      const out = checkFix(doc, format, "model.disallowed", "$.steps[0].with.model", /^Allow model "m1" in permissions\.models$/);
      const out2 = checkFix(out, format, "tool.disallowed", "$.steps[1].with.tool", /^Allow tool "search" in permissions\.tools$/);
      assert.ok(analyzeText(out2, format).valid, out2);
    });

    test("fixer.model.disallowed: the fixer's model allowed", () => {
      const doc = withSteps([codeRunStep("c", { onFailure: { fixer: { model: "fixer-x", maxAttempts: 2, system: "Fix it." } } })]);
      const out = checkFix(doc, format, "fixer.model.disallowed", "$.steps[0].onFailure.fixer.model", /^Allow model "fixer-x" in permissions\.models$/, false);
      assert.ok(analyzeText(out, format).valid, out);
    });

    test("a stale diagnostic (from an older version) gets nothing", () => {
      const s = setup(render(undeclared(), format), format);
      const { diagnostic } = actionsFor(s, "step.undeclared_dependency");
      const fixed = setup(render(baseWorkflow(), format), format);
      assert.deepEqual(provideCodeActions(fixed.analysis, { textDocument: { uri: URI[format] }, range: diagnostic.range, context: { diagnostics: [diagnostic] } }), []);
    });

    test("without diagnostics in the context, the ones at the range are fixed", () => {
      const s = setup(render(undeclared(), format), format);
      const { diagnostic } = actionsFor(s, "step.undeclared_dependency");
      const actions = provideCodeActions(s.analysis, { textDocument: { uri: URI[format] }, range: diagnostic.range, context: { diagnostics: [] } });
      assert.ok(actions.some((a) => a.title === 'Add "gather" to the needs of "write"'));
    });

    test("fix all on generator documents with missing_needs errors", () => {
      let fixedSome = 0;
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const { text, injected } = generate({ steps: 60, seed, errors: 3, format });
        const missing = injected.filter((e) => e.kind === "missing_needs");
        const s = setup(text, format);
        const undeclaredBefore = s.analysis.findings.filter((f) => f.code === "step.undeclared_dependency");
        assert.equal(undeclaredBefore.length, missing.length);
        const { actions } = actionsFor(s, "step.undeclared_dependency", undefined, [FIX_ALL_KIND]);
        assert.equal(actions.length, 1);
        const { after } = applyAndCheck(s, actions[0], undefined);
        assert.deepEqual(after.findings.filter((f) => f.code === "step.undeclared_dependency").map(key), []);
        const others = s.analysis.findings.filter((f) => f.code !== "step.undeclared_dependency").map(key).sort();
        assert.deepEqual(after.findings.map(key).sort(), others);
        // Minimal: one insertion per step that gets entries.
        for (const e of editsOf(actions[0], format)) assert.deepEqual(e.range.start, e.range.end);
        fixedSome += missing.length;
      }
      assert.ok(fixedSome >= 6);
    });
  });
}

describe("quick fixes (YAML only): an unquoted {{ … }} read as a mapping", () => {
  const text = [
    "apiVersion: littleworkflow.dev/v0.1",
    "kind: Workflow",
    "metadata: {name: q}",
    "input: {schema: true}",
    "output: {schema: true}",
    "permissions:",
    "  models: [model-a]",
    "steps:",
    "  - id: write",
    "    uses: ai.generate",
    "    with:",
    "      model: model-a",
    "      prompt: {{ input.topic }}",
    "    output:",
    "      mode: text",
    "",
  ].join("\n");

  test("the hint's fix wraps it in quotes; the value becomes the template string", () => {
    const s = setup(text, "yaml");
    const { actions } = actionsFor(s, YAML_UNQUOTED_TEMPLATE);
    const action = only(actions, /^Put \{\{ input\.topic \}\} in quotes$/);
    assert.equal(action.isPreferred, true);
    const out = applyAndCheck(s, action, undefined).text;
    assert.ok(out.includes('      prompt: "{{ input.topic }}"\n'), out);
    const after = analyzeText(out, "yaml");
    assert.ok(after.valid);
    assert.equal((after.document.value as Json).steps[0].with.prompt, "{{ input.topic }}");
    assert.ok(!toDiagnostics(after).some((d) => d.code === YAML_UNQUOTED_TEMPLATE));
  });

  test("quotes are chosen so the text stays the same string", () => {
    for (const template of ['{{ input.topic == "x" }}', "{{ input.topic == 'x' }}", '{{ input.topic == "a\\b" }}']) {
      const s = setup(text.replace("{{ input.topic }}", template), "yaml");
      const out = applyAndCheck(s, actionsFor(s, YAML_UNQUOTED_TEMPLATE).actions[0], undefined).text;
      assert.equal((analyzeText(out, "yaml").document.value as Json).steps[0].with.prompt, template, out);
    }
  });

  test("a finding on such a value offers the same fix", () => {
    // A decision's when must be a template string: the mapping YAML made of it is a finding.
    const t = text.replace("  - id: write", [
      "  - id: gate",
      "    uses: decision",
      "    with:",
      "      cases:",
      "        - when: {{ input.go }}",
      "          to: write",
      "      default: end",
      "  - id: write",
    ].join("\n"));
    const s = setup(t, "yaml");
    const findingDiagnostic = s.diagnostics.find((d) => d.code !== YAML_UNQUOTED_TEMPLATE && (d.data as Json).unquotedTemplate);
    assert.ok(findingDiagnostic, s.diagnostics.map((d) => d.code).join(", "));
    const actions = provideCodeActions(s.analysis, { textDocument: { uri: URI.yaml }, range: findingDiagnostic.range, context: { diagnostics: [findingDiagnostic] } });
    const action = only(actions, /in quotes$/);
    const out = applyAndCheck(s, action, { code: findingDiagnostic.code as string, path: (findingDiagnostic.data as Json).path }).text;
    assert.ok(out.includes('- when: "{{ input.go }}"'), out);
  });
});

describe("context.only and kinds", () => {
  test("a refactor-only request gets nothing; quickfix gets the fixes", () => {
    const s = setup(render(undeclared(), "json"), "json");
    assert.deepEqual(actionsFor(s, "step.undeclared_dependency", undefined, ["refactor"]).actions, []);
    assert.equal(actionsFor(s, "step.undeclared_dependency", undefined, ["quickfix"]).actions.length, 1);
  });

  test("documents that do not parse get nothing", () => {
    const s = analyzeText('{"steps": [', "json");
    assert.deepEqual(provideCodeActions(s, { textDocument: { uri: URI.json }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, context: { diagnostics: [] } }), []);
  });
});

describe("quick fixes (YAML only): a value YAML cannot read unquoted (issue #14)", () => {
  const workflow = (line: string) => [
    "apiVersion: littleworkflow.dev/v0.1",
    "kind: Workflow",
    "metadata: {name: triage}",
    "input: {schema: true}",
    "output: {schema: true}",
    "permissions:",
    "  models: [model-a]",
    "steps:",
    "  - id: classify",
    "    uses: ai.generate",
    "    with:",
    "      model: model-a",
    line,
    "    output:",
    "      mode: text",
    "",
  ].join("\n");

  /** The parse error's fixes, as an editor asks for them (the diagnostic in the context). */
  function parseFixes(text: string): { diagnostic: Diagnostic; actions: CodeAction[]; analysis: Analysis } {
    const analysis = analyzeText(text, "yaml");
    const diagnostic = toDiagnostics(analysis).find((d) => d.code === "parse");
    assert.ok(diagnostic, "a parse error");
    const actions = provideCodeActions(analysis, { textDocument: { uri: URI.yaml }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    return { diagnostic, actions, analysis };
  }

  /** Applies an action's edits to the text (edits do not overlap). */
  function apply(text: string, analysis: Analysis, action: CodeAction): string {
    return applyTextEdits({ text, format: "yaml", analysis, diagnostics: [] }, editsOf(action, "yaml"));
  }

  /** The value at a path after a fix: the text parses (as the runtime reads it, and for us) and is valid. */
  function valueAfter(text: string, path: (string | number)[]): unknown {
    const after = analyzeText(text, "yaml");
    assert.deepEqual(after.document.parseErrors, [], text);
    assert.ok(after.valid, text);
    let v: unknown = parseYamlText(text);
    for (const k of path) v = (v as Record<string | number, unknown>)[k];
    return v;
  }

  const cases: Array<{ name: string; line: string; path: (string | number)[]; meant: string; block: string }> = [
    {
      name: "a colon in prompt",
      line: "      prompt: Classify this ticket: {{ input.ticket }}",
      path: ["steps", 0, "with", "prompt"],
      meant: "Classify this ticket: {{ input.ticket }}",
      block: "      prompt: |\n        Classify this ticket: {{ input.ticket }}\n",
    },
    {
      name: "a colon in system, with a comment",
      line: "      system: You are: a support agent # tone\n      prompt: Classify {{ input.ticket }}",
      path: ["steps", 0, "with", "system"],
      meant: "You are: a support agent",
      block: "      system: | # tone\n        You are: a support agent\n",
    },
    {
      name: "a value that starts with {{",
      line: "      prompt: {{ input.ticket }} is the ticket",
      path: ["steps", 0, "with", "prompt"],
      meant: "{{ input.ticket }} is the ticket",
      block: "      prompt: |\n        {{ input.ticket }} is the ticket\n",
    },
    {
      name: "text after a closing quote",
      line: "      prompt: 'it's {{ input.ticket }}'",
      path: ["steps", 0, "with", "prompt"],
      meant: "it's {{ input.ticket }}",
      block: "      prompt: |\n        it's {{ input.ticket }}\n",
    },
  ];
  for (const c of cases) {
    test(`${c.name}: "Quote this value" (preferred) and "Use a block scalar (|)", each leaving a valid document with the string meant`, () => {
      const text = workflow(c.line);
      const { actions, analysis, diagnostic } = parseFixes(text);
      assert.deepEqual(actions.map((a) => [a.title, a.isPreferred === true, a.kind]), [
        ["Quote this value", true, CodeActionKind.QuickFix],
        ["Use a block scalar (|)", false, CodeActionKind.QuickFix],
      ]);
      assert.deepEqual(actions[0].diagnostics, [diagnostic]);
      const quoted = apply(text, analysis, actions[0]);
      assert.equal(valueAfter(quoted, c.path), c.meant);
      const block = apply(text, analysis, actions[1]);
      assert.ok(block.includes(c.block), block);
      // a literal block keeps the text as written, with the line break that ends it
      assert.equal(valueAfter(block, c.path), c.meant + "\n");
    });
  }

  test("a list item's value and a multi-line value: both fixes parse, the block one a level deeper than the key", () => {
    const item = workflow("      prompt: x").replace("  models: [model-a]", "  models: [model-a]\n  tools:\n    - search: the web: now");
    const { actions, analysis } = parseFixes(item);
    assert.equal(parseYamlText(apply(item, analysis, actions[0])).permissions.tools[0].search, "the web: now");
    const block = apply(item, analysis, actions[1]);
    assert.ok(block.includes("    - search: |\n        the web: now\n"), block);
    assert.equal(parseYamlText(block).permissions.tools[0].search, "the web: now\n");

    const multi = workflow("      prompt: Classify this ticket\n        for the team: {{ input.ticket }}");
    const m = parseFixes(multi);
    assert.equal(valueAfter(apply(multi, m.analysis, m.actions[0]), ["steps", 0, "with", "prompt"]), "Classify this ticket for the team: {{ input.ticket }}");
    // the block keeps the lines as the user broke them
    assert.equal(valueAfter(apply(multi, m.analysis, m.actions[1]), ["steps", 0, "with", "prompt"]), "Classify this ticket\nfor the team: {{ input.ticket }}\n");
  });

  test("without the diagnostic in the context (range only) the fixes come too; a stale diagnostic gets none", () => {
    const text = workflow("      prompt: Classify this ticket: {{ input.ticket }}");
    const { diagnostic, analysis } = parseFixes(text);
    const byRange = provideCodeActions(analysis, { textDocument: { uri: URI.yaml }, range: diagnostic.range, context: { diagnostics: [] } });
    assert.deepEqual(byRange.map((a) => a.title), ["Quote this value", "Use a block scalar (|)"]);
    const edited = analyzeText(text.replace("Classify this", "Sort this"), "yaml");
    assert.deepEqual(provideCodeActions(edited, { textDocument: { uri: URI.yaml }, range: diagnostic.range, context: { diagnostics: [diagnostic] } }), []);
  });

  test("parse errors without a value to rewrite (an unclosed quote, a tab) get no fix", () => {
    for (const line of ['      prompt: "Classify {{ input.ticket }}', "\tprompt: x"]) {
      assert.deepEqual(parseFixes(workflow(line)).actions, [], line);
    }
  });
});
