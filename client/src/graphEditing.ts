// Editing from the graph view, the extension's side: an intent from the page (node ids, never text) or a
// command from the view's context menu becomes a `lwir/graphEdit` request; the server's WorkspaceEdit is
// applied with vscode.workspace.applyEdit (one undo step in the editor), and the view redraws from the
// edited text as after any edit (graphPanel.ts). A refusal is shown with the server's reason; where the
// server needs a choice (a decision's case or default, the references of a deleted step) the user is asked.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { GRAPH_EDIT_REQUEST, type GraphEditAction, type GraphEditParams, type GraphEditRefusal, type GraphResult, type GraphTextRange } from "../../server/src/protocol";
import { PALETTE, actionFor, insertedIdOffset, loopQuestion, parseEdgeKey, referencesQuestion, type EditCommand, type GraphIntent } from "../../webview/graph/editIntents";

/** What the editing needs of the open graph view. */
export interface GraphViewAccess {
  uri(): vscode.Uri | undefined;
  graph(): GraphResult["graph"] | undefined;
  selections(): Record<string, GraphTextRange> | undefined;
  /** Asks the page to run a command on its selection. */
  run(command: EditCommand): void;
}

/** The data VS Code passes to a webview/context menu command: the element's data-vscode-context. */
interface MenuContext {
  webview?: string;
  webviewSection?: string;
  lwirStep?: string;
  lwirFrom?: string;
  lwirTo?: string;
  lwirEdge?: string;
}

/** The view's commands (package.json: contributes.commands, menus["webview/context"], keybindings). */
export const GRAPH_EDIT_COMMANDS: ReadonlyArray<EditCommand> = ["connect", "disconnect", "addStep", "addStepInto", "deleteStep", "rename", "moveCaseUp", "moveCaseDown"];

export class GraphEditing {
  constructor(private readonly client: BaseLanguageClient, private readonly view: GraphViewAccess, private readonly log?: vscode.LogOutputChannel) {}

  commands(): vscode.Disposable[] {
    return GRAPH_EDIT_COMMANDS.map((name) => vscode.commands.registerCommand(`lwir.graph.${name}`, (ctx?: MenuContext) => this.command(name, ctx)));
  }

  /** A menu command on the element it was opened on; from the palette or a key, on the view's selection. */
  private command(name: EditCommand, ctx: MenuContext | undefined): void | Promise<void> {
    const step = ctx?.lwirStep;
    const edge = ctx?.lwirFrom && ctx.lwirTo && ctx.lwirEdge !== undefined ? { from: ctx.lwirFrom, to: ctx.lwirTo, edge: parseEdgeKey(ctx.lwirEdge) } : undefined;
    if (!step && !edge) return this.view.run(name);
    switch (name) {
      case "connect": return step ? this.intent({ kind: "connectTo", from: step }) : undefined;
      case "addStep": return this.intent({ kind: "chooseStep", ...(step ? { at: step } : {}) });
      case "addStepInto": return step ? this.intent({ kind: "chooseStep", at: step, into: true }) : undefined;
      case "deleteStep": return step ? this.intent({ kind: "deleteStep", id: step }) : undefined;
      case "rename": return step ? this.intent({ kind: "rename", id: step }) : undefined;
      case "disconnect":
      case "delete":
        return edge?.edge !== undefined ? this.intent({ kind: "disconnect", edge: { ...edge, edge: edge.edge } }) : undefined;
      case "moveCaseUp":
      case "moveCaseDown":
        return typeof edge?.edge === "number" ? this.intent({ kind: "moveCase", step: edge.from, index: edge.edge, by: name === "moveCaseUp" ? -1 : 1 }) : undefined;
    }
  }

