// WorkflowVersion in VS Code, for the Node and browser extensions alike: the commands "LWIR: Copy
// WorkflowVersion id" and "LWIR: Show canonical JSON" (a read-only virtual document, scheme
// `lwir-canonical:`), and a status bar item for the active LWIR document (valid + id, or its problem
// count). All of it asks the server's `lwir/workflowVersion` request; nothing is computed here.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { vsCodeReportsJsonSyntax } from "./clientOptions";
import { statusText, whyNot } from "./workflowVersionText";
import {
  ACTIVE_LWIR_CONTEXT, COPY_WORKFLOW_VERSION_COMMAND, SHOW_CANONICAL_JSON_COMMAND, SHOW_PROBLEMS_COMMAND, WORKFLOW_VERSION_REQUEST,
  type CopyWorkflowVersionArgs, type WorkflowVersionParams, type WorkflowVersionResult,
} from "../../server/src/protocol";

/** The scheme of the read-only canonical JSON views (the client's own: the server never sees them). */
const CANONICAL_SCHEME = "lwir-canonical";
const LANGUAGES = new Set(["json", "jsonc", "yaml"]);
const STATUS_DELAY_MS = 150;

export function registerFeatures(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  const ask = async (uri: vscode.Uri, canonicalJson = false): Promise<WorkflowVersionResult | null> => {
    if (!client.isRunning()) return null;
    const params: WorkflowVersionParams = { uri: client.code2ProtocolConverter.asUri(uri), canonicalJson };
    return client.sendRequest<WorkflowVersionResult | null>(WORKFLOW_VERSION_REQUEST, params);
  };
  const canonical = new CanonicalDocuments(ask);
  const status = new WorkflowVersionStatus(ask);
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(CANONICAL_SCHEME, canonical),
    canonical,
    status,
    vscode.commands.registerCommand(COPY_WORKFLOW_VERSION_COMMAND, (arg?: unknown) => copyWorkflowVersionId(ask, arg)),
    vscode.commands.registerCommand(SHOW_CANONICAL_JSON_COMMAND, (arg?: unknown) => canonical.show(sourceUri(arg))),
  );
}

type Ask = (uri: vscode.Uri, canonicalJson?: boolean) => Promise<WorkflowVersionResult | null>;

/** The document a command is about: a URI argument (explorer, code lens), else the active editor's. */
function sourceUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === "string") return vscode.Uri.parse(arg);
  if (isRecord(arg) && typeof arg.uri === "string") return vscode.Uri.parse(arg.uri);
  return vscode.window.activeTextEditor?.document.uri;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}


async function copyWorkflowVersionId(ask: Ask, arg: unknown): Promise<void> {
  // The code lens passes the id it shows; the palette asks the server about the active document.
  const given = isRecord(arg) ? (arg as Partial<CopyWorkflowVersionArgs>).id : undefined;
  let id = typeof given === "string" ? given : undefined;
  if (id === undefined) {
    const uri = sourceUri(arg);
    if (!uri) return void vscode.window.showWarningMessage("LWIR: open an LWIR document first.");
    const result = await ask(uri);
    if (!result?.valid || result.id === null) return void vscode.window.showWarningMessage(`LWIR: ${whyNot(result)}`);
    id = result.id;
  }
  await vscode.env.clipboard.writeText(id);
  vscode.window.setStatusBarMessage(`$(check) Copied ${id}`, 3000);
}

