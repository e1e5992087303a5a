// Workspace trust. The runners run the whole suite twice: with the folder trusted (the runners' default)
// and untrusted with trust enabled (Restricted Mode). The extension declares `untrustedWorkspaces:
// supported`, so in Restricted Mode it must still validate; every other test runs there as well.
import * as vscode from "vscode";
import { equal } from "./assert";
import { E2E } from "./expected";
import { actualDiagnostics, expectedDiagnostics, expectedFile, showAndWaitForDiagnostics } from "./util";

const FILE = "broken-review.lwir.yaml";

suite("workspace trust", () => {
  if (E2E.trust === "untrusted") {
    test(`with trust enabled and the folder untrusted, ${FILE} still gets its diagnostics`, async () => {
      equal(vscode.workspace.getConfiguration("security.workspace.trust").get("enabled"), true, "security.workspace.trust.enabled");
      equal(vscode.workspace.isTrusted, false, "vscode.workspace.isTrusted");
      const { diagnostics } = await showAndWaitForDiagnostics(FILE);
      equal(actualDiagnostics(diagnostics), expectedDiagnostics(expectedFile(FILE).report), `the diagnostics of ${FILE} in Restricted Mode`);
    });
  } else {
    test("the runner opened the folder trusted", () => {
      equal(vscode.workspace.isTrusted, true, "vscode.workspace.isTrusted");
    });
  }
});
