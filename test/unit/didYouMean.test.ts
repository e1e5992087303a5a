// service/didYouMean.ts: "Did you mean …" for names the runtime checks against a known set, in JSON and
// YAML. For each: the editor's squiggle on the misspelt name (the CLI's range stays the finding's node),
// the message's suggestion, the fix first and preferred, and the fixed text re-validated: the finding
// gone, no new one. Also: nothing suggested when nothing is close, out of scope, or rejected.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify as toYaml } from "yaml";
import type { CodeAction, Diagnostic, Range, TextEdit } from "vscode-languageserver-types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { toDiagnostics, type LwirDiagnosticData } from "../../server/src/service/diagnostics";
import { provideCodeActions } from "../../server/src/service/codeActions";
import { provideHover } from "../../server/src/service/hover";
import { closeNames, editDistance, maxDistance } from "../../server/src/service/didYouMean";
import { checkFile, isFailure } from "../../server/src/cli/check";
import { type Json, aiStep, baseWorkflow, decisionStep, parallelStep, parallelWith, toolStep, withSteps } from "./lwir-fixtures";

type Format = "json" | "yaml";
const FORMATS: Format[] = ["json", "yaml"];
const URI = "file:///w/typo.lwir";

const render = (doc: Json, format: Format) => (format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc));
const reader = (id: string, prompt: string, extra: Json = {}) => aiStep(id, { with: { model: "model-a", prompt }, ...extra });
const dataOf = (d: Diagnostic) => d.data as LwirDiagnosticData;
const key = (f: { code: string; path: string }) => `${f.path} ${f.code}`;

interface Setup {
  text: string;
  format: Format;
  analysis: Analysis;
  diagnostics: Diagnostic[];
}

function setup(doc: Json, format: Format): Setup {
  const text = render(doc, format);
  const analysis = analyzeText(text, format);
  assert.deepEqual(analysis.document.parseErrors, []);
  return { text, format, analysis, diagnostics: toDiagnostics(analysis, { uri: URI }) };
}

function textAt(s: Setup, range: Range): string {
  const doc = s.analysis.document;
  return s.text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
}

function diagnostic(s: Setup, code: string, path: string): Diagnostic {
  const found = s.diagnostics.filter((d) => d.code === code && dataOf(d).path === path);
  assert.equal(found.length, 1, `one ${code} at ${path} among ${s.diagnostics.map((d) => `${d.code} ${dataOf(d).path}`).join(", ")}`);
  return found[0];
}

function actionsFor(s: Setup, diagnostics: Diagnostic[]): CodeAction[] {
  return provideCodeActions(s.analysis, { textDocument: { uri: URI }, range: diagnostics[0].range, context: { diagnostics, only: ["quickfix"] } });
}

/** Applies the action; the text parses, `gone` are fewer, nothing is new. */
function apply(s: Setup, action: CodeAction, gone: Array<{ code: string; path: string }>): Analysis {
  const edits: TextEdit[] = action.edit?.changes?.[URI] ?? [];
  assert.ok(edits.length > 0, action.title);
  const doc = s.analysis.document;
  let text = s.text;
  for (const e of [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start))) {
    text = text.slice(0, doc.offsetAt(e.range.start)) + e.newText + text.slice(doc.offsetAt(e.range.end));
  }
  const after = analyzeText(text, s.format);
  assert.deepEqual(after.document.parseErrors, [], text);
  const count = (fs: Array<{ code: string; path: string }>) => {
    const m = new Map<string, number>();
    for (const f of fs) m.set(key(f), (m.get(key(f)) ?? 0) + 1);
    return m;
  };
  const before = count(s.analysis.findings);
  const now = count(after.findings);
  for (const [k, n] of now) assert.ok(n <= (before.get(k) ?? 0), `no new finding: ${k}\n${text}`);
  for (const g of gone) assert.ok((now.get(key(g)) ?? 0) < (before.get(key(g)) ?? 0), `${key(g)} is gone\n${text}`);
  return after;
}

