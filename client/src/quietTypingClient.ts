// Quiet typing in VS Code: no squiggle on the expression or step id the user is still typing in, until
// they pause (`lwir.validation.typingPause` ms after the last edit) or move the cursor away. The server
// cannot know the cursor, so this lives in the client; other editors keep the server's diagnostics as is.
// What to hold back is decided by quietTyping.ts (pure); this file is the glue:
//
// - VS Code pulls diagnostics (textDocument/diagnostic; the server pushes none to it). The
//   `provideDiagnostics` middleware keeps the server's full report per document and hands the client
//   the report minus what is held back. An Unchanged report is turned into a Full one from the kept
//   report, so a re-pull never leaves a stale filtered list in place.
// - When the pause ends (a timer at `recheckAt`) or the cursor leaves (onDidChangeTextEditorSelection),
//   the client is made to pull again (the provider's onDidChangeDiagnosticsEmitter) and, for that
//   synchronous burst, the middleware answers every document whose kept report is for its current
//   version from the kept report: the settled list is exactly the server's, with no server round trip.
import * as vscode from "vscode";
import { DocumentDiagnosticRequest, type BaseLanguageClient, type Middleware, type ProvideDiagnosticSignature, type vsdiag } from "vscode-languageclient";
import { SETTINGS_SECTION } from "../../server/src/protocol";
import { editIsRecent, quietDiagnostics, type LastEdit } from "./quietTyping";

/** `lwir.validation.typingPause`: see package.json. */
const PAUSE_SETTING = "validation.typingPause";
export const DEFAULT_TYPING_PAUSE_MS = 1500;

// vsdiag.DocumentDiagnosticReportKind is a type-only enum in the client's typings; its values are these.
const FULL = "full" as vsdiag.DocumentDiagnosticReportKind.full;

interface Kept {
  /** The document version the report was asked for. */
  version: number;
  resultId: string | undefined;
  /** The server's diagnostics, as converted by the client. */
  items: vscode.Diagnostic[];
  /** What the client was last given (a subset of `items`, same order). */
  shown: vscode.Diagnostic[];
}

export class QuietTyping implements vscode.Disposable {
  private client: BaseLanguageClient | undefined;
  private pauseMs = readPause();
  private readonly kept = new Map<string, Kept>();
  private readonly edits = new Map<string, LastEdit>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** True while re-pulls we triggered are being started: they are answered from `kept`. */
  private replaying = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  readonly middleware: Middleware = {
    provideDiagnostics: (document, previousResultId, token, next) => this.provide(document, previousResultId, token, next),
  };

  constructor() {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((event) => this.edited(event)),
      vscode.window.onDidChangeTextEditorSelection((event) => this.recheck(event.textEditor.document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri.toString())),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(`${SETTINGS_SECTION}.${PAUSE_SETTING}`)) return;
        this.pauseMs = readPause();
        for (const document of vscode.workspace.textDocuments) this.recheck(document);
      }),
    );
  }

  /** The client whose pulls are replayed; call once it has started. */
  attach(client: BaseLanguageClient): void {
    this.client = client;
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const s of this.subscriptions) s.dispose();
  }

  private async provide(
    document: vscode.TextDocument | vscode.Uri, previousResultId: string | undefined, token: vscode.CancellationToken, next: ProvideDiagnosticSignature,
  ): Promise<vsdiag.DocumentDiagnosticReport | undefined | null> {
    if (document instanceof vscode.Uri) return next(document, previousResultId, token);
    const key = document.uri.toString();
    // Checked before any await: only the pulls `replay` starts see `replaying` set.
    const kept = this.kept.get(key);
    if (this.replaying && kept && kept.version === document.version) return { kind: FULL, resultId: kept.resultId, items: this.filter(document, kept) };
    const version = document.version;
    const report = await next(document, previousResultId, token);
    if (!report) return report;
    if (report.kind === FULL) {
      const entry: Kept = { version, resultId: report.resultId, items: report.items, shown: report.items };
      this.kept.set(key, entry);
      return { ...report, items: this.filter(document, entry) };
    }
    // Unchanged: what the client shows may be a filtered list of this result; give it what to show now.
    const latest = this.kept.get(key);
    if (latest && latest.resultId === report.resultId) return { kind: FULL, resultId: latest.resultId, items: this.filter(document, latest) };
    return report;
  }

  /** What to show of `kept` now; records it and sets the timer for the end of the pause. */
  private filter(document: vscode.TextDocument, kept: Kept): vscode.Diagnostic[] {
    const key = document.uri.toString();
    this.clearTimer(key);
    const { shown, recheckAt } = this.decide(document, kept);
    kept.shown = shown;
    if (recheckAt !== undefined) {
      this.timers.set(key, setTimeout(() => {
        this.timers.delete(key);
        this.recheck(document);
      }, Math.max(0, recheckAt - Date.now())));
    }
    return shown;
  }

  private decide(document: vscode.TextDocument, kept: Kept): { shown: vscode.Diagnostic[]; recheckAt?: number } {
    const lastEdit = this.edits.get(document.uri.toString());
    const now = Date.now();
    // The common case (no recent edit) reads neither the text nor the cursor.
    if (!editIsRecent(lastEdit, now, this.pauseMs)) return { shown: kept.items };
    const editor = editorOf(document);
    const result = quietDiagnostics({
      text: document.getText(),
      cursor: editor ? document.offsetAt(editor.selection.active) : undefined,
      cursorLine: editor?.selection.active.line,
      lastEdit,
      now,
      pauseMs: this.pauseMs,
      diagnostics: kept.items,
    });
    return result.held === 0 ? { shown: kept.items } : result;
  }

  /** After the pause, a cursor move or a setting change: if what should be shown differs from what is, re-pull. */
  private recheck(document: vscode.TextDocument): void {
    const kept = this.kept.get(document.uri.toString());
    if (!kept || kept.shown === kept.items || kept.version !== document.version) return;
    const before = kept.shown;
    const { shown } = this.decide(document, kept);
    if (shown.length !== before.length || shown.some((d, i) => d !== before[i])) this.replay(document);
  }

  /** Makes the client pull again; `provide` answers from `kept` while the pulls start (synchronously). */
  private replay(document: vscode.TextDocument): void {
    const provider = this.client?.isRunning() ? this.client.getFeature(DocumentDiagnosticRequest.method)?.getProvider(document) : undefined;
    if (!provider) return;
    this.replaying = true;
    try {
      provider.onDidChangeDiagnosticsEmitter.fire();
    } finally {
      this.replaying = false;
    }
  }

  private edited(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0) return;
    // Where each change ends in the new text: changes do not overlap, and each shifts those after it.
    const changes = [...event.contentChanges].sort((a, b) => a.rangeOffset - b.rangeOffset);
    let shift = 0;
    const offsets = changes.map((c) => {
      const end = c.rangeOffset + shift + c.text.length;
      shift += c.text.length - c.rangeLength;
      return end;
    });
    this.edits.set(event.document.uri.toString(), { at: Date.now(), offsets });
  }

  private forget(key: string): void {
    this.clearTimer(key);
    this.kept.delete(key);
    this.edits.delete(key);
  }

  private clearTimer(key: string): void {
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(key);
  }
}

function readPause(): number {
  const value = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<unknown>(PAUSE_SETTING);
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : DEFAULT_TYPING_PAUSE_MS;
}

/** The editor whose cursor counts: the active one if it shows the document, else the first visible one that does. */
function editorOf(document: vscode.TextDocument): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active?.document === document) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document === document);
}
