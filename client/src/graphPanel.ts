// "LWIR: Open Graph": a webview beside the editor drawing the active LWIR document's graph, for the Node
// and browser extensions alike. The server computes the graph and its layout (`lwir/graph`); this asks
// again after each edit (debounced) and when another LWIR editor becomes active, passes clicks back as
// editor selections and the editor's cursor forward as the highlighted step. Nothing is parsed or laid
// out in the extension host.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { GRAPH_REQUEST, OPEN_GRAPH_COMMAND, type GraphParams, type GraphResult } from "../../server/src/protocol";
import type { FromWebview, GraphViewState, ToWebview } from "../../webview/graph/messages";
import { GRAPH_STYLE, stepAt } from "../../webview/graph/view";
import { OVERLAY_STYLE } from "../../webview/graph/overlay";
import { lastDryRun, onDidDryRun } from "./dryRunCommand";
import { EDIT_STYLE } from "../../webview/graph/editIntents";
import { GraphEditing } from "./graphEditing";

const VIEW_TYPE = "lwir.graph";
const LANGUAGES = new Set(["json", "jsonc", "yaml"]);
/** Quiet time after an edit before asking the server again. */
const EDIT_DELAY_MS = 100;

export function registerGraphView(context: vscode.ExtensionContext, client: BaseLanguageClient, log?: vscode.LogOutputChannel): void {
  const view = new GraphView(context, client, log);
  context.subscriptions.push(
    view,
    ...view.editing.commands(),
    vscode.commands.registerCommand(OPEN_GRAPH_COMMAND, (arg?: unknown) => view.open(documentUri(arg))),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: GraphViewState | undefined) => {
        view.adopt(panel, typeof state?.uri === "string" ? vscode.Uri.parse(state.uri) : vscode.window.activeTextEditor?.document.uri);
      },
    }),
  );
}

/** The document a command is about: a URI argument (code lens, editor title), else the active editor's. */
function documentUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === "string") return vscode.Uri.parse(arg);
  if (typeof arg === "object" && arg !== null && typeof (arg as { uri?: unknown }).uri === "string") return vscode.Uri.parse((arg as { uri: string }).uri);
  return vscode.window.activeTextEditor?.document.uri;
}

