// Editing a JSON document: a change that introduces a mistake gets exactly the diagnostic the CLI reports
// for the changed text, and undoing the change clears it.
import * as vscode from "vscode";
import { equal } from "./assert";
import { E2E, mutation } from "./expected";
import { actualDiagnostics, expectedDiagnostics, nextLwirDiagnostics, replaceOnce, showAndWaitForDiagnostics } from "./util";

suite("editing a JSON document", () => {
  test("a disallowed model gets its diagnostic while typing, and undo clears it", async () => {
    const m = mutation("json-model");
    const { editor, diagnostics } = await showAndWaitForDiagnostics(m.file);
    const before = E2E.files[m.file].report;
    equal(actualDiagnostics(diagnostics), expectedDiagnostics(before), `${m.file} before the edit`);
    const uri = editor.document.uri;

    const flagged = nextLwirDiagnostics(uri, "the diagnostic of the edit", (d) => d.length > 0);
    await replaceOnce(editor.document, m.search, m.replacement);
    equal(actualDiagnostics(await flagged), expectedDiagnostics(m.report), `${m.file} after the edit (the CLI's report of the edited text)`);

    // Undo as the user does it: the command, on the focused editor.
    const cleared = nextLwirDiagnostics(uri, "the diagnostics after undo", (d) => d.length === 0);
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand("undo");
    await cleared;
    equal(editor.document.getText(), E2E.files[m.file].text, "the text after undo");
  });
});
