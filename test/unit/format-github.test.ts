// `--format github`: workflow commands the Actions runner turns into annotations. Hand-made reports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { annotationPath, commandOf, escapeData, escapeProperty, formatGithub, position } from "../../server/src/cli/format-github";
import { parseArgs } from "../../server/src/cli/args";
import type { FileReport, Range } from "../../server/src/cli/report";

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

test("levels: error, warning, and notice for anything milder", () => {
  assert.deepEqual(["error", "warning", "hint", "info", "note"].map(commandOf), ["error", "warning", "notice", "notice", "notice"]);
});

test("escaping: % first, line breaks in data, also : and , in properties", () => {
  assert.equal(escapeData("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
  assert.equal(escapeProperty("a:b,c%"), "a%3Ab%2Cc%25");
});

test("positions are 1-based with an inclusive end column; an empty range keeps one column", () => {
  assert.equal(position(r(47, 13, 47, 19)), "line=48,col=14,endLine=48,endColumn=19");
  assert.equal(position(r(0, 0, 0, 0)), "line=1,col=1,endLine=1,endColumn=1");
  assert.equal(position(r(2, 5, 4, 0)), "line=3,col=6,endLine=5,endColumn=1");
});

test("file names relative to the workspace with forward slashes; outside it as given", () => {
  assert.equal(annotationPath("./flows/a.lwir.yaml", "/ws"), "flows/a.lwir.yaml");
  assert.equal(annotationPath("/ws/flows/b.lwir.json", "/ws"), "flows/b.lwir.json");
  assert.equal(annotationPath("/elsewhere/c.lwir.json", "/ws"), "/elsewhere/c.lwir.json");
});

test("one command per problem in source order, failures as errors, then a plain summary", () => {
  const files: FileReport[] = [
    { file: "a,b:c.lwir.yaml", format: "yaml", text: "", valid: false, workflowVersion: null,
      parseErrors: [{ message: "Bad indentation\n\n 3 | x\n   ^", range: r(2, 0, 2, 1) }],
      findings: [
        { code: "step.invalid_id", path: "$.steps[0].id", message: "dots are not allowed", severity: "error", range: r(5, 8, 5, 11) },
        { code: "lwir.unquoted_template", path: "$.steps[0].with.prompt", message: "quote it", severity: "warning", range: r(4, 2, 4, 9) },
      ] },
    { file: "ok.lwir.json", format: "json", text: "", valid: true, workflowVersion: { id: "wfver_0", hash: "sha256:0" }, parseErrors: [], findings: [] },
  ];
  const out = formatGithub(files, { baseDir: "/ws", failures: [{ path: "gone", reason: "no such file or folder", kind: "unreadable" }] });
  assert.equal(out, [
    "::error file=a%2Cb%3Ac.lwir.yaml,line=3,col=1,endLine=3,endColumn=1,title=parse::Bad indentation",
    "::warning file=a%2Cb%3Ac.lwir.yaml,line=5,col=3,endLine=5,endColumn=9,title=lwir.unquoted_template::quote it",
    "::error file=a%2Cb%3Ac.lwir.yaml,line=6,col=9,endLine=6,endColumn=11,title=step.invalid_id::dots are not allowed",
    "::error title=lwir::cannot read gone: no such file or folder",
    "lwir: 3 problems in 1 of 2 files; 1 path could not be checked",
    "",
  ].join("\n"));
  assert.equal(formatGithub(files.slice(1), { baseDir: "/ws" }), "lwir: 1 file checked, no problems\n");
  // A path that failed: never "no problems" (nobody knows what it holds), as in the text format.
  assert.equal(formatGithub(files.slice(1), { baseDir: "/ws", failures: [{ path: "gone", reason: "no such file or folder", kind: "unreadable" }] }),
    "::error title=lwir::cannot read gone: no such file or folder\nlwir: 1 file checked; 1 path could not be checked\n");
});

test("our own notices are annotations at their level, and a valid file with only notices has no problem", () => {
  const files: FileReport[] = [
    { file: "w.lwir.yaml", format: "yaml", text: "", valid: true, workflowVersion: { id: "wfver_1", hash: "sha256:1" }, parseErrors: [], findings: [],
      notices: [
        { code: "lwir.yaml_unquoted_template", path: "$.steps[0].with.prompt", message: "quote it", severity: "warning", range: r(4, 14, 4, 30) },
        { code: "lwir.inherited_function_name", path: "$.steps[1].with.prompt", message: "toString is not a function", severity: "hint", range: r(9, 20, 9, 28) },
      ] },
  ];
  assert.equal(formatGithub(files, { baseDir: "/ws" }), [
    "::warning file=w.lwir.yaml,line=5,col=15,endLine=5,endColumn=30,title=lwir.yaml_unquoted_template::quote it",
    "::notice file=w.lwir.yaml,line=10,col=21,endLine=10,endColumn=28,title=lwir.inherited_function_name::toString is not a function",
    "lwir: 1 file checked, no problems",
    "",
  ].join("\n"));
});

test("arguments: --format github, and `lwir schema` with no argument", () => {
  assert.deepEqual(parseArgs(["validate", "--format=github", "a"]), { kind: "validate", format: "github", exitZero: false, quiet: false, rules: {}, errorOnUnmatched: true, paths: ["a"] });
  assert.deepEqual(parseArgs(["schema"]), { kind: "schema" });
  assert.equal(parseArgs(["schema", "--format", "json"]).kind, "usage-error");
});
