// client/src/jsonSyntaxErrors.ts: in VS Code our JSON syntax errors are left out where VS Code's own JSON
// support reports them (the client's diagnostics middleware, pushed and pulled, runs these functions).
import { test } from "node:test";
import assert from "node:assert/strict";
import { editorReportsJsonSyntax, isOwnSyntaxError, withoutDuplicateSyntaxErrors } from "../../client/src/jsonSyntaxErrors";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { analyzeText } from "../../server/src/service/analysis";

test("only json/jsonc documents, with the built-in JSON extension enabled and json.validate.enable on", () => {
  assert.equal(editorReportsJsonSyntax("json", true, true), true);
  assert.equal(editorReportsJsonSyntax("jsonc", true, true), true);
  assert.equal(editorReportsJsonSyntax("yaml", true, true), false);
  assert.equal(editorReportsJsonSyntax(undefined, true, true), false, "a document the client does not know: keep ours");
  assert.equal(editorReportsJsonSyntax("json", false, true), false, "built-in JSON extension disabled");
  assert.equal(editorReportsJsonSyntax("json", true, false), false, "json.validate.enable off");
});

test("the server's syntax errors of a broken JSON document are dropped, its other diagnostics kept", () => {
  const broken = toDiagnostics(analyzeText('{"apiVersion": "littleworkflow.dev/v0.1", "kind": "Workflow" "steps": []}', "json"));
  assert.ok(broken.length > 0 && broken.every(isOwnSyntaxError), "the server reports the missing comma as syntax errors");
  assert.deepEqual(withoutDuplicateSyntaxErrors(broken, true), []);
  assert.deepEqual(withoutDuplicateSyntaxErrors(broken, false), broken, "where VS Code does not report them, ours stay");
  // a document that parses: its findings are not syntax errors
  const findings = toDiagnostics(analyzeText('{"apiVersion": "littleworkflow.dev/v0.1", "kind": "Workflow", "steps": [{"id": "a"}]}', "json"));
  assert.ok(findings.length > 0 && !findings.some(isOwnSyntaxError));
  assert.deepEqual(withoutDuplicateSyntaxErrors(findings, true), findings);
});

test("a code with a rule link ({value, target}) is recognised; other sources' `parse` codes are not ours", () => {
  const ours = { source: "lwir", code: { value: "parse", target: "https://example.invalid/rules/parse" }, message: "x" };
  const theirs = { source: "json", code: "parse", message: "y" };
  const warning = { source: "lwir", code: "lwir.parse_warning", message: "z" };
  assert.deepEqual(withoutDuplicateSyntaxErrors([ours, theirs, warning], true), [theirs, warning]);
});
