// Quiet typing in VS Code: no squiggle on the token the user is still typing, until they pause
// (`lwir.validation.typingPause` ms after the last edit), move the cursor away or save. The server cannot know
// the cursor, so this lives in the client; other editors keep the server's diagnostics as is. What to
// hold back is decided by quietTyping.ts (pure), its state over time is quietTypingSession.ts (no
// `vscode`, unit-tested with a scripted clock); this file is the glue:
//
// - VS Code pulls diagnostics (textDocument/diagnostic; the server pushes none to it). The
//   `provideDiagnostics` middleware gives the session each full report and hands the client what the
//   session says to show. An Unchanged report is turned into a Full one from the kept report, so a
//   re-pull never leaves a stale filtered list in place.
// - The session asks for a re-pull when the pause ends or the cursor leaves: the provider's
//   onDidChangeDiagnosticsEmitter is fired and, for that synchronous burst (`replaying`), the middleware
//   answers from the kept report when it is for the document's current version; otherwise the pull
//   goes to the server as usual.
import * as vscode from "vscode";
import { DocumentDiagnosticRequest, type BaseLanguageClient, type Middleware, type ProvideDiagnosticSignature, type vsdiag } from "vscode-languageclient";
import { SETTINGS_SECTION } from "../../server/src/protocol";
import { QuietSession, type SessionDocument, type ShownReport } from "./quietTypingSession";

/** `lwir.validation.typingPause`: see package.json. */
const PAUSE_SETTING = "validation.typingPause";
export const DEFAULT_TYPING_PAUSE_MS = 1500;

// vsdiag.DocumentDiagnosticReportKind is a type-only enum in the client's typings; its values are these.
const FULL = "full" as vsdiag.DocumentDiagnosticReportKind.full;

export class QuietTyping implements vscode.Disposable {
  private client: BaseLanguageClient | undefined;
  private pauseMs = readPause();
  private readonly session: QuietSession<vscode.Diagnostic>;
  /** True while re-pulls the session asked for are being started: they are answered from the kept report. */
  private replaying = false;
  private readonly shownEmitter = new vscode.EventEmitter<{ uri: vscode.Uri; report: ShownReport<vscode.Diagnostic> }>();
  /** Fired each time the editor is given a list of diagnostics for a document (the indicators follow it). */
  readonly onDidShow = this.shownEmitter.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  readonly middleware: Middleware = {
    provideDiagnostics: (document, previousResultId, token, next) => this.provide(document, previousResultId, token, next),
  };

  constructor() {
    this.session = new QuietSession<vscode.Diagnostic>(
      { now: Date.now, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
      () => this.pauseMs,
      (doc) => this.replay(doc.key),
      (report) => {
        const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === report.key);
        if (document) this.shownEmitter.fire({ uri: document.uri, report });
      },
    );
    this.subscriptions.push(
      this.shownEmitter,
      vscode.workspace.onDidChangeTextDocument((event) => this.edited(event)),
      vscode.window.onDidChangeTextEditorSelection((event) => this.session.recheck(sessionDocument(event.textEditor.document))),
      vscode.workspace.onDidCloseTextDocument((document) => this.session.forget(document.uri.toString())),
      vscode.workspace.onDidSaveTextDocument((document) => this.session.saved(sessionDocument(document))),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(`${SETTINGS_SECTION}.${PAUSE_SETTING}`)) return;
        this.pauseMs = readPause();
        for (const document of vscode.workspace.textDocuments) this.session.recheck(sessionDocument(document));
      }),
    );
  }

  /** The client whose pulls are replayed; call once it has started. */
  attach(client: BaseLanguageClient): void {
    this.client = client;
  }

  /** What the editor was last given for a document, if anything. */
  current(uri: vscode.Uri): ShownReport<vscode.Diagnostic> | undefined {
    return this.session.current(uri.toString());
  }

  dispose(): void {
    this.session.dispose();
    for (const s of this.subscriptions) s.dispose();
  }

  private async provide(
    document: vscode.TextDocument | vscode.Uri, previousResultId: string | undefined, token: vscode.CancellationToken, next: ProvideDiagnosticSignature,
  ): Promise<vsdiag.DocumentDiagnosticReport | undefined | null> {
    if (document instanceof vscode.Uri) return next(document, previousResultId, token);
    const doc = sessionDocument(document);
    // Checked before any await: only the pulls `replay` starts see `replaying` set.
    if (this.replaying) {
      const answer = this.session.answerFromKept(doc);
      if (answer) return { kind: FULL, resultId: answer.resultId, items: answer.items };
    }
    const version = document.version;
    const report = await next(document, previousResultId, token);
    if (!report) return report;
    if (report.kind === FULL) return { ...report, items: this.session.full(doc, version, report.resultId, report.items) };
    // Unchanged: what the client shows may be a filtered list of this result; give it what to show now.
    const items = this.session.unchanged(doc, report.resultId);
    return items ? { kind: FULL, resultId: report.resultId, items } : report;
  }

  /** Makes the client pull again; `provide` answers from the kept report while the pulls start (synchronously). */
  private replay(key: string): void {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    const provider = document && this.client?.isRunning() ? this.client.getFeature(DocumentDiagnosticRequest.method)?.getProvider(document) : undefined;
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
    this.session.edited(event.document.uri.toString(), offsets);
  }
}

/** The session's view of a VS Code document: live (the version, text and cursor are read when asked). */
function sessionDocument(document: vscode.TextDocument): SessionDocument {
  return {
    key: document.uri.toString(),
    get version() {
      return document.version;
    },
    text: () => document.getText(),
    lineOffset: (line) => document.offsetAt(new vscode.Position(line, 0)),
    cursor: () => {
      const editor = editorOf(document);
      return editor ? { offset: document.offsetAt(editor.selection.active), line: editor.selection.active.line } : undefined;
    },
  };
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
