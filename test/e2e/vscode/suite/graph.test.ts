// Issue #15's graph view (client/src/graphPanel.ts) in VS Code desktop and for the Web: the code lens on
// `steps` runs "Open graph", which opens the view (a webview of type lwir.graph) beside the editor and
// follows the document. This suite checks what the extension host sees. What the page draws and does is
// checked on the page itself, by the Playwright checks of test/e2e/code-server/graph.mjs (node count =
// steps, a click selects the step, the cursor highlights its node, a typed needs adds the edge, a broken
// document keeps the last graph under a banner, a theme switch recolours the view), run in code-server
// and in VS Code for the Web 1.91.1 (test/e2e/vscode/graph-web.mjs, the vscode part's "graph" run).
// In this suite's own web runs the page does not load: test-web serves webview frames from
// `<uuid>.<the workbench's host>`, and the workbench is opened at 127.0.0.1 here (graph-web.mjs says why
// that cannot load, and opens it at a name under localhost instead).
import * as vscode from "vscode";
import { equal, ok } from "./assert";
import { showAndWaitForDiagnostics, waitFor } from "./util";

const JSON_FILE = "release-notes.lwir.json";

function graphTabs(): Array<{ tab: vscode.Tab; group: vscode.TabGroup }> {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith("lwir.graph"))
    .map((tab) => ({ tab, group })));
}

suite("graph view", () => {
  test("Open graph (the code lens on steps) opens the graph view beside the editor, once", async () => {
    const { editor } = await showAndWaitForDiagnostics(JSON_FILE);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", editor.document.uri);
    const lens = lenses.find((l) => l.command?.command === "lwir.openGraph");
    ok(lens?.command, `no Open graph code lens on ${JSON_FILE}`);
    equal(editor.document.getText(lens.range), '"steps"', "the lens sits on the steps key");
    await vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
    // the title names the document once the server has answered for it
    const [view] = await waitFor(`the graph view's tab "Graph: ${JSON_FILE}"`, vscode.window.tabGroups.onDidChangeTabs as vscode.Event<unknown>,
      () => (graphTabs().some((t) => t.tab.label === `Graph: ${JSON_FILE}`) ? graphTabs() : undefined),
      { state: () => vscode.window.tabGroups.all.map((g) => g.tabs.map((t) => t.label).join("|")).join(" / ") });
    ok(view.group.viewColumn !== editor.viewColumn, "the graph opens beside the editor, not over it");
    // the palette's way (no argument: the active editor's document) reveals the same view
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    await vscode.commands.executeCommand("lwir.openGraph");
    equal(graphTabs().length, 1, "one graph view");
  });
});