class GraphView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private panelListeners: vscode.Disposable[] = [];
  private readonly listeners: vscode.Disposable[];
  /** The document shown, and the last answer for it. */
  private uri: vscode.Uri | undefined;
  private last: GraphResult | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the first edit not yet drawn was seen (Date.now()). */
  private editAt: number | undefined;
  private generation = 0;
  private ready = false;
  private fitNext = true;
  /** The document of the last graph posted (a new page or another document gets its last dry run). */
  private posted: string | undefined;
  /** Editing from the graph (graphEditing.ts). */
  readonly editing: GraphEditing;

  constructor(private readonly context: vscode.ExtensionContext, private readonly client: BaseLanguageClient, private readonly log?: vscode.LogOutputChannel) {
    this.editing = new GraphEditing(client, {
      uri: () => this.uri,
      graph: () => this.last?.graph,
      selections: () => this.last?.selections,
      run: (command) => this.post({ type: "editCommand", command }),
    }, log);
    this.listeners = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!this.panel || e.contentChanges.length === 0 || e.document.uri.toString() !== this.uri?.toString()) return;
        this.editAt ??= Date.now();
        this.schedule(EDIT_DELAY_MS);
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (!this.panel || !editor || !LANGUAGES.has(editor.document.languageId)) return;
        if (editor.document.uri.toString() === this.uri?.toString()) return;
        void this.follow(editor.document.uri);
      }),
      // a new dry run of the document shown: drawn over the graph
      onDidDryRun((run) => { if (this.uri && run.uri === this.protocolUri(this.uri)) this.post({ type: "dryRun", run }); }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (!this.panel || e.textEditor.document.uri.toString() !== this.uri?.toString() || !this.last) return;
        this.post({ type: "select", id: stepAt(this.last.graph, e.selections[0].active) });
      }),
    ];
  }

  async open(uri: vscode.Uri | undefined): Promise<void> {
    if (!uri) return void vscode.window.showWarningMessage("LWIR: open an LWIR document first.");
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, "LWIR Graph", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, "dist", "webview")],
      });
      this.adopt(panel, undefined);
    } else {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    await this.follow(uri, true);
  }

  /** Takes a panel (a new one, or one VS Code restored) and shows `uri` in it. */
  adopt(panel: vscode.WebviewPanel, uri: vscode.Uri | undefined): void {
    this.panel?.dispose();
    this.panel = panel;
    this.ready = false;
    this.posted = undefined;
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, "dist", "webview")] };
    panel.webview.html = this.html(panel.webview);
    this.panelListeners = [
      panel.onDidDispose(() => {
        if (this.panel !== panel) return;
        this.panel = undefined;
        this.last = undefined;
        this.uri = undefined;
        for (const l of this.panelListeners) l.dispose();
        this.panelListeners = [];
      }),
      panel.webview.onDidReceiveMessage((m: FromWebview) => void this.received(m)),
    ];
    if (uri) void this.follow(uri, true);
  }

  private async follow(uri: vscode.Uri, fit = false): Promise<void> {
    const changed = uri.toString() !== this.uri?.toString();
    if (changed) {
      // only LWIR documents are followed: ask first, switch on an answer
      const result = await this.ask(uri).catch(() => null);
      if (!result) {
        if (fit) void vscode.window.showWarningMessage("LWIR: this is not an LWIR document (or it is larger than lwir.maxFileSize).");
        return;
      }
      this.uri = uri;
      this.last = undefined;
      if (this.panel) this.panel.title = `Graph: ${uri.path.slice(uri.path.lastIndexOf("/") + 1)}`;
      this.fitNext = true;
    }
    if (fit) this.fitNext = true;
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; void this.update(); }, delay);
  }

  private async ask(uri: vscode.Uri, mermaid = false, provisional = false): Promise<GraphResult | null> {
    if (!this.client.isRunning()) return null;
    const params: GraphParams = { uri: this.client.code2ProtocolConverter.asUri(uri), ...(mermaid ? { mermaid } : {}), ...(provisional ? { provisional } : {}) };
    return this.client.sendRequest<GraphResult | null>(GRAPH_REQUEST, params);
  }

  private async update(): Promise<void> {
    const uri = this.uri;
    if (!uri || !this.panel || !this.ready) return;
    const generation = ++this.generation;
    const editAt = this.editAt;
    const changedDocument = this.posted !== uri.toString();
    // after an edit, an answer at once on the last layout is welcome when only edges changed; the new
    // layout is asked for right after it (and replaces it unless another edit came first)
    const result = await this.ask(uri, false, editAt !== undefined).catch((error) => { this.log?.warn(`graph: ${String(error)}`); return null; });
    if (generation !== this.generation || !result || uri.toString() !== this.uri?.toString()) return;
    this.editAt = undefined;
    if (result.provisional) this.schedule(0);
    this.last = result;
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const selected = editor ? stepAt(result.graph, editor.selection.active) : undefined;
    this.post({ type: "graph", result, fit: this.fitNext, editAt, selected: selected ?? "" });
    if (changedDocument) this.post({ type: "dryRun", run: lastDryRun(result.uri) });
    this.fitNext = false;
    this.posted = uri.toString();
  }

  private protocolUri(uri: vscode.Uri): string {
    return this.client.code2ProtocolConverter.asUri(uri);
  }

  private post(message: ToWebview): void {
    if (this.ready) void this.panel?.webview.postMessage(message);
  }

  private async received(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "ready":
        // a page VS Code reloaded (the tab was hidden) keeps its saved position; a new page fits (main.ts)
        this.ready = true;
        this.posted = undefined;
        this.schedule(0);
        return;
      case "reveal":
        return this.reveal(message.id, message.focusEditor === true, message.case);
      case "edit":
        return this.editing.intent(message.intent);
      case "copyMermaid": {
        if (!this.uri) return;
        const result = await this.ask(this.uri, true).catch(() => null);
        if (result?.mermaid === undefined) return void vscode.window.showWarningMessage("LWIR: no graph to copy.");
        await vscode.env.clipboard.writeText(result.mermaid);
        vscode.window.setStatusBarMessage("$(check) Copied the graph as Mermaid", 3000);
        return;
      }
      case "saveSvg": {
        if (typeof message.svg !== "string" || !this.uri) return;
        const name = this.uri.path.slice(this.uri.path.lastIndexOf("/") + 1).replace(/\.(json|ya?ml)$/i, "").replace(/\.lwir$/i, "") || "workflow";
        const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(this.uri, "..", `${name}.graph.svg`), filters: { SVG: ["svg"] } });
        if (!target) return;
        await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(message.svg));
        vscode.window.setStatusBarMessage(`$(check) Saved ${target.path.slice(target.path.lastIndexOf("/") + 1)}`, 3000);
        return;
      }
      case "drawn":
        if (message.editToDrawMs !== undefined) {
          this.log?.info(`graph: version ${message.drawn.version} (${message.drawn.nodes} nodes) drawn ${Math.round(message.editToDrawMs)} ms after the edit (drawing ${Math.round(message.drawMs)} ms)`);
        }
        return;
    }
  }

  /** Reveals and selects the node's step (its id value) in its editor. */
  /** Shows the step and selects its id; the keyboard focus moves to the editor only when asked (a double click, Enter). */
  private async reveal(id: string, focusEditor: boolean, caseIndex?: number): Promise<void> {
    // a row of a decision's case list: the case's own range, else the step's id
    const caseRange = caseIndex !== undefined ? this.last?.graph.nodes.find((n) => n.id === id)?.cases?.find((c) => c.index === caseIndex)?.range : undefined;
    const range = caseRange ?? this.last?.selections[id];
    if (!range || !this.uri) return;
    let selection = new vscode.Selection(range.start.line, range.start.character, range.end.line, range.end.character);
    if (caseRange && range.end.character === 0 && range.end.line > range.start.line) {
      // a YAML block item's range takes its line break: end the selection on the case's last line instead
      const document = await vscode.workspace.openTextDocument(this.uri);
      selection = new vscode.Selection(selection.anchor, document.lineAt(range.end.line - 1).range.end);
    }
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri!.toString());
    const editor = await vscode.window.showTextDocument(this.uri, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, selection, preserveFocus: !focusEditor });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private html(webview: vscode.Webview): string {
    const nonce = makeNonce();
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, "dist", "webview", "graph.js"));
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src ${webview.cspSource} 'nonce-${nonce}'`,
      `img-src ${webview.cspSource} data:`,
    ].join("; ");
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>LWIR Graph</title>
<style nonce="${nonce}">
  html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; }
  body { display: flex; flex-direction: column; background: var(--vscode-editor-background); color: var(--vscode-foreground);
    font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  /* one row at any width the view is given: the search box and the status give way, the buttons do not */
  .toolbar { display: flex; gap: 4px; align-items: center; padding: 4px 6px; border-bottom: 1px solid var(--vscode-panel-border, transparent); flex-wrap: nowrap; overflow: hidden; }
  .toolbar button { flex: none; background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: 1px solid var(--vscode-button-border, transparent);
    padding: 2px 8px; cursor: pointer; font: inherit; border-radius: 2px; white-space: nowrap; }
  .toolbar button:hover { background: var(--vscode-button-secondaryHoverBackground); }
  .toolbar button:focus-visible, .toolbar input:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: 0; }
  .toolbar input { flex: 0 1 16ch; min-width: 12ch; box-sizing: border-box; background: var(--vscode-input-background); color: var(--vscode-input-foreground);
    border: 1px solid var(--vscode-input-border, transparent); padding: 2px 4px; font: inherit; }
  .toolbar input::placeholder { color: var(--vscode-input-placeholderForeground); opacity: 1; }
  .toolbar .status { flex: 1 1 0; min-width: 0; color: var(--vscode-foreground); margin-left: 4px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .banner { padding: 4px 8px; background: var(--vscode-inputValidation-warningBackground); color: var(--vscode-foreground);
    border-bottom: 1px solid var(--vscode-inputValidation-warningBorder); }
  .banner[hidden], .empty[hidden] { display: none; }
  .stage { position: relative; flex: 1; min-height: 0; display: flex; }
  .empty { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; padding: 16px; text-align: center; color: var(--vscode-foreground); pointer-events: none; }
  svg#canvas { flex: 1; width: 100%; height: 100%; min-height: 0; cursor: grab; background: var(--vscode-editor-background); }
  svg#canvas:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  svg#canvas.panning { cursor: grabbing; }
  svg#canvas [data-id] { cursor: pointer; }
  .legend { display: flex; flex-wrap: wrap; gap: 2px 14px; align-items: center; padding: 3px 8px; border-top: 1px solid var(--vscode-panel-border, transparent);
    color: var(--vscode-foreground); background: var(--vscode-editor-background); font-size: 11px; }
  .legend .item { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; }
  .legend svg.sample { overflow: visible; }
${GRAPH_STYLE}
${OVERLAY_STYLE}
${EDIT_STYLE}
</style>
</head>
<body>
<div class="toolbar" role="toolbar" aria-label="Graph">
  <input id="search" type="search" placeholder="Find step" title="Find a step by its id: Enter goes to the next match, Shift+Enter to the previous one" aria-label="Find step (Enter: next match)">
  <span id="status" class="status" aria-live="polite"></span>
  <button id="zoomOut" title="Zoom out" aria-label="Zoom out">−</button>
  <button id="zoomIn" title="Zoom in" aria-label="Zoom in">+</button>
  <button id="fit" title="Fit the graph in the view">Fit</button>
  <button id="mermaid" title="Copy the graph as a Mermaid flowchart" aria-label="Copy as Mermaid">Mermaid</button>
  <button id="saveSvg" title="Save the drawing as an SVG file" aria-label="Save as SVG">SVG</button>
</div>
<div id="banner" class="banner" role="status" hidden></div>
<div class="stage">
<svg id="canvas" tabindex="0" role="application" aria-label="Workflow graph: Tab or arrow keys move between steps, Enter shows the step in the editor" xmlns="http://www.w3.org/2000/svg"><g id="viewport"></g></svg>
<div id="empty" class="empty" role="status" hidden></div>
</div>
<div id="legend" class="legend" role="note" aria-label="Legend"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const l of this.listeners) l.dispose();
    for (const l of this.panelListeners) l.dispose();
    this.panel?.dispose();
  }
}

function makeNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
