// SARIF output: valid against the SARIF 2.1.0 schema, with rules, ruleIndex and regions that agree
// with the JSON output. Hand-made reports first (no build needed), then the built CLI on the fixtures.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import Ajv from "ajv-draft-04";
import type * as Sarif from "sarif";
import { artifactLocation, ruleHelp, toSarif } from "../../server/src/cli/format-sarif";
import { RULES } from "../../server/src/lwir/codes";
import type { FileReport } from "../../server/src/cli/report";

const SCHEMA = "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json";
const CLI = "dist/cli.js";
const TREE = "test/fixtures/cli/tree";
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

function validator() {
  // unicodeRegExp: false because the schema's `language` pattern is not a valid /u regular expression.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  // The schema uses these formats; check them for real rather than ignoring them.
  ajv.addFormat("uri", (s: string) => { try { new URL(s); return true; } catch { return false; } });
  ajv.addFormat("uri-reference", (s: string) => { try { new URL(s, "file:///base/"); return !/[\s\\]/.test(s); } catch { return false; } });
  ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)));
  return ajv.compile(JSON.parse(readFileSync(SCHEMA, "utf8")));
}

function assertValidSarif(log: unknown): void {
  const validate = validator();
  const ok = validate(log);
  assert.ok(ok, JSON.stringify(validate.errors, null, 2));
}

const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

const handMade: FileReport[] = [
  {
    file: "flows/my review.lwir.yaml", format: "yaml", text: "x", valid: false, workflowVersion: null, parseErrors: [],
    findings: [
      { code: "step.undeclared_dependency", path: "$.steps[1].with.prompt", message: "reads draft", severity: "error", range: r(9, 14, 9, 40) },
      { code: "model.disallowed", path: "$.steps[0].with.model", message: "not allowed", severity: "error", range: r(4, 13, 4, 19) },
      { code: "model.disallowed", path: "$.steps[1].with.model", message: "not allowed", severity: "error", range: r(8, 13, 8, 19) },
    ],
  },
  {
    file: "broken.lwir.json", format: "json", text: "", valid: false, workflowVersion: null, findings: [],
    parseErrors: [{ message: "binary file", range: r(0, 0, 0, 0) }],
  },
  { file: "ok.lwir.json", format: "json", text: "", valid: true, workflowVersion: { id: "wfver_0123456789abcdef", hash: "sha256:" + "0".repeat(64) }, parseErrors: [], findings: [] },
];

