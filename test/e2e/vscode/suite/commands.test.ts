// The client's own features (client/src/workflowVersionUi.ts): "LWIR: Show canonical JSON" and "LWIR: Copy
// WorkflowVersion id", both of which ask the server's lwir/workflowVersion request.
import * as vscode from "vscode";
import { equal, ok } from "./assert";
import { E2E } from "./expected";
import { expectedFile, sha256Hex, showAndWaitForDiagnostics, waitFor } from "./util";

const JSON_FILE = "release-notes.lwir.json";
const YAML_FILE = "support-triage.lwir.yaml";

function workflowVersion(name: string): { id: string; hash: string } {
  const v = expectedFile(name).report.workflowVersion;
  if (!v) throw new Error(`the CLI gives ${name} no WorkflowVersion`);
  return v;
}

suite("commands of the extension", () => {
  test(`Show canonical JSON opens the canonical form of ${JSON_FILE}`, async () => {
    const { editor } = await showAndWaitForDiagnostics(JSON_FILE);
    const source = editor.document.uri;
    await vscode.commands.executeCommand("lwir.showCanonicalJson", source);
    // the command resolves once the view is shown
    const view = await waitFor("the canonical JSON view", vscode.window.onDidChangeActiveTextEditor as vscode.Event<unknown>,
      () => (vscode.window.activeTextEditor?.document.uri.scheme === "lwir-canonical" ? vscode.window.activeTextEditor.document : undefined));
    equal(view.uri.path, "/release-notes.lwir.canonical.json", "the view's path");
    equal(view.uri.query, source.toString(), "the view's query names the source");
    equal(view.languageId, "json", "the view's language");
    const text = view.getText();
    const expected = E2E.canonical[JSON_FILE];
    ok(expected !== undefined, `no canonical JSON was prepared for ${JSON_FILE}`);
    equal(text, expected, "the canonical JSON (canonicalJson of the file's value)");
    // independent of canonical.ts: its hash is the CLI's WorkflowVersion hash, and it is the file's value
    equal(`sha256:${await sha256Hex(text)}`, workflowVersion(JSON_FILE).hash, "SHA-256 of the canonical JSON");
    equal(JSON.parse(text), JSON.parse(expectedFile(JSON_FILE).text), "the canonical JSON's value");
    ok(view.isUntitled === false && !view.isDirty, "the view is a clean virtual document");
  });

  test("Copy WorkflowVersion id puts the CLI's id on the clipboard, from the palette and from the code lens", async () => {
    // the palette's way: no argument, the active editor's document
    await showAndWaitForDiagnostics(JSON_FILE);
    await vscode.env.clipboard.writeText("lwir-e2e: nothing copied yet");
    await vscode.commands.executeCommand("lwir.copyWorkflowVersionId");
    equal(await vscode.env.clipboard.readText(), workflowVersion(JSON_FILE).id, `the clipboard after copying ${JSON_FILE}'s id`);

    // the code lens's way: the lens's own command and arguments, on the YAML example
    const { editor } = await showAndWaitForDiagnostics(YAML_FILE);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", editor.document.uri);
    const lens = lenses.find((l) => l.command?.command === "lwir.copyWorkflowVersionId");
    ok(lens?.command, `no WorkflowVersion code lens on ${YAML_FILE}`);
    await vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
    equal(await vscode.env.clipboard.readText(), workflowVersion(YAML_FILE).id, `the clipboard after the code lens of ${YAML_FILE}`);
  });
});
