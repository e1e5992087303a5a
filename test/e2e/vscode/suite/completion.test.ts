// Completion after `{{ steps.` in a prompt lists exactly the steps that step may read
// (server/src/service/completion.ts: its own list and the steps its parallel parent needs, minus itself
// unless it can run again on a loop through itself).
import * as vscode from "vscode";
import { equal } from "./assert";
import { positionOf, show, workspaceUri } from "./util";

/** Types `typed` at the end of the line holding `lineEnd`; returns the completion labels of step items there. */
async function stepCompletions(file: string, lineEnd: string, typed: string): Promise<string[]> {
  const editor = await show(workspaceUri(file));
  const at = positionOf(editor.document, lineEnd);
  if (!(await editor.edit((e) => e.insert(at, typed)))) throw new Error("the edit was not applied");
  const cursor = at.translate(0, typed.length);
  const list = await vscode.commands.executeCommand<vscode.CompletionList>("vscode.executeCompletionItemProvider", editor.document.uri, cursor, ".");
  // the server gives step ids the kind Reference; other providers (words of the document) give Text
  return list.items
    .filter((i) => i.kind === vscode.CompletionItemKind.Reference)
    .map((i) => (typeof i.label === "string" ? i.label : i.label.label))
    .sort();
}

suite("completion", () => {
  test("YAML, in a parallel body: the body's steps, the parent's needs, and the step itself on its loop", async () => {
    // review (in the body of triage) may read: draft and route (its list), review itself (maxVisits 3,
    // on the loop review -> route -> draft -> review), fetch-queue (triage needs it). Not triage, not
    // handover: they are outside the body and triage does not need them.
    const labels = await stepCompletions("support-triage.lwir.yaml", "Approve it, or say precisely what to change.", " {{ steps.");
    equal(labels, ["draft", "fetch-queue", "review", "route"], "the steps offered in review's prompt");
  });

  test("JSON, at the top level: every other step of the list", async () => {
    // write-notes (maxVisits 1, so never itself) may read the other two top-level steps
    const labels = await stepCompletions("release-notes.lwir.json", "Changes by section: {{ json(steps.group-changes.output.sections) }}", " {{ steps.");
    equal(labels, ["group-changes", "list-merged"], "the steps offered in write-notes' prompt");
  });
});
