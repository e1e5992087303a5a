// The language server, shared by the Node entry (node.ts) and the web worker entry (browser.ts): the
// parts in lsp/ put together. No Node APIs here or there: this is bundled for the browser too.
//   lsp/requestGuards.ts        the session's phase; every handler's cancellation, params and error handling
//   lsp/clientSupport.ts        what the client can do, read at `initialize`
//   lsp/settingsSync.ts         the `lwir.*` settings, kept in step with the client
//   lsp/diagnosticsPushPull.ts  diagnostics pushed after a quiet period (lsp/validationScheduler.ts) or pulled
//   lsp/completionAndCodeActions.ts, lsp/outlineFeatures.ts, lsp/navigationFeatures.ts, lsp/graphFeatures.ts: the features,
//                               whose work is done in service/ as pure functions of the cached analysis
import { TextDocumentSyncKind, TextDocuments, type Connection, type InitializeResult } from "vscode-languageserver";
import { LwirWorkspace } from "./service/workspace";
import { lazyTextDocuments } from "./lazyTextDocument";
import { BEFORE_INITIALIZE, readClientSupport, type ClientSupport } from "./lsp/clientSupport";
import { registerCompletionAndCodeActions } from "./lsp/completionAndCodeActions";
import { registerGraphFeatures } from "./lsp/graphFeatures";
import { DiagnosticsPushPull } from "./lsp/diagnosticsPushPull";
import { registerNavigationFeatures } from "./lsp/navigationFeatures";
import { registerOutlineFeatures } from "./lsp/outlineFeatures";
import { Session } from "./lsp/requestGuards";
import type { ServerParts } from "./lsp/serverParts";
import { SettingsSync } from "./lsp/settingsSync";

/** package.json's version, defined by scripts/build.mjs when bundling. */
declare const __LWIR_VERSION__: string | undefined;

/** What the entry point knows about its transport. */
export interface ServerOptions {
  /** True while a request has arrived whose response is not written yet (outstandingRequests.ts). */
  requestsOutstanding?: () => boolean;
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  let client: ClientSupport = BEFORE_INITIALIZE;
  const session = new Session(connection);
  const settings = new SettingsSync(connection, () => client);
  const documents = new TextDocuments(lazyTextDocuments);
  const workspace = new LwirWorkspace(documents, () => settings.current);
  const parts: ServerParts = { connection, documents, workspace, settings, session, client: () => client };

  const diagnostics = new DiagnosticsPushPull({ ...parts, requestsOutstanding: options.requestsOutstanding ?? (() => false) });
  diagnostics.listen();
  settings.listen(session);
  settings.onChange(() => diagnostics.revalidateAll());
  const completionAndCodeActions = registerCompletionAndCodeActions(parts);
  const outline = registerOutlineFeatures(parts);
  const navigation = registerNavigationFeatures(parts);
  registerGraphFeatures(parts);

  connection.onInitialize((params): InitializeResult => {
    session.phase = "running";
    client = readClientSupport(params.capabilities);
    settings.initialize(params.initializationOptions);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        ...completionAndCodeActions(client),
        ...outline,
        ...navigation,
        ...diagnostics.capabilities(client),
      },
      serverInfo: { name: "lwir-language-server", ...(typeof __LWIR_VERSION__ === "string" ? { version: __LWIR_VERSION__ } : {}) },
    };
  });

  connection.onShutdown(() => {
    session.phase = "shutDown";
    diagnostics.shutdown();
  });

  documents.listen(connection);
  connection.listen();
  session.log("lwir: language server started");
}