  /** Carries out an intent of the page or of a command. */
  async intent(intent: GraphIntent): Promise<void> {
    const graph = this.view.graph();
    const uri = this.view.uri();
    if (!graph || !uri) return;
    try {
      if (intent.kind === "rename") return await this.rename(uri, intent.id);
      if (intent.kind === "connectTo") {
        const from = graph.nodes.find((n) => n.id === intent.from);
        const items = graph.nodes.filter((n) => n.kind === "step" && !n.problem && n.id !== intent.from && n.scope === from?.scope)
          .map((n) => ({ label: n.label, description: n.uses, id: n.id }));
        const pick = await vscode.window.showQuickPick(items, { title: `Connect "${from?.label ?? intent.from}" to…`, placeHolder: "the step that runs after it" });
        return pick ? await this.intent({ kind: "connect", from: intent.from, to: pick.id }) : undefined;
      }
      if (intent.kind === "chooseStep") {
        const pick = await vscode.window.showQuickPick(PALETTE.map((p) => ({ label: `${p.glyph} ${p.uses}`, description: p.title.replace(/^[^:]*: /, ""), uses: p.uses })),
          { title: intent.into ? "Add a step to the body" : intent.at ? "Add a step after the selected step" : "Add a step" });
        return pick ? await this.intent({ kind: "addStep", uses: pick.uses, ...(intent.at ? { at: intent.at } : {}), ...(intent.into ? { into: true } : {}) }) : undefined;
      }
      const outcome = actionFor(graph, intent);
      if ("refused" in outcome) return void vscode.window.showWarningMessage(`LWIR: ${outcome.refused}`);
      await this.send(uri, outcome.action);
    } catch (error) {
      this.log?.warn(`graph edit: ${String(error)}`);
      void vscode.window.showErrorMessage(`LWIR: the graph edit failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Asks the server for the action's edit and applies it; a refusal that needs a choice asks and sends again. */
  private async send(uri: vscode.Uri, action: GraphEditAction): Promise<void> {
    if (!this.client.isRunning()) return;
    const params: GraphEditParams = { textDocument: { uri: this.client.code2ProtocolConverter.asUri(uri) }, action };
    let answer: unknown;
    try {
      answer = await this.client.sendRequest(GRAPH_EDIT_REQUEST, params);
    } catch (error) {
      // a refusal: a ResponseError (RequestFailed) with the reason as message and GraphEditRefusal as data
      if (!isResponseError(error)) throw error;
      const again = await this.choose(action, error.message, error.data as GraphEditRefusal | undefined);
      if (again) await this.send(uri, again);
      return;
    }
    if (!answer) return void vscode.window.showWarningMessage("LWIR: this document cannot be edited from the graph (not an open LWIR document).");
    const document = await vscode.workspace.openTextDocument(uri);
    const lsp = answer as { changes?: Record<string, Array<{ range: GraphTextRange; newText: string }>> };
    const mine = Object.values(lsp.changes ?? {})[0] ?? [];
    // where the edits are in the text before they apply (to find an added step's id after)
    const offsets = mine.map((e) => ({
      start: document.offsetAt(new vscode.Position(e.range.start.line, e.range.start.character)),
      end: document.offsetAt(new vscode.Position(e.range.end.line, e.range.end.character)),
      newText: e.newText,
    }));
    const edit = await this.client.protocol2CodeConverter.asWorkspaceEdit(answer as Parameters<BaseLanguageClient["protocol2CodeConverter"]["asWorkspaceEdit"]>[0] & object);
    if (!(await vscode.workspace.applyEdit(edit))) return void vscode.window.showWarningMessage("LWIR: the editor did not apply the graph edit (the document changed meanwhile?).");
    if (action.kind === "addStep") {
      const at = insertedIdOffset(offsets);
      if (at) await this.show(uri, new vscode.Range(document.positionAt(at.offset), document.positionAt(at.offset + at.length)));
    }
  }

  /** The action again with the user's choice, or undefined (cancelled, or nothing to choose: the reason is shown). */
  private async choose(action: GraphEditAction, message: string, data: GraphEditRefusal | undefined): Promise<GraphEditAction | undefined> {
    if (data?.reason === "ambiguous" && action.kind === "connect" && data.choices.includes("case") && data.choices.includes("default")) {
      const pick = await vscode.window.showQuickPick([
        { label: "A new case", description: "when: {{ false }} for you to write", as: "case" as const },
        { label: "The default", description: "where the decision goes when no case holds", as: "default" as const },
      ], { title: `Connect "${action.from}" to "${action.to}" as`, placeHolder: "The decision has no default: a new case, or its default?" });
      return pick ? { ...action, as: pick.as } : undefined;
    }
    if (data?.reason === "loop" && action.kind === "connect") {
      // a valid loop is offered, never closed silently: the user confirms the edge and its maxVisits
      const accept = data.steps.length > 0 ? `Add edge and maxVisits ${data.maxVisits}` : "Add edge";
      const answer = await vscode.window.showWarningMessage(loopQuestion(this.view.graph(), action, data), { modal: true }, accept);
      return answer === accept ? { ...action, acceptLoop: true } : undefined;
    }
    if (data?.reason === "referenced" && action.kind === "deleteStep") {
      const graph = this.view.graph();
      const label = graph?.nodes.find((n) => n.id === action.id)?.label ?? action.id;
      const remove = "Remove the references too";
      const keep = "Keep the references";
      const answer = await vscode.window.showWarningMessage(referencesQuestion(label, data.referrers), { modal: true, detail: "Expressions and fanIn.outputStep naming it are left for you to change." }, remove, keep);
      return answer === remove ? { ...action, references: "remove" } : answer === keep ? { ...action, references: "keep" } : undefined;
    }
    if (data?.reason === "cycle") void vscode.window.showErrorMessage(`LWIR: ${message}`);
    else void vscode.window.showWarningMessage(`LWIR: ${message}`);
    return undefined;
  }

  /** F2 on a node: the editor's own rename, at the step's id. */
  private async rename(uri: vscode.Uri, id: string): Promise<void> {
    const range = this.view.selections()?.[id];
    if (!range) return;
    const start = new vscode.Position(range.start.line, range.start.character);
    const end = new vscode.Position(range.end.line, range.end.character);
    // inside the id (a JSON string's range starts at its quote)
    const inside = new vscode.Position(start.line, start.character + Math.max(0, Math.floor((end.character - start.character) / 2)));
    await this.show(uri, new vscode.Range(inside, inside));
    await vscode.commands.executeCommand("editor.action.rename");
  }

  /** Shows the document in its editor (the view's neighbour) with `range` selected, the editor focused. */
  private async show(uri: vscode.Uri, range: vscode.Range): Promise<void> {
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const selection = new vscode.Selection(range.start, range.end);
    const editor = await vscode.window.showTextDocument(uri, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, selection, preserveFocus: false });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

function isResponseError(error: unknown): error is { code: number; message: string; data?: unknown } {
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "number" && typeof (error as { message?: unknown }).message === "string";
}