/** The diagnostic's squiggle is on the name as written (quotes aside); its message suggests `name`. */
function assertSquiggle(s: Setup, d: Diagnostic, word: string, name: string | undefined): void {
  assert.equal(textAt(s, d.range).replace(/^["']|["']$/g, ""), word, `${d.code}: the squiggle`);
  const message = d.message as string;
  if (name === undefined) assert.doesNotMatch(message, /Did you mean/, message);
  else assert.ok(message.endsWith(` Did you mean "${name}"?`), message);
}

/** The first action is the did-you-mean, preferred; applying it removes the finding and adds none. */
function assertFirstFix(s: Setup, d: Diagnostic, title: string, valid = true): CodeAction[] {
  const actions = actionsFor(s, [d]);
  assert.ok(actions.length > 0, `${d.code}: a fix`);
  assert.equal(actions[0].title, title, actions.map((a) => a.title).join(" | "));
  assert.equal(actions[0].isPreferred, true);
  assert.equal(actions.filter((a) => a.isPreferred).length, 1, "one preferred fix");
  const after = apply(s, actions[0], [{ code: String(d.code), path: dataOf(d).path }]);
  if (valid) assert.ok(after.valid, after.findings.map(key).join("\n"));
  return actions;
}

// ---- fixtures: one typo each, otherwise valid -------------------------------------------------------

/** `needs: [classfy]` beside a read of steps.classify. */
const needsTypo = () => withSteps([aiStep("classify"), reader("reply", "Reply to {{ steps.classify.output }}", { needs: ["classfy"] })]);

/** A decision routing to `draft-replly` (and, with `inDefault`, defaulting to it too). */
function targetTypo(to: string, defaultTo = "end"): Json {
  return withSteps([
    aiStep("classify"),
    decisionStep("route", { cases: [{ when: "{{ steps.classify.output == 'bug' }}", to }], default: defaultTo }, { needs: ["classify"] }),
    reader("draft-reply", "Reply to {{ input.topic }}"),
  ]);
}

function outputStepTypo(): Json {
  const body = [reader("summarize", "Sum up {{ item }}"), reader("check", "Check {{ item }}", { needs: ["summarize"] })];
  return withSteps([parallelStep("fan", body, { with: parallelWith({ fanIn: { order: "input", output: "array", outputStep: "sumarize" } }) })]);
}

after(() => rmSync(work, { recursive: true, force: true }));
const work = mkdtempSync(join(tmpdir(), "lwir-typo-"));

describe("edit distance and ranking", () => {
  test("insertions, deletions, substitutions and swaps count one each", () => {
    assert.equal(editDistance("classfy", "classify"), 1);
    assert.equal(editDistance("edn", "end"), 1);
    assert.equal(editDistance("serch", "fetch"), 2);
    assert.equal(editDistance("teps", "step"), 2);
    assert.equal(editDistance("", "abc"), 3);
    assert.equal(editDistance("same", "same"), 0);
    // the early stop reports "more than the limit"
    assert.equal(editDistance("abcdefgh", "zzzzzzzz", 2), 3);
  });

  test("the threshold: 2 edits for names of 5 characters or more, 1 below", () => {
    assert.equal(maxDistance("tet"), 1);
    assert.equal(maxDistance("teps"), 1);
    assert.equal(maxDistance("draft"), 2);
    assert.deepEqual(closeNames("tet", ["text", "tex", "json"]).map((s) => s.name), ["text", "tex"]);
    assert.deepEqual(closeNames("teps", ["input", "steps", "step"]).map((s) => s.name), ["steps"]);
  });

  test("nearest first, then document order; at most the number asked; never the name itself", () => {
    const ranked = closeNames("stepx", ["step1", "stepxyz", "step2", "stepx", "step3", "step4"]);
    assert.deepEqual(ranked.map((s) => [s.name, s.distance]), [["step1", 1], ["step2", 1], ["step3", 1], ["step4", 1], ["stepxyz", 2]]);
    assert.deepEqual(closeNames("stepx", ["step1", "step2", "step3", "step4"], 3).map((s) => s.name), ["step1", "step2", "step3"]);
    assert.deepEqual(closeNames("", ["a"]), []);
  });
});

for (const format of FORMATS) {
  describe(`did you mean (${format})`, () => {
    test("needs: [classfy] — the entry is replaced in place; the read it left undeclared is fixed by the same edit", () => {
      const s = setup(needsTypo(), format);
      const missing = diagnostic(s, "step.missing_dependency", "$.steps[1].needs[0]");
      assertSquiggle(s, missing, "classfy", "classify");
      assertFirstFix(s, missing, 'Change "classfy" to "classify"');
      // from the undeclared read: the same fix first and preferred, "add beside the typo" only after it
      const undeclared = diagnostic(s, "step.undeclared_dependency", "$.steps[1].with.prompt");
      const actions = assertFirstFix(s, undeclared, 'Change "classfy" to "classify"');
      assert.deepEqual(actions.map((a) => a.title), ['Change "classfy" to "classify"', 'Add "classify" to the needs of "reply"']);
      assert.notEqual(actions[1].isPreferred, true);
      // both diagnostics in the request: one action for both
      const both = actionsFor(s, [missing, undeclared]);
      assert.equal(both[0].title, 'Change "classfy" to "classify"');
      assert.deepEqual(both[0].diagnostics!.map((d) => d.code), ["step.missing_dependency", "step.undeclared_dependency"]);
      assert.equal(both.filter((a) => a.title === both[0].title).length, 1);
    });

    test("needs: the entry as written is squiggled when invalid entries come before it", () => {
      const s = setup(withSteps([aiStep("classify"), reader("reply", "{{ steps.classify.output }}", { needs: ["", 3, "classfy"] })]), format);
      // the path counts valid entries only: needs[0] is the third entry as written
      const d = s.diagnostics.find((x) => x.code === "step.missing_dependency")!;
      assert.equal(dataOf(d).path, "$.steps[1].needs[0]");
      assertSquiggle(s, d, "classfy", "classify");
      assert.equal(actionsFor(s, [d])[0].title, 'Change "classfy" to "classify"');
    });

    test("decision target: cases[].to — squiggled on the value, not on with", () => {
      const s = setup(targetTypo("draft-replly"), format);
      const d = diagnostic(s, "decision.target_not_in_scope", "$.steps[1].with");
      assertSquiggle(s, d, "draft-replly", "draft-reply");
      assertFirstFix(s, d, 'Change "draft-replly" to "draft-reply"');
      // the CLI's range stays the finding's node (the with key)
      const finding = s.analysis.findings.find((f) => f.code === d.code)!;
      assert.equal(textAt(s, finding.range).replace(/"/g, ""), "with");
      assert.deepEqual(finding.range, s.analysis.document.findingRange(["steps", 1, "with"]));
    });

    test("decision target: default, \"end\" as a candidate, and every place the target is written", () => {
      let s = setup(targetTypo("end", "draft-reply-x"), format);
      let d = diagnostic(s, "decision.target_not_in_scope", "$.steps[1].with");
      assertSquiggle(s, d, "draft-reply-x", "draft-reply");
      assertFirstFix(s, d, 'Change "draft-reply-x" to "draft-reply"');
      s = setup(targetTypo("draft-reply", "edn"), format);
      d = diagnostic(s, "decision.target_not_in_scope", "$.steps[1].with");
      assertSquiggle(s, d, "edn", "end");
      assertFirstFix(s, d, 'Change "edn" to "end"');
      // the same typo twice: one finding, one fix for both places
      s = setup(targetTypo("draft-replly", "draft-replly"), format);
      d = diagnostic(s, "decision.target_not_in_scope", "$.steps[1].with");
      const fix = assertFirstFix(s, d, 'Change "draft-replly" to "draft-reply"')[0];
      assert.equal(fix.edit!.changes![URI].length, 2);
    });

    test("decision targets: two unknown targets, each diagnostic on its own value with its own fix", () => {
      const s = setup(targetTypo("draft-replly", "draft-replyy"), format);
      const ds = s.diagnostics.filter((d) => d.code === "decision.target_not_in_scope");
      assert.equal(ds.length, 2);
      assert.deepEqual(ds.map((d) => textAt(s, d.range).replace(/"/g, "")).sort(), ["draft-replly", "draft-replyy"]);
      const titles = ds.map((d) => actionsFor(s, [d])[0].title).sort();
      assert.deepEqual(titles, ['Change "draft-replly" to "draft-reply"', 'Change "draft-replyy" to "draft-reply"']);
      // "classify" is close to "clasify" but route needs it: routing back to it would close a cycle
      const cyclic = setup(targetTypo("clasify"), format);
      const d = diagnostic(cyclic, "decision.target_not_in_scope", "$.steps[1].with");
      assert.deepEqual(actionsFor(cyclic, [d]), []);
    });

    test("fanIn.outputStep: a non-decision step of the body", () => {
      const s = setup(outputStepTypo(), format);
      const d = diagnostic(s, "parallel.fan_in_output_step_invalid", "$.steps[0].with.fanIn.outputStep");
      assertSquiggle(s, d, "sumarize", "summarize");
      assertFirstFix(s, d, 'Change "sumarize" to "summarize"');
    });

    test("a step id in an expression: in place when needed already, else with the needs entry", () => {
      let s = setup(withSteps([toolStep("draft"), reader("review", "Review {{ steps.draf.output }}", { needs: ["draft"] })]), format);
      let d = diagnostic(s, "step.missing_dependency", "$.steps[1].with.prompt");
      assertSquiggle(s, d, "draf", "draft");
      assertFirstFix(s, d, 'Change "draf" to "draft"');
      s = setup(withSteps([toolStep("draft"), reader("review", "Review {{ steps.draf.output }}")]), format);
      d = diagnostic(s, "step.missing_dependency", "$.steps[1].with.prompt");
      assertFirstFix(s, d, 'Change "draf" to "draft" and add "draft" to the needs of "review"');
    });

    test("expression roots: teps → steps (with the needs entry it then requires), inpt → input", () => {
      let s = setup(withSteps([toolStep("a"), reader("b", "Use {{ teps.a.output }}")]), format);
      let d = diagnostic(s, "expression.invalid", "$.steps[1].with.prompt");
      assertSquiggle(s, d, "teps", "steps");
      assertFirstFix(s, d, 'Change "teps" to "steps" and add "a" to the needs of "b"');
      s = setup(withSteps([reader("b", "Write about {{ inpt.topic }} and {{ upper(inpt.topic) }}")]), format);
      d = diagnostic(s, "expression.invalid", "$.steps[0].with.prompt");
      assertSquiggle(s, d, "inpt", "input");
      // both occurrences, or the finding would stay
      assertFirstFix(s, d, 'Change "inpt" to "input"');
    });

    test("output mode: tet → text, squiggled on the value, not on the output key", () => {
      const s = setup(withSteps([aiStep("a", { output: { mode: "tet" } })]), format);
      const d = diagnostic(s, "output.invalid", "$.steps[0].output");
      assertSquiggle(s, d, "tet", "text");
      assertFirstFix(s, d, 'Change "tet" to "text"');
      const finding = s.analysis.findings.find((f) => f.code === "output.invalid")!;
      assert.equal(textAt(s, finding.range).replace(/"/g, ""), "output", "the CLI's range: the output key");
    });

    test("uses: ai.generat → ai.generate", () => {
      const s = setup(withSteps([aiStep("a", { uses: "ai.generat" })]), format);
      const d = diagnostic(s, "step.invalid_type", "$.steps[0].uses");
      assertSquiggle(s, d, "ai.generat", "ai.generate");
      assertFirstFix(s, d, 'Change "ai.generat" to "ai.generate"');
    });

    test("model: the allowed model one edit away first and preferred, \"Allow\" after it", () => {
      const doc = withSteps([aiStep("a", { with: { model: "gpt-4o-min", prompt: "x" } })]);
      doc.permissions.models = ["gpt-4o", "gpt-4o-mini"];
      const s = setup(doc, format);
      const d = diagnostic(s, "model.disallowed", "$.steps[0].with.model");
      assertSquiggle(s, d, "gpt-4o-min", "gpt-4o-mini");
      const actions = assertFirstFix(s, d, 'Use the allowed model "gpt-4o-mini"');
      assert.deepEqual(actions.map((a) => a.title), ['Use the allowed model "gpt-4o-mini"', 'Allow model "gpt-4o-min" in permissions.models', 'Use the allowed model "gpt-4o"']);
    });

    test("tool: nearest first (search, 1 edit) and preferred; the next one (fetch, 2 edits) is not", () => {
      const s = setup(withSteps([toolStep("t", { with: { tool: "serch", args: {} } })]), format);
      const d = diagnostic(s, "tool.disallowed", "$.steps[0].with.tool");
      const actions = assertFirstFix(s, d, 'Use the allowed tool "search"');
      assert.deepEqual(actions.map((a) => a.title), ['Use the allowed tool "search"', 'Use the allowed tool "fetch"', 'Allow tool "serch" in permissions.tools']);
      assert.notEqual(actions[1].isPreferred, true);
    });

    test("equally near names: at most three, in document order, none preferred", () => {
      const doc = withSteps([
        aiStep("step1"), aiStep("step2"), aiStep("step3"), aiStep("step4"),
        decisionStep("gate", { cases: [], default: "stepx" }),
      ]);
      const s = setup(doc, format);
      const d = diagnostic(s, "decision.target_not_in_scope", "$.steps[4].with");
      const actions = actionsFor(s, [d]);
      assert.deepEqual(actions.map((a) => a.title), ['Change "stepx" to "step1"', 'Change "stepx" to "step2"', 'Change "stepx" to "step3"']);
      assert.ok(actions.every((a) => a.isPreferred !== true));
    });

    test("nothing close: no suggestion, no fix, the node's range unchanged where there is no name to point at", () => {
      let s = setup(targetTypo("file-issue"), format);
      let d = diagnostic(s, "decision.target_not_in_scope", "$.steps[1].with");
      assertSquiggle(s, d, "file-issue", undefined);
      assert.deepEqual(actionsFor(s, [d]), []);
      s = setup(withSteps([aiStep("classify"), reader("reply", "x", { needs: ["zzz"] })]), format);
      d = diagnostic(s, "step.missing_dependency", "$.steps[1].needs[0]");
      assertSquiggle(s, d, "zzz", undefined);
      assert.ok(!actionsFor(s, [d]).some((a) => a.title.startsWith("Change")));
      s = setup(withSteps([aiStep("a", { output: { mode: "markdown" } })]), format);
      d = diagnostic(s, "output.invalid", "$.steps[0].output");
      assertSquiggle(s, d, "markdown", undefined);
      assert.deepEqual(actionsFor(s, [d]), []);
      // output without a mode: the finding stays on the output key
      s = setup(withSteps([aiStep("a", { output: { name: "x" } })]), format);
      d = diagnostic(s, "output.invalid", "$.steps[0].output");
      assert.equal(textAt(s, d.range).replace(/"/g, ""), "output");
    });

    test("only names the runtime accepts there: not a step of a parallel body, not one that closes a cycle", () => {
      // `summary` lives in the body of `fan`: a top-level needs entry cannot name it
      const body = [reader("summary", "{{ item }}")];
      let s = setup(withSteps([parallelStep("fan", body), reader("after", "x", { needs: ["fan", "sumary"] })]), format);
      let d = diagnostic(s, "step.missing_dependency", "$.steps[1].needs[1]");
      assertSquiggle(s, d, "sumary", undefined);
      assert.deepEqual(actionsFor(s, [d]), []);
      // alpha needs beta: beta needing alpha would close a cycle, so no fix (the message still names it)
      s = setup(withSteps([reader("alpha", "x", { needs: ["beta"] }), reader("beta", "y", { needs: ["alpah"] })]), format);
      d = diagnostic(s, "step.missing_dependency", "$.steps[1].needs[0]");
      assert.equal(textAt(s, d.range).replace(/"/g, ""), "alpah");
      assert.deepEqual(actionsFor(s, [d]), []);
      // a step never suggests itself
      s = setup(withSteps([aiStep("classify"), reader("reply", "x", { needs: ["classify", "replyy"] })]), format);
      d = diagnostic(s, "step.missing_dependency", "$.steps[1].needs[1]");
      assertSquiggle(s, d, "replyy", undefined);
    });

    test("hover on the squiggled target explains the rule, and names no material users lack", () => {
      const s = setup(targetTypo("draft-replly"), format);
      const d = diagnostic(s, "decision.target_not_in_scope", "$.steps[1].with");
      const hover = provideHover(s.analysis, d.range.start);
      const value = (hover?.contents as { value: string }).value;
      assert.match(value, /decision\.target_not_in_scope/);
      assert.doesNotMatch(value, /catalog|section \d/i);
    });

    test("the CLI reports the finding's node range and the runtime's message", () => {
      const doc = targetTypo("draft-replly");
      const file = join(work, `target.lwir.${format}`);
      writeFileSync(file, render(doc, format));
      const report = checkFile(file);
      assert.ok(!isFailure(report));
      const s = setup(doc, format);
      const [f] = report.findings.filter((x) => x.code === "decision.target_not_in_scope");
      assert.deepEqual(f.range, s.analysis.document.findingRange(["steps", 1, "with"]));
      assert.equal(f.message, 'The decision target "draft-replly" is not a step of this decision\'s list.');
      const d = diagnostic(s, "decision.target_not_in_scope", "$.steps[1].with");
      assert.notDeepEqual(d.range, f.range);
    });
  });
}

test("baseWorkflow has no finding (the fixtures above change one thing)", () => {
  assert.ok(analyzeText(JSON.stringify(baseWorkflow()), "json").valid);
});
