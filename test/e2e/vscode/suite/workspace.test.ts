// Issue #16 in VS Code (desktop, and the browser build, where the extension finds and reads the files
// through vscode.workspace for the server): with `lwir.validation.scope` "workspace" (the default), every
// example shows exactly the CLI's diagnostics without being opened.
import * as vscode from "vscode";
import { equal, ok } from "./assert";
import { E2E } from "./expected";
import { actualDiagnostics, expectedDiagnostics, lwirDiagnostics, waitFor, workspaceUri } from "./util";

suite("workspace problems", () => {
  test("every LWIR file of the folder shows the CLI's findings without being opened", async () => {
    const names = Object.keys(E2E.files);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    equal(tabs.length, 0, "no editor is open");
    ok(names.some((n) => E2E.files[n].report.findings.length > 0), "an example has findings");
    const same = (name: string) => JSON.stringify(actualDiagnostics(lwirDiagnostics(workspaceUri(name)))) === JSON.stringify(expectedDiagnostics(E2E.files[name].report));
    await waitFor("every example's diagnostics to equal the CLI's", vscode.languages.onDidChangeDiagnostics as vscode.Event<unknown>,
      () => (names.every(same) ? true : undefined), { ms: 60_000, state: () => names.map((n) => `${n}: ${lwirDiagnostics(workspaceUri(n)).length}`).join(", ") });
    for (const name of names) equal(actualDiagnostics(lwirDiagnostics(workspaceUri(name))), expectedDiagnostics(E2E.files[name].report), name);
  });
});
