// `lwir validate --fix` / `--fix-dry-run`: the line diff, the arguments, the fixer's rounds (fixpoint,
// undoing a round that makes things worse, idempotence), the same edits as the editor's quick fixes,
// formatting kept, and the built dist/cli.js end to end on copies of the whole corpus (run
// `npm run build` first; `npm test` does).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, symlinkSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { CodeAction, TextEdit } from "vscode-languageserver-types";
import { diffLines, splitLines, unifiedDiff } from "../../server/src/cli/diff";
import { parseArgs } from "../../server/src/cli/args";
import { fixBytes } from "../../server/src/cli/fix";
import { isFailure } from "../../server/src/cli/check";
import { failureLine, type FileReport } from "../../server/src/cli/report";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { autofixText, autoFixes, compatibleFixes } from "../../server/src/service/autofix";
import { provideCodeActions, quickFixes, type KindedFix } from "../../server/src/service/codeActions";
import { toDiagnostics, type LwirDiagnosticData } from "../../server/src/service/diagnostics";
import { applyEdits } from "../../server/src/service/edits";
import { CONFORMANCE, REALWORLD, SYNTAX, corpusCases, type CorpusCase } from "../corpus";
import { type Json, aiStep, withSteps } from "./lwir-fixtures";

const CLI = resolve("dist/cli.js");
const temps: string[] = [];
after(() => { for (const t of temps) rmSync(t, { recursive: true, force: true }); });
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lwir-fix-"));
  temps.push(dir);
  return dir;
}
function lwir(args: string[], options: { cwd?: string; input?: string } = {}) {
  const res = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd: options.cwd ?? process.cwd(), maxBuffer: 1 << 28, input: options.input ?? "", env: { ...process.env, NO_COLOR: "1" } });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

// A YAML workflow with comments where quoting `{{ }}` uncovers a missing needs entry (two rounds).
const TWO_ROUNDS = `# A review flow
apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: review   # shown in the run list
input:
  schema: true
output:
  schema: true
steps:
  - id: draft   # first
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: "Write"
    output: {mode: text}

  # the reviewer reads the draft
  - id: review
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: {{ steps.draft.output }}   # read the draft
    output: {mode: text}
permissions:
  models: [gpt-4o]
`;

/** A valid workflow whose one warning is a misspelt declared property (lwir.unknown_property, a lint fix). */
const LINT_TYPO = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: summary
input:
  schema: {type: object, properties: {ticket: {type: string}}}
output:
  schema: true
steps:
  - id: summarize
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: "Summarize {{ input.ticket }}"
    output:
      mode: object
      schema: {type: object, properties: {summary: {type: string}}, required: [summary]}
  - id: report
    uses: ai.generate
    needs: [summarize]
    with:
      model: gpt-4o
      prompt: "Report on {{ steps.summarize.output.sumary }}"
    output: {mode: text}
permissions:
  models: [gpt-4o]
