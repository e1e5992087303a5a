// Hover, go to definition, find references, rename and the outline, on the step `review` of
// support-triage.lwir.yaml, which lives in the parallel body of `triage`. The expected places are found
// in the text here, by reading the workflow: review is declared by `- id: review` and named by route's
// `needs: [review]`, draft's `steps.review.lastOutput.feedback` and route's `steps.review.lastOutput.approved`;
// the word "review" in the comment above triage names nothing.
import * as vscode from "vscode";
import { equal, includes, ok, rejects } from "./assert";
import { nextLwirDiagnostics, showAndWaitForDiagnostics } from "./util";

const FILE = "support-triage.lwir.yaml";
const ID = "review";

/** The range of `review` inside the one occurrence of `context` (at `offset` characters into it). */
function idRange(document: vscode.TextDocument, context: string, offset: number): vscode.Range {
  const text = document.getText();
  const at = text.indexOf(context);
  if (at < 0 || text.indexOf(context, at + 1) >= 0) throw new Error(`expected one ${JSON.stringify(context)} in ${FILE}`);
  if (text.slice(at + offset, at + offset + ID.length) !== ID) throw new Error(`${JSON.stringify(context)} has no "${ID}" at ${offset}`);
  return new vscode.Range(document.positionAt(at + offset), document.positionAt(at + offset + ID.length));
}

interface Places { declaration: vscode.Range; needs: vscode.Range; inDraft: vscode.Range; inRoute: vscode.Range }

function places(document: vscode.TextDocument): Places {
  return {
    declaration: idRange(document, "- id: review\n", 6),
    needs: idRange(document, "needs: [review]", 8),
    inDraft: idRange(document, "steps.review.lastOutput.feedback", 6),
    inRoute: idRange(document, "steps.review.lastOutput.approved", 6),
  };
}

const show = (r: vscode.Range) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
const sorted = (ranges: vscode.Range[]) => ranges.map(show).sort();

async function open(): Promise<{ document: vscode.TextDocument; at: Places }> {
  const { editor, diagnostics } = await showAndWaitForDiagnostics(FILE);
  equal(diagnostics.length, 0, `${FILE} is valid`);
  return { document: editor.document, at: places(editor.document) };
}

suite(`navigation on the step "${ID}" (${FILE})`, () => {
  test("hover on a steps.review reference shows the step", async () => {
    const { document, at } = await open();
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", document.uri, at.inDraft.start.translate(0, 2));
    const ours = hovers.filter((h) => h.contents.some((c) => (typeof c === "string" ? c : "value" in c ? c.value : "").includes("**step `review`**")));
    equal(ours.length, 1, "LWIR hovers");
    const markdown = ours[0].contents.map((c) => (typeof c === "string" ? c : "value" in c ? c.value : "")).join("\n");
    includes(markdown, "**step `review`** · `ai.generate`", "hover head");
    includes(markdown, "model: `gpt-4o`", "hover model");
    includes(markdown, "*expression reference*", "hover kind of occurrence");
    equal(ours[0].range && show(ours[0].range), show(at.inDraft), "hover range");
  });

  test("go to definition from a reference lands on the id", async () => {
    const { document, at } = await open();
    const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      "vscode.executeDefinitionProvider", document.uri, at.inRoute.start.translate(0, 1));
    const targets = found.map((l) => ("targetUri" in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l));
    equal(targets.map((t) => [t.uri.toString(), show(t.range)]), [[document.uri.toString(), show(at.declaration)]], "definitions");
  });

  test("find references lists the declaration and every use, not the comment", async () => {
    const { document, at } = await open();
    const found = await vscode.commands.executeCommand<vscode.Location[]>("vscode.executeReferenceProvider", document.uri, at.declaration.start);
    ok(found.every((l) => l.uri.toString() === document.uri.toString()), "references in another document");
    equal(sorted(found.map((l) => l.range)), sorted([at.declaration, at.needs, at.inDraft, at.inRoute]), "references");
  });

  test("rename edits the id and every use, keeps the workflow valid, and refuses a taken id", async () => {
    const { document, at } = await open();
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>("vscode.executeDocumentRenameProvider", document.uri, at.needs.start, "critique");
    const entries = edit.entries();
    equal(entries.map(([u]) => u.toString()), [document.uri.toString()], "documents the rename edits");
    const edits = entries[0][1];
    equal(edits.map((e) => e.newText), edits.map(() => "critique"), "new texts");
    equal(sorted(edits.map((e) => e.range)), sorted([at.declaration, at.needs, at.inDraft, at.inRoute]), "renamed ranges");

    // the text afterwards: the four places renamed, nothing else
    const before = document.getText();
    const offsets = [at.declaration, at.needs, at.inDraft, at.inRoute].map((r) => document.offsetAt(r.start)).sort((a, b) => b - a);
    const expected = offsets.reduce((text, o) => text.slice(0, o) + "critique" + text.slice(o + ID.length), before);
    const checked = nextLwirDiagnostics(document.uri, "the diagnostics after the rename");
    ok(await vscode.workspace.applyEdit(edit), "applyEdit refused the rename");
    equal(document.getText(), expected, "the text after the rename");
    equal((await checked).length, 0, "diagnostics after the rename");

    // the id is now critique (same place); draft is taken in the same list
    await rejects(vscode.commands.executeCommand("vscode.executeDocumentRenameProvider", document.uri, at.declaration.start, "draft"),
      'A step "draft" already exists in this list', "renaming to a taken id");
  });

  test("the outline nests the parallel body under its step", async () => {
    const { document, at } = await open();
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>("vscode.executeDocumentSymbolProvider", document.uri);
    equal(symbols.map((s) => s.name), ["apiVersion", "kind", "metadata", "input", "output", "permissions", "steps"], "top-level symbols");
    const tree = (s: vscode.DocumentSymbol): unknown => ({
      name: s.name, detail: s.detail, kind: vscode.SymbolKind[s.kind], ...(s.children.length ? { children: s.children.map(tree) } : {}),
    });
    const steps = symbols.find((s) => s.name === "steps")!;
    equal(steps.children.map(tree), [
      { name: "fetch-queue", detail: "tool.call", kind: "Method" },
      { name: "triage", detail: "parallel", kind: "Array", children: [
        { name: "draft", detail: "ai.generate", kind: "Function" },
        { name: "review", detail: "ai.generate", kind: "Function" },
        { name: "route", detail: "decision", kind: "Event" },
      ] },
      { name: "handover", detail: "ai.generate", kind: "Function" },
    ], "the steps in the outline");
    const review = steps.children[1].children[1];
    equal(show(review.selectionRange), show(at.declaration), "the outline selects review's id");
  });
});