/** `lwir-canonical:/<name>.canonical.json?<source URI>`: read-only documents with a source's canonical JSON. */
class CanonicalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly listener: vscode.Disposable;

  constructor(private readonly ask: Ask) {
    // Keep open views current: the server revalidates a source after each edit, then its diagnostics change.
    this.listener = vscode.languages.onDidChangeDiagnostics((event) => {
      const changed = new Set(event.uris.map((u) => u.toString()));
      for (const doc of vscode.workspace.textDocuments) {
        if (doc.uri.scheme === CANONICAL_SCHEME && changed.has(doc.uri.query)) this.changed.fire(doc.uri);
      }
    });
  }

  static uriFor(source: vscode.Uri): vscode.Uri {
    const name = source.path.slice(source.path.lastIndexOf("/") + 1).replace(/\.(json|ya?ml)$/i, "") || "workflow";
    return vscode.Uri.from({ scheme: CANONICAL_SCHEME, path: `/${name}.canonical.json`, query: source.toString() });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const result = await this.ask(vscode.Uri.parse(uri.query), true).catch(() => null);
    return result?.canonicalJson ?? `// ${whyNot(result)} It has no canonical JSON.\n`;
  }

  async show(source: vscode.Uri | undefined): Promise<void> {
    if (!source) return void vscode.window.showWarningMessage("LWIR: open an LWIR document first.");
    const result = await this.ask(source);
    if (result === null || result.tooLarge) return void vscode.window.showWarningMessage(`LWIR: ${whyNot(result)}`);
    const uri = CanonicalDocuments.uriFor(source);
    this.changed.fire(uri); // an already open view shows the current text
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc.languageId === "json" ? doc : await vscode.languages.setTextDocumentLanguage(doc, "json"), {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
    });
    if (!result.valid) vscode.window.showInformationMessage(`LWIR: ${whyNot(result)}`);
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}

/** The status bar item of the active LWIR document; hidden for other editors. */
class WorkflowVersionStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("lwir.workflowVersion", vscode.StatusBarAlignment.Right, 100);
  private readonly listeners: vscode.Disposable[];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped per update, so a late answer for an earlier editor or version is dropped. */
  private generation = 0;

  constructor(private readonly ask: Ask) {
    this.item.name = "LWIR WorkflowVersion";
    const isActive = (uri: vscode.Uri) => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString();
    this.listeners = [
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.languages.onDidChangeDiagnostics((e) => { if (e.uris.some(isActive)) this.schedule(); }),
      vscode.workspace.onDidChangeTextDocument((e) => { if (isActive(e.document.uri)) this.schedule(); }),
      vscode.workspace.onDidCloseTextDocument((d) => { if (isActive(d.uri)) this.schedule(0); }),
    ];
    this.schedule(0);
  }

  private schedule(delay = STATUS_DELAY_MS): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; void this.update(); }, delay);
  }

  private async update(): Promise<void> {
    const generation = ++this.generation;
    const doc = vscode.window.activeTextEditor?.document;
    let result: WorkflowVersionResult | null = null;
    if (doc && LANGUAGES.has(doc.languageId) && doc.uri.scheme !== CANONICAL_SCHEME) {
      result = await this.ask(doc.uri).catch(() => null);
    }
    if (generation !== this.generation) return;
    void vscode.commands.executeCommand("setContext", ACTIVE_LWIR_CONTEXT, result !== null);
    if (result === null) return void this.item.hide();
    this.render(result, doc !== undefined && vsCodeReportsJsonSyntax(doc.uri, doc.languageId));
    this.item.show();
  }

  /** `editorListsSyntaxErrors`: VS Code's JSON support lists them, not us (jsonSyntaxErrors.ts), maybe a different number. */
  private render(result: WorkflowVersionResult, editorListsSyntaxErrors: boolean): void {
    const item = this.item;
    const { text, tooltip } = statusText(result, editorListsSyntaxErrors);
    item.text = text;
    item.tooltip = tooltip;
    if (result.valid && result.id !== null) {
      const args: CopyWorkflowVersionArgs = { uri: result.uri, id: result.id };
      item.command = { title: "Copy WorkflowVersion id", command: COPY_WORKFLOW_VERSION_COMMAND, arguments: [args] };
    } else if (result.empty || result.tooLarge) {
      item.command = undefined;
    } else {
      item.command = { title: "Show problems", command: SHOW_PROBLEMS_COMMAND };
    }
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.generation++;
    for (const l of this.listeners) l.dispose();
    this.item.dispose();
  }
}
