// The language server, shared by the Node entry (node.ts) and the web worker entry (browser.ts): the
// parts in lsp/ put together. No Node APIs here or there: this is bundled for the browser too.
//   lsp/requestGuards.ts        the session's phase; every handler's cancellation, params and error handling
//   lsp/clientSupport.ts        what the client can do, read at `initialize`
//   lsp/settingsSync.ts         the `lwir.*` settings, kept in step with the client
//   lsp/diagnosticsPushPull.ts  diagnostics pushed after a quiet period (lsp/validationScheduler.ts) or pulled
//   lsp/workspaceScan.ts        the LWIR files of the workspace folders, checked in the background
//   lsp/watchedFiles.ts         … and followed on disk
//   lsp/completionAndCodeActions.ts, lsp/outlineFeatures.ts, lsp/navigationFeatures.ts,
//   lsp/signatureHelpFeature.ts, lsp/graphFeatures.ts, lsp/dryRunFeatures.ts, lsp/scenarioFeatures.ts: the features,
//                               whose work is done in service/ as pure functions of the cached analysis
import { TextDocumentSyncKind, TextDocuments, type Connection, type InitializeResult } from "vscode-languageserver";
import { LwirWorkspace } from "./service/workspace";
import { lazyTextDocuments } from "./lazyTextDocument";
import { BEFORE_INITIALIZE, readClientSupport, type ClientSupport } from "./lsp/clientSupport";
import { registerCompletionAndCodeActions } from "./lsp/completionAndCodeActions";
import { registerGraphFeatures } from "./lsp/graphFeatures";
import { DiagnosticsPushPull } from "./lsp/diagnosticsPushPull";
import { DryRuns } from "./lsp/dryRunFeatures";
import { registerNavigationFeatures } from "./lsp/navigationFeatures";
import { registerOutlineFeatures } from "./lsp/outlineFeatures";
import { registerScenarioFeatures } from "./lsp/scenarioFeatures";
import { registerSignatureHelp } from "./lsp/signatureHelpFeature";
import { Session } from "./lsp/requestGuards";
import type { ServerParts } from "./lsp/serverParts";
import { SettingsSync } from "./lsp/settingsSync";
import { ClientFileSource } from "./lsp/clientFileSource";
import { ConfigFiles } from "./lsp/configFiles";
import { ScenarioFiles } from "./lsp/scenarioFiles";
import { WatchedFiles } from "./lsp/watchedFiles";
import { WorkspaceScan } from "./lsp/workspaceScan";
import type { WorkspaceFileSource } from "./workspace/files";
import type { Layouter } from "./graph/layouter";
import { setRuleDocsBase } from "./service/ruleDocs";

/** package.json's version, defined by scripts/build.mjs when bundling. */
declare const __LWIR_VERSION__: string | undefined;

/** What the entry point knows about its transport. */
export interface ServerOptions {
  /** True while a request has arrived whose response is not written yet (outstandingRequests.ts). */
  requestsOutstanding?: () => boolean;
  /** Where the workspace scan finds and reads files it can reach itself (node.ts: the disk); the client is asked for the rest when it offers. */
  fileSources?: WorkspaceFileSource[];
  /** Who lays out the graph view (node.ts: a worker thread); in this thread when not given. Disposed at shutdown. */
  layouter?: Layouter;
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  let client: ClientSupport = BEFORE_INITIALIZE;
  const session = new Session(connection);
  const settings = new SettingsSync(connection, () => client);
  const documents = new TextDocuments(lazyTextDocuments);
  const workspace = new LwirWorkspace(documents, () => settings.current);
  const parts: ServerParts = { connection, documents, workspace, settings, session, client: () => client };

  const requestsOutstanding = options.requestsOutstanding ?? (() => false);
  const fileSources = [...(options.fileSources ?? [])];
  // The configuration files (.lwir.yaml / .lwir.json), read from where the workspace scan reads files.
  const configs = new ConfigFiles(parts, () => fileSources);
  // Scenarios files (NAME.lwir.test.yaml): the workflow beside them is read the same way.
  const scenarios = new ScenarioFiles(parts, () => fileSources);
  const workspaceScan = new WorkspaceScan({ ...parts, requestsOutstanding, fileSources, configs });
  const watchedFiles = new WatchedFiles(parts, workspaceScan);
  const diagnostics = new DiagnosticsPushPull({ ...parts, requestsOutstanding, configs, diskReport: (uri) => workspaceScan.diskReport(uri), scenarios });
  diagnostics.listen();
  workspaceScan.listen();
  watchedFiles.listen();
  settings.listen(session);
  settings.onChange(() => {
    diagnostics.revalidateAll();
    workspaceScan.settingsChanged();
    void watchedFiles.update();
  });
  // A configuration file changed on disk: every document and the workspace are checked again under it.
  watchedFiles.onConfigChange(() => {
    configs.invalidate();
    diagnostics.revalidateAll();
    workspaceScan.settingsChanged();
  });
  void settings.ready.then(() => {
    if (session.phase !== "running") return;
    workspaceScan.start();
    void watchedFiles.update();
  });
  const completionAndCodeActions = registerCompletionAndCodeActions({ ...parts, configs, scenarios });
  const dryRuns = new DryRuns(parts, () => fileSources);
  dryRuns.listen();
  const outline = registerOutlineFeatures(parts, (analysis, uri) => dryRuns.lenses(analysis, uri));
  const navigation = registerNavigationFeatures(parts, (uri, analysis, position) => dryRuns.hover(uri, analysis, position));
  const signatureHelp = registerSignatureHelp(parts);
  registerGraphFeatures(parts, options.layouter);
  registerScenarioFeatures(parts, () => fileSources);

  connection.onInitialize((params): InitializeResult => {
    session.phase = "running";
    client = readClientSupport(params.capabilities);
    settings.initialize(params.initializationOptions);
    // Where the rule pages that diagnostics and hovers link to are, if the client says (service/ruleDocs.ts).
    const ruleDocs = (params.initializationOptions as { ruleDocsBase?: unknown } | null | undefined)?.ruleDocsBase;
    if (typeof ruleDocs === "string") setRuleDocsBase(ruleDocs);
    workspaceScan.initialize(params);
    // A client that finds and reads files for us (client/src/workspaceFiles.ts) serves the folders we cannot reach.
    if ((params.initializationOptions as { workspaceFiles?: unknown } | null | undefined)?.workspaceFiles === true) {
      fileSources.push(new ClientFileSource(connection, () => settings.current.files.include));
    }
    return {
      capabilities: {
        workspace: workspaceScan.capabilities(),
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        ...completionAndCodeActions(client),
        ...outline,
        ...navigation,
        ...signatureHelp,
        ...diagnostics.capabilities(client),
      },
      serverInfo: { name: "lwir-language-server", ...(typeof __LWIR_VERSION__ === "string" ? { version: __LWIR_VERSION__ } : {}) },
    };
  });

  connection.onShutdown(() => {
    session.phase = "shutDown";
    diagnostics.shutdown();
    workspaceScan.shutdown();
    options.layouter?.dispose?.();
  });

  documents.listen(connection);
  connection.listen();
  session.log("lwir: language server started");
}
