// The "add missing needs" quick fix on broken-review.lwir.yaml: offered for the step.undeclared_dependency
// diagnostic, and applying its edit clears that diagnostic and keeps the others exactly.
import * as vscode from "vscode";
import { equal, includes, ok } from "./assert";
import { actualDiagnostics, expectedDiagnostics, expectedFile, nextLwirDiagnostics, showAndWaitForDiagnostics } from "./util";

const FILE = "broken-review.lwir.yaml";
const CODE = "step.undeclared_dependency";
// server/src/service/codeActions.ts: `Add "${id}" to the needs of ${stepName}`; publish reads
// steps.fetch-diff but needs only review.
const TITLE = 'Add "fetch-diff" to the needs of "publish"';

suite("quick fix", () => {
  test(`"${TITLE}" clears ${CODE} and keeps the other diagnostics`, async () => {
    const { report } = expectedFile(FILE);
    const { editor, diagnostics } = await showAndWaitForDiagnostics(FILE);
    const uri = editor.document.uri;
    const target = diagnostics.find((d) => (typeof d.code === "object" ? d.code.value : d.code) === CODE);
    ok(target, `no ${CODE} diagnostic on ${FILE}`);

    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      "vscode.executeCodeActionProvider", uri, target.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a): a is vscode.CodeAction => a.title === TITLE);
    ok(fix, `no "${TITLE}" among the quick fixes: ${actions.map((a) => a.title).join(" | ")}`);
    ok(fix.edit, "the fix has no edit");
    ok(fix.kind?.value === vscode.CodeActionKind.QuickFix.value, `the fix's kind is ${fix.kind?.value}`);
    ok(fix.isPreferred === true, "the fix is not the preferred one");

    const fixed = nextLwirDiagnostics(uri, `the diagnostics without ${CODE}`, (d) => !d.some((x) => (typeof x.code === "object" ? x.code.value : x.code) === CODE));
    ok(await vscode.workspace.applyEdit(fix.edit), "applyEdit refused the fix");
    const rest = report.findings.filter((f) => f.code !== CODE);
    // the edit stays inside the line of publish's needs, which holds no other finding, so their ranges stay
    equal(actualDiagnostics(await fixed), expectedDiagnostics({ ...report, findings: rest }), "the diagnostics after the fix");
    includes(editor.document.getText(), "    needs: [review, fetch-diff]\n", "the fixed needs of publish");
  });
});
