// client/src/indicators.ts: the status bar and the WorkflowVersion lens say the same thing as the tab's
// badge (errors + warnings) and the Problems panel, from one record (issue #22, "indicators that agree").
// The records here are the server's own diagnostics and verdict for real documents.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DiagnosticSeverity } from "vscode-languageserver-types";
import { analyzeText } from "../../server/src/service/analysis";
import { provideCodeLenses, shownProblemCount, workflowVersionInfo } from "../../server/src/service/codeLens";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { indicators, type ShownCounts } from "../../client/src/indicators";
import { quietDiagnostics } from "../../client/src/quietTyping";

const ROOT = ".";
const SP500 = "test/corpus/realworld/demo-sp500-investor-report.lwir.yaml";

function record(text: string, shownOf = (ds: ReturnType<typeof toDiagnostics>) => ds) {
  const analysis = analyzeText(text, "yaml");
  const diagnostics = toDiagnostics(analysis, { uri: "file:///w/doc.lwir.yaml" });
  const shown = shownOf(diagnostics);
  const counts: ShownCounts = {
    errors: shown.filter((d) => d.severity === DiagnosticSeverity.Error).length,
    warnings: shown.filter((d) => d.severity === DiagnosticSeverity.Warning).length,
    held: diagnostics.length - shown.length,
  };
  return { diagnostics, shown, counts, words: indicators(workflowVersionInfo(analysis, "file:///w/doc.lwir.yaml"), counts) };
}

/** The number in the status bar's and the lens's words ("4 problems"), or 0. */
const numberIn = (s: string | undefined) => Number(/(\d+) problems?/.exec(s ?? "")?.[1] ?? 0);

describe("one story per record", () => {
  test("the sp500 workflow (1 error, 3 warnings): status bar, lens, badge and panel all say 4", () => {
    const r = record(readFileSync(join(ROOT, SP500), "utf8"));
    assert.deepEqual(r.counts, { errors: 1, warnings: 3, held: 0 });
    const badge = r.shown.filter((d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning).length;
    assert.equal(badge, 4);
    assert.equal(r.words.state, "problems");
    assert.equal(r.words.status, "$(error) LWIR: 4 problems");
    assert.equal(r.words.lens, "4 problems");
    assert.equal(numberIn(r.words.status), badge);
    assert.match(r.words.statusTooltip, /1 error, 3 warnings/);
    assert.equal(r.shown.length, 4, "the Problems panel lists the same four");
  });

  test("the server's own lens (other editors; VS Code before its first record) counts the same 4", () => {
    const analysis = analyzeText(readFileSync(join(ROOT, SP500), "utf8"), "yaml");
    const diagnostics = toDiagnostics(analysis, { uri: "file:///w/doc.lwir.yaml" });
    const [lens] = provideCodeLenses(analysis, "file:///w/doc.lwir.yaml", shownProblemCount(diagnostics));
    assert.equal(lens.command?.title, "4 problems");
  });

  test("a valid workflow with warnings of our own: the WorkflowVersion, with the warnings counted beside it in both", () => {
    const text = readFileSync(join(ROOT, SP500), "utf8").replace("      maxBranches: 50\n", "      maxBranches: 50\n      cardinality: {kind: matches_items}\n");
    const r = record(text);
    assert.equal(r.counts.errors, 0, JSON.stringify(r.diagnostics.map((d) => d.message)));
    assert.equal(r.counts.warnings, 3);
    assert.equal(r.words.state, "valid");
    assert.match(r.words.status, /^\$\(warning\) wfver_[0-9a-f]{16} · 3 problems$/);
    assert.match(r.words.lens!, /^WorkflowVersion wfver_[0-9a-f]{16} · 3 problems$/);
    assert.equal(numberIn(r.words.status), numberIn(r.words.lens));
  });

  test("while a problem is held back, neither the status bar nor the lens shows a WorkflowVersion or counts it", () => {
    // the valid support-triage example with a decision's condition retyped: `{{ steps.` is being typed
    const original = readFileSync(join(ROOT, "examples", "support-triage.lwir.yaml"), "utf8");
    assert.equal(record(original).words.state, "valid");
    const condition = '"{{ steps.review.lastOutput.approved }}"';
    assert.ok(original.includes(condition));
    const typed = original.replace(condition, '"{{ steps. }}"');
    const cursor = typed.indexOf('"{{ steps. }}"') + '"{{ steps.'.length;
    const r = record(typed, (ds) => quietDiagnostics({ text: typed, cursor, lastEdit: { at: 0, offsets: [cursor] }, now: 10, pauseMs: 1500, diagnostics: ds }).shown);
    assert.ok(r.counts.held > 0, "something is held");
    assert.equal(r.words.state, "typing");
    assert.doesNotMatch(r.words.status + r.words.lens, /wfver_/);
    assert.equal(numberIn(r.words.status), r.counts.errors + r.counts.warnings);
    assert.equal(numberIn(r.words.lens), r.counts.errors + r.counts.warnings);
    // the pause is over: the same record with nothing held says what the server says
    const settled = record(typed);
    assert.equal(settled.words.state, "problems");
    assert.equal(numberIn(settled.words.status), settled.counts.errors + settled.counts.warnings);
    assert.equal(settled.words.lens, settled.words.status.replace("$(error) LWIR: ", ""));
  });

  test("an empty document: no problem, no lens; infos and hints are not problems", () => {
    const r = record("");
    assert.equal(r.words.state, "empty");
    assert.equal(r.words.lens, undefined);
    assert.equal(r.words.problems, 0);
    assert.ok(r.shown.length > 0 && r.shown.every((d) => d.severity === DiagnosticSeverity.Information));
  });

  test("every state: the status bar's number is the lens's number is errors + warnings", () => {
    const verdicts = [
      { uri: "u", valid: true, id: "wfver_0123456789abcdef", hash: "sha256:x", problems: 0 },
      { uri: "u", valid: false, id: null, hash: null, problems: 2 },
      { uri: "u", valid: false, id: null, hash: null, problems: 1, syntaxErrors: 1 },
    ];
    for (const verdict of verdicts) {
      for (const counts of [{ errors: 0, warnings: 0, held: 0 }, { errors: 2, warnings: 1, held: 0 }, { errors: 1, warnings: 0, held: 1 }, { errors: 0, warnings: 3, held: 2 }]) {
        const w = indicators(verdict, counts);
        const problems = counts.errors + counts.warnings;
        assert.equal(numberIn(w.status), problems, `${w.status} for ${JSON.stringify({ verdict, counts })}`);
        assert.equal(numberIn(w.lens), problems, `${w.lens} for ${JSON.stringify({ verdict, counts })}`);
        assert.equal(/wfver_/.test(w.status), /wfver_/.test(w.lens ?? ""), "both show the WorkflowVersion, or neither");
        if (counts.held > 0) assert.doesNotMatch(w.status, /wfver_/);
      }
    }
  });
});