`;

// ---- the diff ------------------------------------------------------------------------------------

/** Applies a unified diff made by unifiedDiff to the text it was made from (hunks in order). */
function applyUnified(before: string, diff: string): string {
  const old = splitLines(before);
  const lines = diff.split(/(?<=\n)/);
  const out: string[] = [];
  let at = 0;
  let last = "";
  for (let i = 2; i < lines.length; i++) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@\n$/.exec(lines[i]);
    if (m) {
      const start = Number(m[1]) - (m[2] === "0" ? 0 : 1);
      while (at < start) out.push(old[at++]);
      continue;
    }
    const line = lines[i];
    if (line === "\\ No newline at end of file\n") {
      // The line before it had no line break.
      if (last === "-") continue;
      out[out.length - 1] = out[out.length - 1].replace(/\n$/, "");
      continue;
    }
    last = line[0];
    const body = line.slice(1);
    if (line[0] === " ") { assert.equal(old[at].replace(/\n$/, ""), body.replace(/\n$/, "")); out.push(old[at++]); }
    else if (line[0] === "-") { assert.equal(old[at].replace(/\n$/, ""), body.replace(/\n$/, "")); at++; }
    else if (line[0] === "+") out.push(body);
    else assert.fail(`unexpected diff line ${JSON.stringify(line)}`);
  }
  while (at < old.length) out.push(old[at++]);
  return out.join("");
}

/** The length of a longest common subsequence, by the textbook table (small inputs only). */
function lcs(a: string[], b: string[]): number {
  const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) t[i][j] = a[i - 1] === b[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
  return t[a.length][b.length];
}

describe("unified diff", () => {
  test("hunks with three lines of context, 1-based starts, as diff -u writes them", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
    const after = "a\nb\nc\nd\nE\nf\ng\nh\ni\nj\nk\n";
    assert.equal(unifiedDiff(before, after, "x.lwir.yaml"), [
      "--- a/x.lwir.yaml", "+++ b/x.lwir.yaml",
      "@@ -2,9 +2,10 @@", " b", " c", " d", "-e", "+E", " f", " g", " h", " i", " j", "+k", "",
    ].join("\n"));
    assert.equal(unifiedDiff(before, before, "x"), "", "no change, no diff");
    // Changes far apart make two hunks.
    const long = Array.from({ length: 30 }, (_, i) => `l${i}\n`).join("");
    const changed = long.replace("l2\n", "L2\n").replace("l25\n", "L25\n");
    assert.deepEqual(unifiedDiff(long, changed, "x").split("\n").filter((l) => l.startsWith("@@")), ["@@ -1,6 +1,6 @@", "@@ -23,7 +23,7 @@"]);
  });
  test("a last line without a line break, CRLF kept, an empty side", () => {
    assert.equal(unifiedDiff("a\nb", "a\nc", "f"), "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    assert.equal(unifiedDiff("a\r\nb\r\n", "a\r\nB\r\n", "f"), "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n");
    assert.equal(unifiedDiff("", "a\n", "f"), "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+a\n");
  });
  test("random texts: applying the diff gives the new text, and the edit script is a shortest one", () => {
    let seed = 7;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    for (let run = 0; run < 300; run++) {
      const a = Array.from({ length: rnd(12) }, () => `${"abcd"[rnd(4)]}\n`);
      const b = a.filter(() => rnd(4) !== 0).flatMap((l) => (rnd(5) === 0 ? [l, `${"abcde"[rnd(5)]}\n`] : [l]));
      const before = a.join("") + (rnd(3) === 0 ? "z" : "");
      const afterText = b.join("") + (rnd(3) === 0 ? "y" : "");
      assert.equal(applyUnified(before, unifiedDiff(before, afterText, "f", { context: rnd(4) })), afterText, JSON.stringify([before, afterText]));
      const x = splitLines(before);
      const y = splitLines(afterText);
      const changes = diffLines(x, y).filter((op) => op.kind !== " ").length;
      assert.equal(changes, x.length + y.length - 2 * lcs(x, y), "Myers finds a shortest edit script");
    }
  });
});

// ---- arguments -----------------------------------------------------------------------------------

describe("arguments", () => {
  const message = (argv: string[]) => {
    const c = parseArgs(argv);
    assert.equal(c.kind, "usage-error", JSON.stringify(argv));
    return (c as { message: string }).message;
  };
  test("--fix, --fix-dry-run and --fix-type (repeatable, comma-separated, all)", () => {
    const base = { kind: "validate", format: "text", exitZero: false, quiet: false, rules: {}, errorOnUnmatched: true, paths: ["a"] };
    assert.deepEqual(parseArgs(["validate", "--fix", "a"]), { ...base, fix: "write" });
    assert.deepEqual(parseArgs(["validate", "a", "--fix-dry-run", "--fix-type", "lint"]), { ...base, fix: "dry-run", fixTypes: ["lint"] });
    assert.deepEqual(parseArgs(["validate", "--fix", "--fix-type=lint,problem", "a"]), { ...base, fix: "write", fixTypes: ["problem", "lint"] });
    assert.deepEqual(parseArgs(["validate", "--fix", "--fix-type", "problem", "--fix-type", "all", "a"]), { ...base, fix: "write", fixTypes: ["problem", "lint"] });
    assert.equal("fix" in parseArgs(["validate", "a"]), false, "without --fix the options are as before");
  });
  test("mistakes are usage errors that say what is wrong", () => {
    assert.equal(message(["validate", "--fix-type", "problem", "a"]), "--fix-type needs --fix or --fix-dry-run");
    assert.equal(message(["validate", "--fix", "--fix-type", "layout", "a"]), 'unknown fix type "layout" for --fix-type (expected problem, lint or all)');
    assert.equal(message(["validate", "--fix", "a", "--fix-type"]), "--fix-type needs a value: problem, lint or all");
    assert.equal(message(["validate", "--fix", "--fix-dry-run", "a"]), "--fix and --fix-dry-run cannot be given together");
    assert.match(message(["validate", "--fix", "-"]), /^--fix cannot write back to - \(standard input\): use --fix-dry-run/);
    assert.equal(message(["validate", "--fix-dry-run", "--format", "sarif", "a"]), "--fix-dry-run prints a diff: use --format text or json, not sarif");
  });
});

// ---- the fixer -----------------------------------------------------------------------------------

const allCases = (): CorpusCase[] => [...corpusCases(CONFORMANCE), ...corpusCases(REALWORLD)];
const key = (f: { code: string; path: string }) => `${f.code} ${f.path}`;

/** The finding diagnostics of an analysis that the fixer may fix unasked. */
function autoFixable(analysis: Analysis): Set<string> {
  const out = new Set<string>();
  for (const d of toDiagnostics(analysis)) {
    const data = d.data as LwirDiagnosticData;
    if (quickFixes(analysis, data).some((f) => f.auto)) out.add(key(data));
  }
  return out;
}

describe("fixer rounds", () => {
  test("quoting {{ }} then adding the needs entry it reads: both in one run, comments and blank lines kept", () => {
    const result = autofixText(TWO_ROUNDS, "yaml");
    assert.deepEqual(result.titles, ["Put {{ steps.draft.output }} in quotes", 'Add "draft" to the needs of "review"']);
    assert.equal(result.reverted, false);
    assert.equal(analyzeText(result.text, "yaml").valid, true);
    assert.equal(result.text, TWO_ROUNDS
      .replace("      prompt: {{ steps.draft.output }}", '      prompt: "{{ steps.draft.output }}"')
      .replace("  - id: review\n    uses: ai.generate\n", "  - id: review\n    uses: ai.generate\n    needs: [draft]\n"));
    // Run again: nothing left to do.
    assert.deepEqual(autofixText(result.text, "yaml"), { text: result.text, fixed: 0, titles: [], reverted: false });
  });

  test("a value YAML cannot read because it starts with {{ (two templates) is quoted, then the needs entry it reads is added", () => {
    const broken = TWO_ROUNDS.replace("prompt: {{ steps.draft.output }}   # read the draft", "prompt: {{ steps.draft.output }} and {{ input.topic }}   # read the draft");
    assert.ok(analyzeText(broken, "yaml").document.parseErrors.length > 0, "YAML cannot read it");
    const result = autofixText(broken, "yaml");
    assert.deepEqual(result.titles, ["Quote this value", 'Add "draft" to the needs of "review"']);
    assert.equal(result.text, broken
      .replace("prompt: {{ steps.draft.output }} and {{ input.topic }}", "prompt: \"{{ steps.draft.output }} and {{ input.topic }}\"")
      .replace("  - id: review\n    uses: ai.generate\n", "  - id: review\n    uses: ai.generate\n    needs: [draft]\n"));
    assert.equal(analyzeText(result.text, "yaml").valid, true);
    // Only the runtime's problems' fixes quote it; a lint-only run leaves a text that does not parse alone.
    assert.equal(autofixText(broken, "yaml", { kinds: new Set(["lint"]) }).fixed, 0);
    // A value that does not start with {{ (a colon inside) is left to a person: quoting or a block scalar.
    const colon = TWO_ROUNDS.replace('prompt: "Write"', "prompt: Write: now");
    assert.ok(analyzeText(colon, "yaml").document.parseErrors.length > 0);
    assert.equal(autofixText(colon, "yaml").fixed, 0);
  });

  test("--fix-type: problem (the default) quotes the template, lint changes a misspelt property; each fix says its kind", () => {
    const analysis = analyzeText(TWO_ROUNDS, "yaml");
    assert.deepEqual(autoFixes(analysis).map((f) => [f.kind, f.title]), [["problem", "Put {{ steps.draft.output }} in quotes"]]);
    assert.equal(autofixText(TWO_ROUNDS, "yaml", { kinds: new Set(["lint"]) }).fixed, 0);
    // A rule turned off is not fixed (as ESLint fixes only the rules that are on).
    assert.equal(autofixText(TWO_ROUNDS, "yaml", { rules: { "lwir.yaml_unquoted_template": "off" } }).fixed, 0);
    // The type checks' did-you-mean is a lint fix: applied only when asked.
    const typo = analyzeText(LINT_TYPO, "yaml");
    assert.equal(typo.valid, true);
    assert.deepEqual(autoFixes(typo), [], "not by default");
    assert.deepEqual(autoFixes(typo, { kinds: new Set(["lint"]) }).map((f) => [f.kind, f.title]), [["lint", 'Change "sumary" to "summary"']]);
    const fixed = autofixText(LINT_TYPO, "yaml", { kinds: new Set(["problem", "lint"]) });
    assert.equal(fixed.text, LINT_TYPO.replace("output.sumary", "output.summary"));
    assert.deepEqual(toDiagnostics(analyzeText(fixed.text, "yaml")), []);
  });

  test("a round that adds a problem is undone, and fixing stops", () => {
    // Before: terminal.ambiguous (nobody reads the draft yet) and the unquoted-template warning. A fix that
    // quotes the template and also changes the draft's model to one not allowed leaves 3: undone.
    const bad = (analysis: Analysis, data: LwirDiagnosticData): KindedFix[] => {
      const t = data.unquotedTemplate;
      if (data.code !== "lwir.yaml_unquoted_template" || !t) return [];
      const at = analysis.document.text.indexOf("gpt-4o");
      return [{ kind: "problem", auto: true, title: "quote", edits: [{ start: t.start, end: t.end, newText: t.replacement }, { start: at, end: at + 6, newText: "gpt-5" }] }];
    };
    assert.equal(analyzeText(TWO_ROUNDS, "yaml").findings.length, 1);
    const result = autofixText(TWO_ROUNDS, "yaml", { fixesFor: bad });
    assert.equal(result.reverted, true);
    assert.equal(result.text, TWO_ROUNDS, "the round's edits are undone");
    assert.equal(result.fixed, 0);
    // The same fix without the damage passes the round (2 problems, as before) but leaves one runtime
    // finding more than the file had, with nothing to fix it here: undone at the end.
    const good = (analysis: Analysis, data: LwirDiagnosticData): KindedFix[] => bad(analysis, data).map((f) => ({ ...f, edits: f.edits.slice(0, 1) }));
    assert.deepEqual(autofixText(TWO_ROUNDS, "yaml", { fixesFor: good }), { text: TWO_ROUNDS, fixed: 0, titles: [], reverted: true });
    // With the real fixes the next round adds the needs entry: kept.
    const both = (analysis: Analysis, data: LwirDiagnosticData): KindedFix[] => [...good(analysis, data), ...quickFixes(analysis, data)];
    const kept = autofixText(TWO_ROUNDS, "yaml", { fixesFor: both });
    assert.deepEqual([kept.reverted, kept.titles], [false, ["quote", 'Add "draft" to the needs of "review"']]);
  });

  test("a misspelt name is fixed only when one name is close; never a needs entry that closes a cycle", () => {
    const doc = (steps: Json[]) => JSON.stringify(withSteps(steps), null, 2) + "\n";
    const read = (id: string, from: string, extra: Json = {}) => aiStep(id, { with: { model: "model-a", prompt: `{{ steps.${from}.output }}` }, ...extra });
    // `drafts` is one edit from `draft` only: fixed (a problem fix), and the document becomes valid.
    const one = doc([aiStep("draft"), read("review", "draft", { needs: ["drafts"] })]);
    const fixed = autofixText(one, "json");
    assert.deepEqual(fixed.titles, ['Change "drafts" to "draft"']);
    assert.equal(analyzeText(fixed.text, "json").valid, true);
    assert.deepEqual(autoFixes(analyzeText(one, "json")).map((f) => f.kind), ["problem"]);
    // `draft` is one edit from `draft1` and from `draft2`: the editor offers both, the fixer picks neither.
    const two = doc([aiStep("draft1"), aiStep("draft2"), read("review", "draft1", { needs: ["draft1", "draft"] }), aiStep("final", { needs: ["draft2", "review"] })]);
    const analysis = analyzeText(two, "json");
    const offered = toDiagnostics(analysis).flatMap((d) => quickFixes(analysis, d.data as LwirDiagnosticData)).map((f) => f.title);
    assert.ok(offered.includes('Change "draft" to "draft1"') && offered.includes('Change "draft" to "draft2"'), offered.join(", "));
    assert.equal(autofixText(two, "json").text, two);
    // `a` reads `b`, which needs `a`: adding `b` to a's needs would close a cycle, so it stays a finding.
    const cycle = doc([read("a", "b"), read("b", "a", { needs: ["a"] })]);
    assert.deepEqual(analyzeText(cycle, "json").findings.map((f) => f.code), ["step.undeclared_dependency"]);
    assert.equal(autofixText(cycle, "json").text, cycle);
  });

  test("edits that touch wait for the next round; each fix once", () => {
    const fix = (title: string, start: number, end: number): KindedFix => ({ kind: "problem", auto: true, title, edits: [{ start, end, newText: "x" }] });
    assert.deepEqual(compatibleFixes([fix("b", 5, 5), fix("a", 0, 2), fix("c", 2, 3), fix("d", 5, 5), fix("e", 7, 9)]).map((f) => f.title), ["a", "b", "e"]);
  });

  test("an unparsable document is left as it is", () => {
    for (const c of corpusCases(SYNTAX)) {
      const text = readFileSync(c.file, "utf8");
      assert.equal(autofixText(text, c.format).text, text, c.name);
    }
  });
});

describe("the fixer on the corpus", () => {
  test("the same edits as the editor's quick fix for the same diagnostic (one code path)", () => {
    let compared = 0;
    for (const c of allCases()) {
      const text = readFileSync(c.file, "utf8");
      const analysis = analyzeText(text, c.format);
      const uri = `file:///w/${c.name}`;
      const diagnostics = toDiagnostics(analysis, { uri });
      for (const fix of autoFixes(analysis)) {
        const asText = (edits: TextEdit[]) => JSON.stringify(edits.map((e) => [analysis.document.offsetAt(e.range.start), analysis.document.offsetAt(e.range.end), e.newText]).sort());
        const wanted = JSON.stringify(fix.edits.map((e) => [e.start, e.end, e.newText]).sort());
        const offered = diagnostics.flatMap((d) => provideCodeActions(analysis, { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } }));
        const same = offered.find((a: CodeAction) => a.title === fix.title && asText(a.edit!.changes![uri]) === wanted);
        assert.ok(same, `${c.name}: the fixer's "${fix.title}" is a quick fix the editor offers with the same edits`);
        compared++;
      }
    }
    // 13, and 4 "Remove needs entry" fixes of a cycle with one way out (issue 22): three cycle-- cases.
    assert.equal(compared, 17, "fixes compared");
  });

  test("idempotent, and only the lines the fixes edit differ", () => {
    let changed = 0;
    for (const c of allCases()) {
      const original = readFileSync(c.file, "utf8");
      let text = original;
      // Round by round, as the fixer does: each round's removed lines are lines its edits touch.
      for (let round = 0; round < 10; round++) {
        const analysis = analyzeText(text, c.format);
        const fixes = compatibleFixes(autoFixes(analysis));
        if (fixes.length === 0) break;
        const touched = new Set<number>();
        for (const e of fixes.flatMap((f) => f.edits)) {
          for (let l = analysis.document.positionAt(e.start).line; l <= analysis.document.positionAt(e.end).line; l++) touched.add(l);
        }
        const next = applyEdits(text, fixes.flatMap((f) => f.edits));
        let line = 0;
        for (const op of diffLines(splitLines(text), splitLines(next))) {
          if (op.kind === "-") assert.ok(touched.has(line), `${c.name}: line ${line + 1} changed but no fix edits it`);
          if (op.kind !== "+") line++;
        }
        text = next;
      }
      const result = autofixText(original, c.format);
      assert.equal(result.text, text, `${c.name}: the fixer makes the same rounds`);
      if (result.text !== original) changed++;
      assert.deepEqual(autofixText(result.text, c.format).fixed, 0, `${c.name}: a second run changes nothing`);
      // YAML comments all stay.
      if (c.format === "yaml") {
        const comments = (t: string) => t.split("\n").filter((l) => /^\s*#/.test(l));
        assert.deepEqual(comments(result.text), comments(original), c.name);
      }
    }
    assert.equal(changed, 16, "corpus documents the fixer changes");
  });
});

