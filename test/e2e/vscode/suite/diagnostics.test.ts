// Each workspace example, opened in an editor, shows exactly what `lwir validate --format json` reports
// for the file: code, message, severity and range of every finding; a valid file shows none.
import * as vscode from "vscode";
import { equal, ok } from "./assert";
import { E2E } from "./expected";
import { actualDiagnostics, expectedDiagnostics, lwirDiagnostics, showAndWaitForDiagnostics, workspaceUri } from "./util";

/** The server's code lens on `apiVersion`: "WorkflowVersion <id>" when valid, else "<n> problems". */
async function lensTitle(uri: vscode.Uri): Promise<string | undefined> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", uri);
  const ours = lenses.filter((l) => l.command && /^(lwir\.copyWorkflowVersionId|workbench\.actions\.view\.problems)$/.test(l.command.command));
  return ours.length === 1 ? ours[0].command!.title : undefined;
}

suite("diagnostics of the examples", () => {
  for (const [name, { report }] of Object.entries(E2E.files)) {
    const findings = report.findings.length + report.parseErrors.length;
    test(`${name} (${report.format}): ${findings === 0 ? "no diagnostics" : `the CLI's ${findings} findings`}`, async () => {
      // The language client's own answer for this document (see util.ts on why not just any event):
      // for a valid document that is the proof that "none" is the server's answer, not a moment too early.
      const { diagnostics } = await showAndWaitForDiagnostics(name);
      const expected = expectedDiagnostics(report);
      equal(actualDiagnostics(diagnostics), expected, `the language server's diagnostics for ${name}`);
      ok(diagnostics.every((d) => d.source === "lwir"), "every diagnostic of the client has the source lwir");
      // and what VS Code now holds for the file (the Problems panel) is that, no more
      const uri = workspaceUri(name);
      equal(actualDiagnostics(lwirDiagnostics(uri)), expected, `VS Code's LWIR diagnostics for ${name}`);
      // the server's WorkflowVersion for the same text agrees with the CLI's
      const title = await lensTitle(uri);
      const want = report.valid && report.workflowVersion ? `WorkflowVersion ${report.workflowVersion.id}` : `${findings} problem${findings === 1 ? "" : "s"}`;
      equal(title, want, `the code lens of ${name}`);
    });
  }
});
