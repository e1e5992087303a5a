// "Preview prompt", for the Node and browser extensions alike: the command of the server's code lens on
// each ai.generate step opens a read-only document (scheme `lwir-prompt:`) with what the step sends the
// model in the dry run's current scenario, drawn from the server's `lwir/previewPrompt` answer
// (promptPreviewText.ts lays it out). Open previews follow edits of their workflow and of the scenarios
// files beside it, a moment after the typing stops. Nothing is computed here.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { PREVIEW_PROMPT_COMMAND, PREVIEW_PROMPT_REQUEST, type PreviewPromptParams, type PromptPreview } from "../../server/src/protocol";
import { PROMPT_SCHEME, promptDocumentText, promptPath, stepPathOf } from "./promptPreviewText";

/** How long after the last edit open previews are drawn again. */
const REFRESH_DELAY_MS = 300;

export function registerPromptPreview(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  const previews = new PromptDocuments(client);
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, previews),
    previews,
    vscode.commands.registerCommand(PREVIEW_PROMPT_COMMAND, (arg?: unknown) => previews.show(arg)),
  );
}

/** The folder part of a URI string (for "a scenarios file beside it"). */
function folderOf(uri: string): string {
  const bare = uri.replace(/[?#].*$/s, "");
  return bare.slice(0, bare.lastIndexOf("/"));
}

const SCENARIOS_FILE = /\.lwir\.test\.(json|ya?ml)$/i;

class PromptDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly listeners: vscode.Disposable[];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The source URIs (and folders of scenarios files) edited since the last refresh. */
  private readonly dirty = new Set<string>();

  constructor(private readonly client: BaseLanguageClient) {
    this.listeners = [
      vscode.workspace.onDidChangeTextDocument((event) => this.edited(event.document.uri)),
      vscode.workspace.onDidSaveTextDocument((document) => this.edited(document.uri)),
    ];
  }

  static uriFor(source: vscode.Uri, stepPath: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PROMPT_SCHEME, path: promptPath(stepPath), query: source.toString() });
  }

  private edited(uri: vscode.Uri): void {
    if (uri.scheme === PROMPT_SCHEME) return;
    const key = uri.toString();
    // a workflow an open preview shows, or a scenarios file in the folder of one
    const open = this.openPreviews();
    const scenarios = SCENARIOS_FILE.test(uri.path);
    if (!open.some((p) => p.query === key || (scenarios && folderOf(p.query) === folderOf(key)))) return;
    this.dirty.add(scenarios ? `folder:${folderOf(key)}` : key);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), REFRESH_DELAY_MS);
  }

  private openPreviews(): vscode.Uri[] {
    return vscode.workspace.textDocuments.map((d) => d.uri).filter((u) => u.scheme === PROMPT_SCHEME);
  }

  private refresh(): void {
    this.timer = undefined;
    for (const uri of this.openPreviews()) {
      if (this.dirty.has(uri.query) || this.dirty.has(`folder:${folderOf(uri.query)}`)) this.changed.fire(uri);
    }
    this.dirty.clear();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const stepPath = stepPathOf(uri.path) ?? "";
    const answer = await this.ask(vscode.Uri.parse(uri.query), stepPath).catch(
      (error: unknown): PromptPreview => ({ step: stepPath, scenario: "", error: { message: `The language server did not answer: ${error instanceof Error ? error.message : String(error)}`, reached: false } }),
    );
    return promptDocumentText(answer, uri.query, stepPath);
  }

  private async ask(source: vscode.Uri, stepPath: string): Promise<PromptPreview | null> {
    if (!this.client.isRunning()) return null;
    const params: PreviewPromptParams = { textDocument: { uri: this.client.code2ProtocolConverter.asUri(source) }, stepPath };
    return this.client.sendRequest<PromptPreview | null>(PREVIEW_PROMPT_REQUEST, params);
  }

  /** The lens's command: `{uri, stepPath}`. The workflow keeps the focus, so typing goes on beside the preview. */
  async show(arg: unknown): Promise<void> {
    const a = typeof arg === "object" && arg !== null ? (arg as Record<string, unknown>) : {};
    if (typeof a.uri !== "string" || typeof a.stepPath !== "string") {
      return void vscode.window.showWarningMessage("LWIR: Preview prompt is the code lens of an ai.generate step: click it above the step.");
    }
    const uri = PromptDocuments.uriFor(vscode.Uri.parse(a.uri), a.stepPath);
    this.changed.fire(uri); // an already open preview shows the current text
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const l of this.listeners) l.dispose();
    this.changed.dispose();
  }
}
