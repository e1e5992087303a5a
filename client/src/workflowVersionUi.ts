// WorkflowVersion in VS Code, for the Node and browser extensions alike: the commands "LWIR: Copy
// WorkflowVersion id" and "LWIR: Show canonical JSON" (a read-only virtual document, scheme
// `lwir-canonical:`), and the indicators of the active LWIR document: the status bar item and the
// WorkflowVersion code lens, drawn from one record per document (indicators.ts says the rule): the
// diagnostics the editor was given for a version (quiet typing reports each list) and the server's
// `lwir/workflowVersion` verdict on that same version. Nothing is computed here.
import * as vscode from "vscode";
import { CodeLensRequest, type BaseLanguageClient, type Middleware } from "vscode-languageclient";
import { vsCodeReportsJsonSyntax } from "./clientOptions";
import { indicators, type Indicators, type ShownCounts } from "./indicators";
import type { QuietTyping } from "./quietTypingClient";
import type { ShownReport } from "./quietTypingSession";
import { whyNot } from "./workflowVersionText";
import {
  ACTIVE_LWIR_CONTEXT, COPY_WORKFLOW_VERSION_COMMAND, SHOW_CANONICAL_JSON_COMMAND, SHOW_PROBLEMS_COMMAND, WORKFLOW_VERSION_REQUEST,
  type CopyWorkflowVersionArgs, type WorkflowVersionParams, type WorkflowVersionResult,
} from "../../server/src/protocol";

/** The scheme of the read-only canonical JSON views (the client's own: the server never sees them). */
const CANONICAL_SCHEME = "lwir-canonical";
const LANGUAGES = new Set(["json", "jsonc", "yaml"]);

export function registerFeatures(context: vscode.ExtensionContext, client: BaseLanguageClient, records: IndicatorRecords): void {
  const ask = async (uri: vscode.Uri, canonicalJson = false): Promise<WorkflowVersionResult | null> => {
    if (!client.isRunning()) return null;
    const params: WorkflowVersionParams = { uri: client.code2ProtocolConverter.asUri(uri), canonicalJson };
    return client.sendRequest<WorkflowVersionResult | null>(WORKFLOW_VERSION_REQUEST, params);
  };
  const canonical = new CanonicalDocuments(ask);
  records.attach(client, ask);
  const status = new WorkflowVersionStatus(ask, records);
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

/** One record: the diagnostics the editor shows for a version of the text, and the server's verdict on that version. */
interface IndicatorRecord {
  version: number;
  verdict: WorkflowVersionResult;
  counts: ShownCounts;
  words: Indicators;
}

/**
 * The records of the open LWIR documents. Created before the client (its middleware rewrites the
 * WorkflowVersion lens from the record); fed by quiet typing's reports of what the editor was given.
 */
export class IndicatorRecords implements vscode.Disposable {
  private readonly records = new Map<string, IndicatorRecord>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** A document's record changed (the status bar redraws; the lens is asked again). */
  readonly onDidChange = this.changed.event;
  private client: BaseLanguageClient | undefined;
  private ask: Ask | undefined;
  private readonly listeners: vscode.Disposable[];

  /** The server's last lenses per document, and the version they were for. */
  private readonly lastLenses = new Map<string, { version: number; lenses: vscode.CodeLens[] }>();

  readonly middleware: Middleware = {
    provideCodeLenses: (document, token, next) => this.provideLenses(document, token, next),
  };

  constructor(quiet: QuietTyping) {
    this.listeners = [
      this.changed,
      quiet.onDidShow(({ uri, report }) => void this.shown(uri, report)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.records.delete(d.uri.toString());
        this.lastLenses.delete(d.uri.toString());
      }),
    ];
  }

  attach(client: BaseLanguageClient, ask: Ask): void {
    this.client = client;
    this.ask = ask;
  }

  get(uri: vscode.Uri): IndicatorRecord | undefined {
    return this.records.get(uri.toString());
  }

  /** The editor was given a list for `report.version`: ask the verdict; keep it only if it is for that same version. */
  private async shown(uri: vscode.Uri, report: ShownReport<vscode.Diagnostic>): Promise<void> {
    const verdict = await this.ask?.(uri).catch(() => null);
    if (!verdict) return;
    // A verdict on a newer text: that text's own report is on its way, and brings its own verdict.
    if (verdict.version !== undefined && verdict.version !== report.version) return;
    const counts = countShown(report);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const words = indicators(verdict, counts, document !== undefined && vsCodeReportsJsonSyntax(document.uri, document.languageId));
    const old = this.records.get(uri.toString());
    if (old && old.version > report.version) return;
    this.records.set(uri.toString(), { version: report.version, verdict, counts, words });
    this.changed.fire(uri);
    if (!old || old.words.lens !== words.lens || old.words.lensTooltip !== words.lensTooltip) this.refreshLenses(uri);
  }

  /**
   * VS Code waits, after each edit or refresh, as long as the lens requests have lately taken (a moving
   * average, at least 250 ms) before it asks again: a server slowed by a busy machine made the lens lag
   * seconds behind the status bar. So a request for a newer text is answered at once from the server's
   * last lenses (their words come from the record anyway), and the lenses are asked for again when the
   * server's answer for this text is in and places them elsewhere.
   */
  private async provideLenses(
    document: vscode.TextDocument, token: vscode.CancellationToken, next: Parameters<NonNullable<Middleware["provideCodeLenses"]>>[2],
  ): Promise<vscode.CodeLens[] | null | undefined> {
    const key = document.uri.toString();
    const last = this.lastLenses.get(key);
    const asked = Promise.resolve(next(document, token)).then((lenses) => {
      if (lenses) this.lastLenses.set(key, { version: document.version, lenses });
      return lenses;
    });
    if (!last || last.version === document.version) return this.rewriteLenses(document, await asked);
    void asked.then((lenses) => {
      if (lenses && !sameLensPlaces(last.lenses, lenses)) this.refreshLenses(document.uri);
    }, () => {});
    return this.rewriteLenses(document, last.lenses);
  }

  /** The WorkflowVersion lens (the server's, on `apiVersion`) with the record's words. */
  private rewriteLenses(document: vscode.TextDocument, lenses: vscode.CodeLens[] | null | undefined): vscode.CodeLens[] | null | undefined {
    if (!lenses) return lenses;
    const record = this.records.get(document.uri.toString());
    const out: vscode.CodeLens[] = [];
    for (const lens of lenses) {
      const command = lens.command?.command;
      if (command !== COPY_WORKFLOW_VERSION_COMMAND && command !== SHOW_PROBLEMS_COMMAND) {
        out.push(lens);
        continue;
      }
      const words = record?.words;
      // before the first record: the server's lens (it counts as the rule does, without the held state)
      if (!words) {
        out.push(lens);
        continue;
      }
      if (words.lens === undefined) continue;
      const title = words.lens;
      const valid = words.state === "valid" && record!.verdict.id !== null;
      const args: CopyWorkflowVersionArgs | undefined = valid ? { uri: record!.verdict.uri, id: record!.verdict.id! } : undefined;
      out.push(new vscode.CodeLens(lens.range, {
        title,
        tooltip: words.lensTooltip,
        command: valid ? COPY_WORKFLOW_VERSION_COMMAND : SHOW_PROBLEMS_COMMAND,
        arguments: args ? [args] : [],
      }));
    }
    return out;
  }

  private refreshLenses(uri: vscode.Uri): void {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!document || !this.client?.isRunning()) return;
    this.client.getFeature(CodeLensRequest.method)?.getProvider(document)?.onDidChangeCodeLensEmitter.fire();
  }

  dispose(): void {
    for (const l of this.listeners) l.dispose();
  }
}