// ---- end to end ----------------------------------------------------------------------------------

/**
 * Findings without a fix of their own that a fix resolves: the needs entry added for `use` makes `load`
 * a step another one needs, so only one final step is left (terminal.ambiguous goes too).
 */
const ALSO_RESOLVED: Record<string, string[]> = { "step-undeclared--input-field.lwir.json": ["terminal.ambiguous $.steps"] };

describe("lwir validate --fix (dist/cli.js)", () => {
  test("corpus: every document whose findings are all fixable becomes valid; the others keep exactly their other findings", () => {
    const dir = tempDir();
    const cases = allCases();
    const before = new Map<string, { findings: string[]; fixable: Set<string>; valid: boolean; text: string }>();
    for (const c of cases) {
      copyFileSync(c.file, join(dir, c.name));
      const text = readFileSync(c.file, "utf8");
      const analysis = analyzeText(text, c.format);
      before.set(c.name, { findings: analysis.findings.map(key).sort(), fixable: autoFixable(analysis), valid: analysis.valid, text });
    }
    for (const c of corpusCases(SYNTAX)) copyFileSync(c.file, join(dir, `syntax-${c.name}`));
    const run = lwir(["validate", "--fix", "--format", "json", "."], { cwd: dir });
    assert.equal(run.stderr, "");
    assert.equal(run.status, 1, "some documents keep findings");
    const files = (JSON.parse(run.stdout) as { files: Array<{ file: string; findings: Array<{ code: string; path: string }>; valid: boolean; fixed: number }> }).files;
    assert.equal(files.length, cases.length + corpusCases(SYNTAX).length);
    let allFixable = 0;
    let partly = 0;
    for (const f of files) {
      const name = f.file.replace(/^\.\//, "");
      if (name.startsWith("syntax-")) {
        assert.equal(f.fixed, 0);
        assert.deepEqual(readFileSync(join(dir, name)), readFileSync(join(SYNTAX, name.slice("syntax-".length))), `${name}: not touched`);
        continue;
      }
      const b = before.get(name)!;
      const afterFindings = f.findings.map(key).sort();
      // What the report says is what the file now holds.
      assert.deepEqual(analyzeText(readFileSync(join(dir, name), "utf8"), name.endsWith(".json") ? "json" : "yaml").findings.map(key).sort(), afterFindings, name);
      if (b.findings.length > 0 && b.findings.every((k) => b.fixable.has(k))) {
        allFixable++;
        assert.equal(f.valid, true, `${name}: all of ${b.findings.join(", ")} fixable, so it becomes valid`);
      } else {
        if (b.findings.some((k) => b.fixable.has(k))) partly++;
        const gone = ALSO_RESOLVED[name] ?? [];
        assert.deepEqual(afterFindings, b.findings.filter((k) => !b.fixable.has(k) && !gone.includes(k)), `${name}: keeps exactly its other findings`);
      }
      if (b.valid) assert.equal(f.valid, true, `${name}: a valid document stays valid`);
      if (f.fixed === 0) assert.equal(readFileSync(join(dir, name), "utf8"), b.text, `${name}: nothing fixed, not rewritten`);
    }
    assert.equal(allFixable, 13, "corpus documents whose findings are all fixable"); // 10, and the three cycle-- cases with one way out
    assert.equal(partly, 2, "documents with fixable and other findings");
    // No temporary file is left beside the fixed ones.
    assert.deepEqual(readdirSync(dir).filter((n) => !/\.lwir\.(json|yaml|yml)$/.test(n)), []);
    // A second run fixes nothing.
    const again = lwir(["validate", "--fix", "--format", "json", "."], { cwd: dir });
    assert.ok((JSON.parse(again.stdout) as { files: Array<{ fixed: number }> }).files.every((f) => f.fixed === 0));
  });

  test("writes atomically; an unparsable file keeps its bytes and its modification time", () => {
    const dir = tempDir();
    const fixable = join(dir, "review.lwir.yaml");
    writeFileSync(fixable, TWO_ROUNDS, { mode: 0o640 });
    const broken = join(dir, "broken.lwir.json");
    const brokenText = '{\n  // JSONC comments: the runtime reads JSON.parse, so this does not parse\n  "apiVersion": "littleworkflow.dev/v0.1",\n';
    writeFileSync(broken, brokenText);
    utimesSync(broken, new Date(2001, 0, 1), new Date(2001, 0, 1));
    const mtime = statSync(broken).mtimeMs;
    // Through a symbolic link the target is fixed and the link stays a link.
    const link = join(dir, "link.lwir.yaml");
    const target = join(dir, "target.yaml");
    writeFileSync(target, TWO_ROUNDS);
    symlinkSync(target, link);
    const run = lwir(["validate", "--fix", "review.lwir.yaml", "broken.lwir.json", "link.lwir.yaml"], { cwd: dir });
    assert.equal(run.status, 1, "the broken file remains a problem");
    assert.match(run.stdout, /^fixed {2}review\.lwir\.yaml {2}2 fixes$/m);
    assert.match(run.stdout, /^ok {2}review\.lwir\.yaml {2}wfver_/m);
    assert.match(run.stdout, /^broken\.lwir\.json:2:3 {2}error {2}parse/m);
    assert.match(run.stdout, /; 4 fixes applied in 2 files$/m);
    assert.equal(analyzeText(readFileSync(fixable, "utf8"), "yaml").valid, true);
    assert.equal(statSync(fixable).mode & 0o777, 0o640, "permissions kept");
    assert.equal(readFileSync(broken, "utf8"), brokenText);
    assert.equal(statSync(broken).mtimeMs, mtime, "not even rewritten");
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readFileSync(target, "utf8"), readFileSync(fixable, "utf8"));
    assert.deepEqual(readdirSync(dir).sort(), ["broken.lwir.json", "link.lwir.yaml", "review.lwir.yaml", "target.yaml"], "no temporary file left");
  });

  test("a file that cannot be written back is a failure, reported as it was", () => {
    const dir = tempDir();
    const missing = join(dir, "gone", "review.lwir.yaml");
    const result = fixBytes("review.lwir.yaml", Buffer.from(TWO_ROUNDS), { write: true }, "review.lwir.yaml", missing);
    assert.deepEqual(result.failure, { path: "review.lwir.yaml", reason: "no such file or folder", kind: "unwritable" });
    assert.equal(failureLine(result.failure!), "cannot write the fixes to review.lwir.yaml (the file is unchanged): no such file or folder");
    assert.ok(!isFailure(result.report));
    assert.equal((result.report as FileReport).fixed, 0, "the report is of the text as it is");
    assert.equal((result.report as FileReport).notices?.length, 1);
    assert.deepEqual(readdirSync(dir), []);
  });

  test("a YAML byte-order mark and CRLF line breaks are kept", () => {
    const dir = tempDir();
    const file = join(dir, "crlf.lwir.yaml");
    writeFileSync(file, "\ufeff" + TWO_ROUNDS.replace(/\n/g, "\r\n"));
    assert.equal(lwir(["validate", "--fix", file]).status, 0);
    const text = readFileSync(file, "utf8");
    assert.ok(text.startsWith("\ufeff# A review flow\r\n"));
    assert.ok(!/[^\r]\n/.test(text), "every line break is CRLF");
    assert.equal(text, "\ufeff" + autofixText(TWO_ROUNDS, "yaml").text.replace(/\n/g, "\r\n"));
  });

  test("--fix-dry-run prints a unified diff, writes nothing, and reports what would remain", () => {
    const dir = tempDir();
    const file = join(dir, "review.lwir.yaml");
    writeFileSync(file, TWO_ROUNDS);
    const run = lwir(["validate", "--fix-dry-run", "review.lwir.yaml"], { cwd: dir });
    assert.equal(run.status, 0, "nothing would remain");
    assert.equal(run.stdout, unifiedDiff(TWO_ROUNDS, autofixText(TWO_ROUNDS, "yaml").text, "review.lwir.yaml"));
    assert.match(run.stdout, /^--- a\/review\.lwir\.yaml\n\+\+\+ b\/review\.lwir\.yaml\n@@ /);
    assert.equal(applyUnified(TWO_ROUNDS, run.stdout), autofixText(TWO_ROUNDS, "yaml").text);
    assert.match(run.stderr, /^would fix {2}review\.lwir\.yaml {2}2 fixes$/m);
    assert.equal(readFileSync(file, "utf8"), TWO_ROUNDS, "nothing written");
    assert.deepEqual(readdirSync(dir), ["review.lwir.yaml"]);
    // JSON: the report of what would remain, with the count and the diff.
    const json = JSON.parse(lwir(["validate", "--fix-dry-run", "--format", "json", "review.lwir.yaml"], { cwd: dir }).stdout) as { files: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(json.files[0]), ["file", "format", "parseErrors", "findings", "valid", "workflowVersion", "notices", "fixed", "diff"]);
    assert.equal(json.files[0].fixed, 2);
    assert.equal(json.files[0].diff, run.stdout);
    writeFileSync(join(dir, "clean.lwir.yaml"), autofixText(TWO_ROUNDS, "yaml").text);
    const clean = JSON.parse(lwir(["validate", "--fix-dry-run", "--format", "json", "clean.lwir.yaml"], { cwd: dir }).stdout) as { files: Array<Record<string, unknown>> };
    assert.deepEqual([clean.files[0].fixed, clean.files[0].diff], [0, ""], "nothing to fix: an empty diff");
    rmSync(join(dir, "clean.lwir.yaml"));
    // Standard input: the diff of the fixed text (--fix itself is refused, see the arguments).
    const stdin = lwir(["validate", "--fix-dry-run", "--stdin-filename", "flows/review.lwir.yaml", "-"], { input: TWO_ROUNDS });
    assert.equal(stdin.stdout, unifiedDiff(TWO_ROUNDS, autofixText(TWO_ROUNDS, "yaml").text, "flows/review.lwir.yaml"));
    // Without --fix the JSON contract is as before.
    const plain = JSON.parse(lwir(["validate", "--format", "json", "review.lwir.yaml"], { cwd: dir }).stdout) as { files: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(plain.files[0]), ["file", "format", "parseErrors", "findings", "valid", "workflowVersion", "notices"]);
  });

  test("--fix (problem fixes by default) leaves a lint fix; --max-warnings and the exit status see what remains", () => {
    const dir = tempDir();
    const file = join(dir, "summary.lwir.yaml");
    writeFileSync(file, LINT_TYPO);
    const run = lwir(["validate", "--fix", "--max-warnings", "0", "summary.lwir.yaml"], { cwd: dir });
    assert.equal(run.status, 1, "the warning remains and --max-warnings 0 fails");
    assert.match(run.stdout, /lwir\.unknown_property/);
    assert.match(run.stdout, /; nothing to fix$/m);
    assert.equal(readFileSync(file, "utf8"), LINT_TYPO);
    assert.equal(lwir(["validate", "--fix", "--fix-type", "lint", "--max-warnings", "0", "summary.lwir.yaml"], { cwd: dir }).status, 0);
    assert.equal(readFileSync(file, "utf8"), LINT_TYPO.replace("output.sumary", "output.summary"));
  });
});
