// "LWIR: Dry run", for the Node and browser extensions alike: asks the server (`lwir/dryRun`) to run the
// active workflow's editor text, unsaved edits included, in the current scenario, and opens the trace as a
// read-only document (scheme `lwir-dryrun:`) beside it. "LWIR: Dry run a scenario…" picks the scenario first
// (the server keeps it as the document's current one, for hovers and prompt previews too). The graph view (graphPanel.ts) draws the same run
// over the graph: it reads the last run of each document here. Nothing is computed in the extension host.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { DRY_RUN_COMMAND, DRY_RUN_REQUEST, DRY_RUN_SCENARIO_COMMAND, type DryRunParams, type DryRunResult } from "../../server/src/protocol";

export const DRY_RUN_SCHEME = "lwir-dryrun";

/** The last dry run of each document (by the protocol URI the server answered for), and news of a new one. */
const lastRuns = new Map<string, DryRunResult>();
const ran = new vscode.EventEmitter<DryRunResult>();
export const onDidDryRun = ran.event;
export function lastDryRun(uri: string): DryRunResult | undefined {
  return lastRuns.get(uri);
}

export function registerDryRunCommand(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  const traces = new TraceDocuments();
  context.subscriptions.push(
    ran,
    traces,
    vscode.workspace.registerTextDocumentContentProvider(DRY_RUN_SCHEME, traces),
    vscode.commands.registerCommand(DRY_RUN_COMMAND, (arg?: unknown) => dryRun(client, traces, arg)),
    vscode.commands.registerCommand(DRY_RUN_SCENARIO_COMMAND, (arg?: unknown) => dryRunScenario(client, traces, arg)),
  );
}

/** The document a command is about: a URI argument (editor title), else the active editor's. */
function documentUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === "string") return vscode.Uri.parse(arg);
  return vscode.window.activeTextEditor?.document.uri;
}

/** The workflow to run, once the server has its current text; undefined after telling the user why not. */
async function workflowToRun(client: BaseLanguageClient, arg: unknown): Promise<vscode.Uri | undefined> {
  const source = documentUri(arg);
  if (!source || source.scheme === DRY_RUN_SCHEME) return void vscode.window.showWarningMessage("LWIR: open an LWIR workflow first, then run LWIR: Dry run.");
  if (!client.isRunning()) return void vscode.window.showWarningMessage("LWIR: the language server is not running.");
  // the server runs the text it has: make sure it has the open document's current one
  if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === source.toString())) await vscode.workspace.openTextDocument(source);
  return source;
}

async function request(client: BaseLanguageClient, source: vscode.Uri, scenario?: string | null): Promise<DryRunResult | null | undefined> {
  const params: DryRunParams = { textDocument: { uri: client.code2ProtocolConverter.asUri(source) }, ...(scenario !== undefined ? { scenario } : {}) };
  try {
    return await client.sendRequest<DryRunResult | null>(DRY_RUN_REQUEST, params);
  } catch (error) {
    return void vscode.window.showErrorMessage(`LWIR: the dry run failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function dryRun(client: BaseLanguageClient, traces: TraceDocuments, arg: unknown, scenario?: string | null): Promise<DryRunResult | undefined> {
  const source = await workflowToRun(client, arg);
  if (!source) return undefined;
  const result = await request(client, source, scenario);
  if (result === undefined) return undefined;
  return show(traces, source, result);
}

/** "LWIR: Dry run a scenario…": a pick of the scenarios file's scenarios (and the generated input), then the run. */
async function dryRunScenario(client: BaseLanguageClient, traces: TraceDocuments, arg: unknown): Promise<DryRunResult | undefined> {
  const source = await workflowToRun(client, arg);
  if (!source) return undefined;
  // the current run (cached by the server) says which scenarios there are and which one is current
  const current = await request(client, source);
  if (current === undefined) return undefined;
  if (!current) return show(traces, source, current);
  const name = source.path.slice(source.path.lastIndexOf("/") + 1);
  const generatedItem = { label: "$(symbol-misc) The generated input", description: current.scenarioName === null ? "current" : "", detail: "No scenario: the input is generated from input.schema and every step's output is a sample (lwir run --dry FILE).", choice: null as string | null };
  const items = [
    ...current.scenarios.map((s) => ({ label: s, description: s === current.scenarioName ? "current" : "", choice: s as string | null })),
    generatedItem,
  ];
  const placeHolder = current.scenarios.length > 0
    ? `Dry run ${name} in which scenario? (${current.scenarios.length} in its scenarios file)`
    : `${name} has no scenarios file beside it (NAME.lwir.test.yaml): only the generated input can run`;
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true });
  if (!picked) return undefined;
  return dryRun(client, traces, source, picked.choice);
}

/** Keeps the run for the graph view and opens its trace beside the workflow. */
async function show(traces: TraceDocuments, source: vscode.Uri, result: DryRunResult | null): Promise<DryRunResult | undefined> {
  if (!result) return void vscode.window.showWarningMessage("LWIR: this is not an LWIR workflow (or it is larger than lwir.maxFileSize).");
  lastRuns.set(result.uri, result);
  ran.fire(result);
  const name = source.path.slice(source.path.lastIndexOf("/") + 1);
  if ("error" in result) void vscode.window.showWarningMessage(`LWIR: ${result.error}`);
  else vscode.window.setStatusBarMessage(`$(beaker) Dry run of ${name}: ${result.trace.status}, ${result.trace.steps.length} step run${result.trace.steps.length === 1 ? "" : "s"}`, 5000);
  const uri = traces.put(source, name, traceDocumentText(result, name));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: traceColumn(), preview: true, preserveFocus: true });
  return result;
}

/** Beside the active editor, past any group showing the graph view (the trace must not hide the overlay). */
function traceColumn(): vscode.ViewColumn {
  const graphs = new Set(vscode.window.tabGroups.all
    .filter((g) => g.activeTab?.input instanceof vscode.TabInputWebview && g.activeTab.input.viewType.endsWith("lwir.graph"))
    .map((g) => g.viewColumn));
  let column = (vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.One) + 1;
  while (graphs.has(column)) column++;
  return column;
}

/** The trace document: what the server wrote (the CLI's words), after a line saying which version it ran. */
export function traceDocumentText(result: DryRunResult, name: string): string {
  const others = result.scenarios.length - (result.scenarioName === null ? 0 : 1);
  const choose = others > 0 ? `; ${others} other scenario${others === 1 ? "" : "s"}: LWIR: Dry run a scenario…` : "";
  const head = `${name}, version ${result.version} of the editor's text (a snapshot: run LWIR: Dry run again after editing${choose})\n`;
  if ("error" in result) return `${head}\n${result.error}\n(scenario: ${result.scenario})\n`;
  return `${head}\n${result.text}`;
}

/** The read-only trace documents, one per workflow: the text of its last run. */
class TraceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  put(source: vscode.Uri, name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: DRY_RUN_SCHEME, path: `/${name}.dry-run.txt`, query: source.toString() });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri); // an open trace document shows the new run
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "No dry run yet: run LWIR: Dry run on the workflow.\n";
  }

  dispose(): void {
    this.changed.dispose();
  }
}