function sameLensPlaces(a: readonly vscode.CodeLens[], b: readonly vscode.CodeLens[]): boolean {
  return a.length === b.length && a.every((lens, i) => lens.range.isEqual(b[i].range) && lens.command?.command === b[i].command?.command);
}

/** Errors and warnings the editor shows (what the tab's badge counts), and how many are held back. */
function countShown(report: ShownReport<vscode.Diagnostic>): ShownCounts {
  let errors = 0;
  let warnings = 0;
  for (const d of report.shown) {
    if (d.severity === vscode.DiagnosticSeverity.Error) errors++;
    else if (d.severity === vscode.DiagnosticSeverity.Warning) warnings++;
  }
  return { errors, warnings, held: report.held };
}

/** The status bar item of the active LWIR document, drawn from its record; hidden for other editors. */
class WorkflowVersionStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("lwir.workflowVersion", vscode.StatusBarAlignment.Right, 100);
  private readonly listeners: vscode.Disposable[];
  /** Bumped per update, so a late answer for an earlier editor is dropped. */
  private generation = 0;

  constructor(private readonly ask: Ask, private readonly records: IndicatorRecords) {
    this.item.name = "LWIR WorkflowVersion";
    const isActive = (uri: vscode.Uri) => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString();
    this.listeners = [
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      records.onDidChange((uri) => { if (isActive(uri)) void this.update(); }),
      vscode.workspace.onDidCloseTextDocument((d) => { if (isActive(d.uri)) void this.update(); }),
    ];
    void this.update();
  }

  private async update(): Promise<void> {
    const generation = ++this.generation;
    const doc = vscode.window.activeTextEditor?.document;
    const record = doc ? this.records.get(doc.uri) : undefined;
    let lwir = record !== undefined;
    if (!record && doc && LANGUAGES.has(doc.languageId) && doc.uri.scheme !== CANONICAL_SCHEME) {
      // no record yet: is it an LWIR document at all? (its record follows its first diagnostics)
      lwir = (await this.ask(doc.uri).catch(() => null)) !== null;
      if (generation !== this.generation) return;
    }
    void vscode.commands.executeCommand("setContext", ACTIVE_LWIR_CONTEXT, lwir);
    if (!lwir) return void this.item.hide();
    const words = record?.words;
    this.item.text = words?.status ?? "$(sync~spin) LWIR";
    this.item.tooltip = words?.statusTooltip ?? "LWIR: checking…";
    if (words?.state === "valid" && record!.verdict.id !== null) {
      const args: CopyWorkflowVersionArgs = { uri: record!.verdict.uri, id: record!.verdict.id };
      this.item.command = { title: "Copy WorkflowVersion id", command: COPY_WORKFLOW_VERSION_COMMAND, arguments: [args] };
    } else if (words && words.state !== "empty" && words.state !== "tooLarge") {
      this.item.command = { title: "Show problems", command: SHOW_PROBLEMS_COMMAND };
    } else {
      this.item.command = undefined;
    }
    this.item.show();
  }

  dispose(): void {
    this.generation++;
    for (const l of this.listeners) l.dispose();
    this.item.dispose();
  }
}
