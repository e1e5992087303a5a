// Issue #15's graph view (client/src/graphPanel.ts) in VS Code desktop and for the Web: the code lens on
// `steps` opens it beside the editor, it draws one node per step, a new `needs` entry adds the edge, and
// while the document does not parse the last graph stays. The suite runs in the extension host and cannot
// look into the webview, so it reads what the page reports it drew (the extension's API, `graphView`);
// the code-server checks (test/e2e/code-server/graph.mjs) look at the page itself.
import * as vscode from "vscode";
import { equal, ok } from "./assert";
import { EXTENSION_ID, expectedFile, replaceOnce, showAndWaitForDiagnostics, waitFor } from "./util";

const JSON_FILE = "release-notes.lwir.json";

interface Drawn { uri: string; version: number; parseOk: boolean; steps: number; nodes: number; edges: string[] }
interface Api { graphView: { lastDrawn(): Drawn | undefined; onDidDraw: vscode.Event<Drawn> } }

function countSteps(steps: unknown): number {
  return Array.isArray(steps) ? steps.reduce((n: number, s: { steps?: unknown }) => n + 1 + countSteps(s?.steps), 0) : 0;
}

suite("graph view", () => {
  test("Open graph (the code lens on steps) draws every step; typing a needs entry adds the edge; a broken document keeps the last graph", async () => {
    const api = vscode.extensions.getExtension<Api>(EXTENSION_ID)?.exports;
    ok(api?.graphView, "the extension's API offers graphView");
    const { editor } = await showAndWaitForDiagnostics(JSON_FILE);
    const steps = countSteps(JSON.parse(expectedFile(JSON_FILE).text).steps);
    const drawn = (what: string, test: (d: Drawn) => boolean) => waitFor(what, api.graphView.onDidDraw as vscode.Event<unknown>, () => {
      const d = api.graphView.lastDrawn();
      return d && d.uri.endsWith(JSON_FILE) && test(d) ? d : undefined;
    }, { ms: 60_000, state: () => JSON.stringify(api.graphView.lastDrawn()) });

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", editor.document.uri);
    const lens = lenses.find((l) => l.command?.command === "lwir.openGraph");
    ok(lens?.command, `no Open graph code lens on ${JSON_FILE}`);
    equal(editor.document.getText(lens.range), '"steps"', "the lens sits on the steps key");
    await vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
    const first = await drawn(`${steps} steps drawn`, (d) => d.steps === steps);
    equal(first.parseOk, true, "the document parses");
    ok(first.edges.includes("list-merged->group-changes:needs"), `the needs edges are drawn: ${first.edges.join(", ")}`);
    ok(!first.edges.includes("list-merged->write-notes:needs"), "no edge list-merged → write-notes yet");
    const webviewTab = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith("lwir.graph")));
    ok(webviewTab, "a webview tab of the graph view");
    ok(webviewTab.viewColumn !== editor.viewColumn, "the graph opens beside the editor, not over it");

    await replaceOnce(editor.document, '"needs": [\n        "group-changes"\n      ]', '"needs": [\n        "group-changes",\n        "list-merged"\n      ]');
    const added = await drawn("the new needs edge", (d) => d.edges.includes("list-merged->write-notes:needs"));
    equal(added.steps, steps, "still one node per step");

    await replaceOnce(editor.document, '"steps": [', '"steps": [[');
    const broken = await drawn("the broken document's answer", (d) => !d.parseOk);
    equal(broken.steps, steps, "the last good graph keeps its nodes");
    equal(broken.edges, added.edges, "the last good graph keeps its edges");
  });
});