describe("SARIF formatter (hand-made reports)", () => {
  const log = toSarif(handMade, { version: "9.9.9", informationUri: "https://example.invalid/lwir-tools", baseDir: "/work/project" });

  test("is valid SARIF 2.1.0", () => assertValidSarif(log));

  test("the schema check is not vacuous: a 0 column or a wrong level is refused", () => {
    const validate = validator();
    const bad = JSON.parse(JSON.stringify(log)) as Sarif.Log;
    bad.runs[0].results![0].locations![0].physicalLocation!.region!.startColumn = 0;
    assert.equal(validate(bad), false);
    const bad2 = JSON.parse(JSON.stringify(log)) as { runs: { results: { level: string }[] }[] };
    bad2.runs[0].results[0].level = "fatal";
    assert.equal(validate(bad2), false);
  });

  test("one run, driver lwir, utf16 columns", () => {
    assert.equal(log.version, "2.1.0");
    assert.equal(log.runs.length, 1);
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, "lwir");
    assert.equal(run.tool.driver.version, "9.9.9");
    assert.equal(run.tool.driver.informationUri, "https://example.invalid/lwir-tools");
    assert.equal(run.columnKind, "utf16CodeUnits");
    assert.deepEqual(run.originalUriBaseIds, { "%SRCROOT%": { uri: "file:///work/project/" } });
  });

  test("a rule for parse, for each of the 61 codes, then LWIR Tools' own rules; ruleIndex points at the result's rule", () => {
    const rules = log.runs[0].tool.driver.rules!;
    assert.equal(new Set(RULES.map(([c]) => c)).size, 61);
    assert.deepEqual(rules.map((x) => x.id), ["parse", ...RULES.map(([c]) => c), "lwir.invalid_utf8", "lwir.nul_byte", "lwir.parse_warning", "lwir.yaml_unquoted_template", "lwir.inherited_function_name",
      "lwir.unknown_key", "lwir.unknown_property", "lwir.property_of_scalar_output", "lwir.impossible_comparison", "lwir.items_not_array",
      "lwir.needs_decision_step", "lwir.needs_unchosen_target", "lwir.body_terminal_ambiguous", "lwir.terminal_output_type", "lwir.loop_read_before_run", "lwir.body_reads_multi_visit_step", "lwir.item_key_not_string", "lwir.function_argument_type", "lwir.unsafe_input_key", "lwir.when_always_true",
      "lwir.scenario_invalid", "lwir.scenario_no_workflow", "lwir.scenario_unknown_step", "lwir.scenario_unknown_target", "lwir.scenario_output_mismatch", "lwir.scenario_input_mismatch", "lwir.empty_document", "lwir.file_too_large"]);
    assert.deepEqual(rules.slice(-4).map((x) => x.defaultConfiguration?.level), ["warning", "warning", "note", "warning"]);
    for (const result of log.runs[0].results!) {
      assert.equal(rules[result.ruleIndex!].id, result.ruleId);
      assert.equal(result.level, "error");
    }
  });

  test("every rule carries its page of docs/rules as help (text and Markdown), and no link to a host", () => {
    for (const rule of log.runs[0].tool.driver.rules!) {
      const page = readFileSync(`docs/rules/${rule.id}.md`, "utf8");
      assert.equal(rule.helpUri, undefined, "package.json names no public home, so there is no page to link to");
      assert.deepEqual(rule.help, ruleHelp(page));
      // the page's title and its first explanation, in both forms
      const title = /^# `([^`]+)`$/m.exec(page)![1];
      assert.equal(title, rule.id);
      assert.ok(rule.help!.markdown!.startsWith(`# \`${rule.id}\``), rule.id);
      assert.ok(rule.help!.text.startsWith(rule.id), rule.id);
      assert.doesNotMatch(rule.help!.text, /`|\*\*|^#/m);
      assert.doesNotMatch(rule.help!.markdown!, /\]\((?![a-z]+:)/, "a relative link that code scanning cannot follow");
    }
  });

  test("results: parse errors, findings sorted by path then code, 1-based regions, LWIR path", () => {
    const results = log.runs[0].results!;
    assert.deepEqual(results.map((x) => [x.ruleId, x.properties?.path]), [
      ["model.disallowed", "$.steps[0].with.model"],
      ["model.disallowed", "$.steps[1].with.model"],
      ["step.undeclared_dependency", "$.steps[1].with.prompt"],
      ["parse", undefined],
    ]);
    const first = results[0].locations![0].physicalLocation!;
    assert.deepEqual(first.artifactLocation, { uri: "flows/my%20review.lwir.yaml", uriBaseId: "%SRCROOT%" });
    assert.deepEqual(first.region, { startLine: 5, startColumn: 14, endLine: 5, endColumn: 20 });
    assert.deepEqual(results[3].locations![0].physicalLocation!.region, { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
    assert.equal(results[3].message.text, "binary file");
  });

  test("invocation reports paths that could not be read", () => {
    const failed = toSarif([], { version: "1.0.0", informationUri: "https://example.invalid/x", baseDir: "/w",
      failures: [{ path: "gone.lwir.json", reason: "no such file or folder", kind: "unreadable" }] });
    assertValidSarif(failed);
    const inv = failed.runs[0].invocations![0];
    assert.equal(inv.executionSuccessful, false);
    assert.equal(inv.toolExecutionNotifications![0].message.text, "cannot read gone.lwir.json: no such file or folder");
    assert.deepEqual(failed.runs[0].results, []);
  });

  test("artifact URIs: relative with forward slashes under the base, file: URIs outside it", () => {
    assert.deepEqual(artifactLocation("a/b c/d#1.lwir.json", "/w"), { uri: "a/b%20c/d%231.lwir.json", uriBaseId: "%SRCROOT%" });
    assert.deepEqual(artifactLocation("/w/x.lwir.json", "/w"), { uri: "x.lwir.json", uriBaseId: "%SRCROOT%" });
    assert.deepEqual(artifactLocation("../other/x.lwir.json", "/w/p"), { uri: "file:///w/other/x.lwir.json" });
    assert.deepEqual(artifactLocation("..x/y.lwir.json", "/w"), { uri: "..x/y.lwir.json", uriBaseId: "%SRCROOT%" });
  });
});

describe("lwir validate --format sarif (built CLI)", () => {
  function run(...args: string[]) {
    assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
    return spawnSync(process.execPath, [CLI, "validate", ...args], { encoding: "utf8" });
  }

  test("is valid SARIF and agrees with the JSON output", () => {
    const sarif = run("--format", "sarif", TREE);
    const json = run("--format", "json", TREE);
    assert.equal(sarif.status, 1, sarif.stderr);
    const log = JSON.parse(sarif.stdout) as Sarif.Log;
    assertValidSarif(log);
    const run0 = log.runs[0];
    assert.equal(run0.tool.driver.version, pkg.version);
    assert.equal(run0.tool.driver.informationUri, undefined, "package.json names no public home");
    assert.equal(run0.invocations![0].executionSuccessful, true);
    const rules = run0.tool.driver.rules!;
    // The build puts the same pages into the bundle as the sources read from docs/rules.
    for (const rule of rules) assert.deepEqual(rule.help, ruleHelp(readFileSync(`docs/rules/${rule.id}.md`, "utf8")), rule.id);
    // Expected results, in order: per file, parse errors then findings (already sorted in the JSON).
    type Item = { code: string; path: string; message: string; range: ReturnType<typeof r> };
    const report = JSON.parse(json.stdout) as { files: { file: string; parseErrors: { message: string; range: ReturnType<typeof r> }[]; findings: Item[]; notices: Item[] }[] };
    // (our own warnings too: the Latin-1 file of the tree gets lwir.invalid_utf8)
    const expected = report.files.flatMap((f) => [
      ...f.parseErrors.map((p) => ({ ruleId: "parse", file: f.file, path: undefined, message: p.message, range: p.range, level: "error" })),
      ...f.findings.map((x) => ({ ruleId: x.code, file: f.file, path: x.path as string | undefined, message: x.message, range: x.range, level: "error" })),
      ...f.notices.map((x) => ({ ruleId: x.code, file: f.file, path: x.path as string | undefined, message: x.message, range: x.range, level: "warning" })),
    ]);
    assert.ok(expected.some((x) => x.ruleId === "lwir.invalid_utf8"));
    const results = run0.results!;
    assert.equal(results.length, expected.length);
    assert.ok(results.some((x) => x.ruleId === "parse") && results.some((x) => x.ruleId === "model.disallowed"));
    results.forEach((result, i) => {
      const want = expected[i];
      assert.equal(result.ruleId, want.ruleId);
      assert.equal(rules[result.ruleIndex!].id, want.ruleId);
      assert.equal(result.level, want.level);
      assert.equal(result.message.text, want.message);
      assert.equal(result.properties?.path, want.path);
      const loc = result.locations![0].physicalLocation!;
      assert.deepEqual(loc.artifactLocation, { uri: want.file, uriBaseId: "%SRCROOT%" });
      assert.deepEqual(loc.region, {
        startLine: want.range.start.line + 1, startColumn: want.range.start.character + 1,
        endLine: want.range.end.line + 1, endColumn: want.range.end.character + 1,
      });
    });
    assert.equal(run0.originalUriBaseIds!["%SRCROOT%"].uri, `file://${resolve(".")}/`);
  });

  test("a clean run has no results and exits 0", () => {
    const res = run("--format", "sarif", `${TREE}/valid.lwir.json`);
    assert.equal(res.status, 0, res.stderr);
    const log = JSON.parse(res.stdout) as Sarif.Log;
    assertValidSarif(log);
    assert.deepEqual(log.runs[0].results, []);
  });
});
