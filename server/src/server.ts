// The language server's LSP wiring, shared by the Node entry (node.ts) and the web worker entry
// (browser.ts): capabilities, document sync, settings, debounced validation, push or pull
// diagnostics, cancellation. The features themselves live in service/, as pure functions of the
// cached analysis. No Node APIs here: this file is bundled for the browser too.
//
// Push or pull: a client that advertises `textDocument.diagnostic` (VS Code) pulls diagnostics and
// gets no pushed ones, since VS Code keeps pushed and pulled diagnostics in separate collections and
// would show each problem twice. Every other client (Neovim, Eglot, …) gets `publishDiagnostics`.
import {
  CodeActionKind,
  CodeActionRequest,
  CompletionRequest,
  CompletionResolveRequest,
  DidChangeConfigurationNotification,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type InitializeResult,
} from "vscode-languageserver";
import { internalErrorDiagnostic, toDiagnostics, tooLargeDiagnostic } from "./service/diagnostics";
import { provideCompletion, provideCompletionFromText, provideCompletionNearCursor } from "./service/completion";
import { LazyTextDocument, lazyTextDocuments } from "./textDocument";
import { CompletionDocumentation, completionWireOf, FULL_ITEMS, type CompletionWire } from "./service/completionList";
import { provideCodeActions } from "./service/codeActions";
import { DEFAULT_SETTINGS, readSettings, type LwirSettings } from "./service/settings";
import { LwirWorkspace } from "./service/workspace";
// outline, folding, selection, semantic tokens, WorkflowVersion (see the block of that name below)
import {
  CodeLensRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  SelectionRangeRequest,
  SemanticTokensRequest,
  type ServerCapabilities,
} from "vscode-languageserver";
import { provideCodeLenses, tooLargeInfo, workflowVersionInfo } from "./service/codeLens";
import { FIX_ALL_KIND, SETTINGS_SECTION, WORKFLOW_VERSION_REQUEST, type WorkflowVersionResult } from "./protocol";
import { provideFoldingRanges } from "./service/folding";
import { provideSelectionRanges } from "./service/selection";
import { provideSemanticTokens, SEMANTIC_TOKENS_LEGEND } from "./service/semanticTokens";
import { provideDocumentSymbols } from "./service/symbols";
// hover, definition, references, rename (see the block of that name below)
import {
  DefinitionRequest,
  DocumentHighlightRequest,
  HoverRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  type DefinitionParams,
  type DocumentHighlightParams,
  type HoverParams,
  type PrepareRenameParams,
  type ReferenceParams,
  type RenameParams,
} from "vscode-languageserver";
import { provideDefinition, provideDocumentHighlights, provideReferences } from "./service/definition";
import { provideHover } from "./service/hover";
import { providePrepareRename, provideRename } from "./service/rename";

export const COMPLETION_TRIGGER_CHARACTERS = [".", "{", '"', " ", "[", "'", ":", "-"];
/** Validation slower than this is logged, so a slow document shows up in the output channel. */
const SLOW_VALIDATION_MS = 1000;

type Cancel = () => void;

/** package.json's version, defined by scripts/build.mjs when bundling. */
declare const __LWIR_VERSION__: string | undefined;

/** What the entry point knows about its transport. */
export interface ServerOptions {
  /** True while a request has arrived whose response is not written yet (requestsFirst.ts). */
  requestsOutstanding?: () => boolean;
}

/** A validation yields to waiting requests for at most this long, so a flood of requests cannot starve it. */
const MAX_YIELD_MS = 500;

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const requestsOutstanding = options.requestsOutstanding ?? (() => false);
  // (textDocument.ts: the text after an edit is built when read, so completion can read around the cursor)
  const documents = new TextDocuments(lazyTextDocuments);
  let settings: LwirSettings = DEFAULT_SETTINGS;
  /** Bumped whenever settings change, so pull result ids from before the change no longer match. */
  let settingsGeneration = 0;
  const workspace = new LwirWorkspace(documents, () => settings);

  // What the client can do (read in onInitialize).
  let pullDiagnostics = false;
  let configurationRequests = false;
  let dynamicConfigurationRegistration = false;
  let relatedInformation = true;
  let diagnosticRefresh = false;
  let completionWire: CompletionWire = FULL_ITEMS;
  const completionDocumentation = new CompletionDocumentation();
  /** Where the session is: requests before `initialize` or after `shutdown` get the errors LSP prescribes. */
  let phase: "starting" | "running" | "shutDown" = "starting";

  /** Push mode: the pending (debounced) validation of each document. */
  const pending = new Map<string, Cancel>();
  /** Push mode: the last version published per document and how many diagnostics it had. */
  const published = new Map<string, { version: number; count: number }>();
  /** Pull mode: when each document last changed, for the quiet period before answering a pull. */
  const lastChange = new Map<string, number>();
  /** How many times each document has been opened: versions restart when it is reopened. */
  const openCount = new Map<string, number>();

  const log = (message: string) => connection.console.log(message);
  const logError = (what: string, error: unknown) =>
    connection.console.error(`lwir: ${what} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);

  /**
   * Wraps a handler of a textDocument/* request: cancellation before or after the work answers RequestCancelled, and an
   * exception is logged and answered with InternalError, so no request can take the server down.
   */
  function documentRequest<P extends { textDocument: { uri: string } }, R>(
    name: string,
    handler: (params: P, token: CancellationToken) => R | Promise<R>,
    /** Says what is wrong with the rest of the params (the uri is checked here), or undefined when they are usable. */
    invalid: (params: P) => string | undefined = () => undefined,
  ) {
    return async (params: P, token: CancellationToken): Promise<R | ResponseError<never>> => {
      if (phase === "starting") return new ResponseError(ErrorCodes.ServerNotInitialized, `lwir: ${name} before initialize`);
      if (phase === "shutDown") return new ResponseError(ErrorCodes.InvalidRequest, `lwir: ${name} after shutdown`);
      if (token.isCancellationRequested) return cancelled();
      if (typeof params?.textDocument?.uri !== "string") {
        return new ResponseError(ErrorCodes.InvalidParams, `lwir: ${name} needs params.textDocument.uri`);
      }
      const problem = invalid(params);
      if (problem !== undefined) return new ResponseError(ErrorCodes.InvalidParams, `lwir: ${name} needs ${problem}`);
      try {
        const result = await handler(params, token);
        return token.isCancellationRequested ? cancelled() : result;
      } catch (error) {
        if (error instanceof ResponseError) return error as ResponseError<never>;
        logError(name, error);
        return new ResponseError(ErrorCodes.InternalError, `lwir: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
  }

  /** Wraps a notification handler: an exception is logged and otherwise ignored. */
  function notification<P>(name: string, handler: (params: P) => void | Promise<void>) {
    return (params: P): void => {
      try {
        const result = handler(params);
        if (result instanceof Promise) result.catch((error) => logError(name, error));
      } catch (error) {
        logError(name, error);
      }
    };
  }

  // ---- lifecycle ----------------------------------------------------------------------------------

  connection.onInitialize((params): InitializeResult => {
    phase = "running";
    const capabilities = params.capabilities;
    pullDiagnostics = capabilities.textDocument?.diagnostic !== undefined;
    configurationRequests = capabilities.workspace?.configuration === true;
    dynamicConfigurationRegistration = capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    relatedInformation = capabilities.textDocument?.publishDiagnostics?.relatedInformation !== false;
    diagnosticRefresh = capabilities.workspace?.diagnostics?.refreshSupport === true;
    completionWire = completionWireOf(capabilities);
    const options = params.initializationOptions as { settings?: unknown } | null | undefined;
    settings = readSettings(options?.settings ?? options);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: completionWire.resolveDocumentation },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
        ...OUTLINE_CAPABILITIES,
        ...NAVIGATION_CAPABILITIES,
        ...(pullDiagnostics
          ? { diagnosticProvider: { identifier: "lwir", interFileDependencies: false, workspaceDiagnostics: false } }
          : {}),
      },
      serverInfo: { name: "lwir-language-server", ...(typeof __LWIR_VERSION__ === "string" ? { version: __LWIR_VERSION__ } : {}) },
    };
  });

  connection.onInitialized(notification("initialized", async () => {
    if (configurationRequests && dynamicConfigurationRegistration) {
      await connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
    }
    await refreshSettings(undefined);
  }));

  connection.onDidChangeConfiguration(notification("didChangeConfiguration", (params) => refreshSettings(params.settings)));

  /** Re-reads settings (asking the client when it can answer, else from the notification) and revalidates. */
  async function refreshSettings(pushed: unknown): Promise<void> {
    let next = settings;
    if (configurationRequests) {
      const fetched: unknown = await connection.workspace.getConfiguration({ section: SETTINGS_SECTION });
      next = readSettings(fetched, settings);
    } else if (pushed !== undefined) {
      next = readSettings(pushed, settings);
    }
    if (JSON.stringify(next) === JSON.stringify(settings)) return;
    settings = next;
    settingsGeneration++;
    revalidateAll();
  }

  function revalidateAll(): void {
    if (pullDiagnostics) {
      if (diagnosticRefresh) connection.languages.diagnostics.refresh().catch((error) => logError("diagnostics refresh", error));
      return;
    }
    for (const document of documents.all()) schedule(document.uri);
  }

  connection.onShutdown(() => {
    phase = "shutDown";
    for (const cancel of pending.values()) cancel();
    pending.clear();
  });

  // ---- documents ----------------------------------------------------------------------------------

  documents.onDidOpen(notification("didOpen", (event) => {
    const uri = event.document.uri;
    openCount.set(uri, (openCount.get(uri) ?? 0) + 1);
  }));

  // Fired for didOpen and for every didChange.
  documents.onDidChangeContent(notification("didChange", (event) => schedule(event.document.uri)));

  documents.onDidClose(notification("didClose", (event) => {
    const uri = event.document.uri;
    pending.get(uri)?.();
    pending.delete(uri);
    lastChange.delete(uri);
    workspace.forget(uri);
    const last = published.get(uri);
    published.delete(uri);
    // Clear what we published; nothing is published for this document after this point.
    if (last && last.count > 0) connection.sendDiagnostics({ uri, diagnostics: [] });
  }));

  // ---- diagnostics ------------------------------------------------------------------------------

  /** The diagnostics of the document's current version under the current settings. */
  function diagnosticsOf(uri: string): Diagnostic[] {
    if (!settings.validation.enable) return [];
    const state = workspace.getState(uri);
    if (!state || state.kind === "ignored") return [];
    if (state.kind === "tooLarge") return [tooLargeDiagnostic(state.size, state.limit)];
    const started = Date.now();
    let diagnostics: Diagnostic[];
    try {
      diagnostics = toDiagnostics(workspace.getAnalysis(uri)!, { uri, relatedInformation });
    } catch (error) {
      // A bug in a rule must not leave the user with silently stale squiggles: say so, once.
      logError(`analysing ${uri}`, error);
      return [internalErrorDiagnostic(error)];
    }
    const took = Date.now() - started;
    if (took > SLOW_VALIDATION_MS) log(`lwir: analysing ${uri} took ${took} ms`);
    return diagnostics;
  }

  /** Push mode: validate after the quiet period (`lwir.validation.delay`; 0 = next tick, no timer). */
  function schedule(uri: string): void {
    lastChange.set(uri, Date.now());
    if (pullDiagnostics) return;
    pending.get(uri)?.();
    let live = true;
    let yieldUntil = 0;
    const run = () => {
      if (!live) return;
      // Requests first: completion typed with this change answers from the text and the last analysis in
      // a few ms; it must not wait the tens of ms a full validation takes. Yield a macrotask at a time.
      if (requestsOutstanding()) {
        yieldUntil ||= Date.now() + MAX_YIELD_MS;
        if (Date.now() < yieldUntil) {
          const timer = setTimeout(run, 0);
          pending.set(uri, () => { live = false; clearTimeout(timer); });
          return;
        }
      }
      live = false;
      pending.delete(uri);
      try {
        validate(uri);
      } catch (error) {
        logError(`validating ${uri}`, error);
      }
    };
    const delay = settings.validation.delay;
    if (delay === 0) {
      queueMicrotask(run);
      pending.set(uri, () => { live = false; });
    } else {
      const timer = setTimeout(run, delay);
      pending.set(uri, () => { live = false; clearTimeout(timer); });
    }
  }

  function validate(uri: string): void {
    const document = documents.get(uri);
    if (!document) return; // closed meanwhile
    const version = document.version;
    const diagnostics = diagnosticsOf(uri);
    // Never publish for a version older than the document's current one, nor go backwards.
    if (documents.get(uri)?.version !== version) return;
    const last = published.get(uri);
    if (last && last.version > version) return;
    // Documents we do not handle are left alone, unless they still show diagnostics of ours.
    const state = workspace.getState(uri);
    const ours = settings.validation.enable && state !== undefined && state.kind !== "ignored";
    if (!ours && (!last || last.count === 0)) return;
    published.set(uri, { version, count: diagnostics.length });
    connection.sendDiagnostics({ uri, version, diagnostics });
  }

  /** Pull mode: wait until the document has been quiet for `lwir.validation.delay`, or cancellation. */
  async function quietPeriod(uri: string, token: CancellationToken): Promise<void> {
    for (;;) {
      const wait = (lastChange.get(uri) ?? 0) + settings.validation.delay - Date.now();
      if (wait <= 0 || token.isCancellationRequested) return;
      await sleep(wait, token);
    }
  }

  // The requests are registered with onRequest rather than the typed helpers (onCompletion, …): those read
  // params.workDoneToken before any handler runs, so a request without params would fail with InternalError
  // instead of getting InvalidParams. No request here reports progress or partial results.
  connection.onRequest(DocumentDiagnosticRequest.type, documentRequest("textDocument/diagnostic", async (params, token): Promise<DocumentDiagnosticReport> => {
    const uri = params.textDocument.uri;
    await quietPeriod(uri, token);
    if (token.isCancellationRequested) throw cancelled();
    const document = documents.get(uri);
    if (!document) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const resultId = `${openCount.get(uri) ?? 0}.${document.version}.${settingsGeneration}`;
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnosticsOf(uri) };
  }));

  // ---- completion and code actions (service/completion.ts, service/codeActions.ts) ------------

  connection.onRequest(CompletionRequest.type, documentRequest("completion", (params) => {
    const uri = params.textDocument.uri;
    const state = workspace.getState(uri);
    if (state?.kind !== "lwir") return null; // not LWIR (or too large): leave the answer to other extensions
    // Right after an edit the new version is not analysed yet: answer from its text and the last good
    // analysis rather than wait for a full parse (the next validation analyses it anyway).
    const current = workspace.peekAnalysis(uri);
    const lastGood = workspace.getLastGood(uri);
    if (!current && lastGood) {
      const document = documents.get(uri)!;
      // JSON: the step around the cursor, without building the new text, where that suffices
      const near = document instanceof LazyTextDocument ? provideCompletionNearCursor(document, lastGood, params.position) : undefined;
      return completionDocumentation.compact(near ?? provideCompletionFromText(document.getText(), state.format, lastGood, params.position), completionWire);
    }
    const analysis = current ?? workspace.getAnalysis(uri);
    if (!analysis) return null;
    return completionDocumentation.compact(provideCompletion(analysis, lastGood, params.position, settings), completionWire);
  }, (params) => (isPosition(params.position) ? undefined : "params.position {line, character}")));

  // Documentation left off long lists (service/completionList.ts), given when the client shows an item.
  connection.onRequest(CompletionResolveRequest.type, (item) => {
    if (phase === "starting") return new ResponseError(ErrorCodes.ServerNotInitialized, "lwir: completionItem/resolve before initialize");
    if (phase === "shutDown") return new ResponseError(ErrorCodes.InvalidRequest, "lwir: completionItem/resolve after shutdown");
    if (typeof item !== "object" || item === null || typeof item.label !== "string") {
      return new ResponseError(ErrorCodes.InvalidParams, "lwir: completionItem/resolve needs a CompletionItem");
    }
    return completionDocumentation.resolve(item);
  });

  connection.onRequest(CodeActionRequest.type, documentRequest("codeAction", (params) => {
    const analysis = workspace.getAnalysis(params.textDocument.uri);
    if (!analysis) return null;
    return provideCodeActions(analysis, params);
  }, (params) => {
    if (!isRange(params.range)) return "params.range {start, end}";
    const context: unknown = params.context;
    if (!isRecord(context) || !Array.isArray(context.diagnostics)) return "params.context.diagnostics";
    if (context.only !== undefined && !(Array.isArray(context.only) && context.only.every((k) => typeof k === "string"))) {
      return "params.context.only to be a list of kinds";
    }
    return undefined;
  }));

  // ==== outline, folding, selection, semantic tokens, WorkflowVersion ==============================
  // service/symbols.ts, folding.ts, selection.ts, semanticTokens.ts, codeLens.ts. Each answers only for
  // LWIR documents (null for others, whose answers are left to other extensions); folding reads the
  // text alone, so it does not wait for a parse and survives syntax errors.

  /** Spread into the initialize result above. */
  const OUTLINE_CAPABILITIES: ServerCapabilities = {
    documentSymbolProvider: { label: "LWIR" },
    foldingRangeProvider: true,
    selectionRangeProvider: true,
    semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true, range: false },
    codeLensProvider: { resolveProvider: false },
  };

  /** The analysis of an open LWIR document of normal size. */
  const lwirAnalysis = (uri: string) => (workspace.getState(uri)?.kind === "lwir" ? workspace.getAnalysis(uri) : undefined);

  connection.onRequest(DocumentSymbolRequest.type, documentRequest("documentSymbol", (params) => {
    const analysis = lwirAnalysis(params.textDocument.uri);
    return analysis ? provideDocumentSymbols(analysis) : null;
  }));

  connection.onRequest(FoldingRangeRequest.type, documentRequest("foldingRange", (params) => {
    const uri = params.textDocument.uri;
    const state = workspace.getState(uri);
    if (state?.kind !== "lwir") return null;
    return provideFoldingRanges(documents.get(uri)!.getText(), state.format);
  }));

  connection.onRequest(SelectionRangeRequest.type, documentRequest("selectionRange", (params) => {
    const analysis = lwirAnalysis(params.textDocument.uri);
    return analysis ? provideSelectionRanges(analysis.document, params.positions) : null;
  }, (params) => (Array.isArray(params.positions) && params.positions.every(isPosition) ? undefined : "params.positions [{line, character}]")));

  connection.onRequest(SemanticTokensRequest.type, documentRequest("semanticTokens", (params) => {
    const analysis = lwirAnalysis(params.textDocument.uri);
    return analysis ? provideSemanticTokens(analysis) : null;
  }));

  connection.onRequest(CodeLensRequest.type, documentRequest("codeLens", (params) => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(uri);
    return analysis ? provideCodeLenses(analysis, uri) : null;
  }));

  // lwir/workflowVersion: {uri, canonicalJson?} → WorkflowVersionResult, or null when the document is not an open LWIR one.
  const workflowVersion = documentRequest("workflowVersion", (params: { textDocument: { uri: string }; canonicalJson: boolean }): WorkflowVersionResult | null => {
    const uri = params.textDocument.uri;
    const state = workspace.getState(uri);
    if (state?.kind === "tooLarge") return tooLargeInfo(uri);
    const analysis = lwirAnalysis(uri);
    return analysis ? workflowVersionInfo(analysis, uri, params.canonicalJson) : null;
  });
  connection.onRequest(WORKFLOW_VERSION_REQUEST, (params: unknown, token: CancellationToken) => {
    const p = isRecord(params) ? params : {};
    const uri = typeof p.uri === "string" ? p.uri : isRecord(p.textDocument) ? p.textDocument.uri : undefined;
    return workflowVersion({ textDocument: { uri: uri as string }, canonicalJson: p.canonicalJson === true }, token);
  });

  // ==== end of outline, folding, selection, semantic tokens, WorkflowVersion =======================

  // ==== hover, definition, references, rename ======================================================
  // service/hover.ts, definition.ts, rename.ts over the index of service/references.ts. Each answers
  // only for open LWIR documents of normal size (null for others). A rename that cannot be done
  // safely is refused with RequestFailed and a message the editor shows.

  /** Spread into the initialize result above. */
  const NAVIGATION_CAPABILITIES: ServerCapabilities = {
    hoverProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    documentHighlightProvider: true,
    renameProvider: { prepareProvider: true },
  };

  const navigationAnalysis = (uri: string) => (workspace.getState(uri)?.kind === "lwir" ? workspace.getAnalysis(uri) : undefined);
  const needsPosition = (params: { position: unknown }) => (isPosition(params.position) ? undefined : "params.position {line, character}");

  connection.onRequest(HoverRequest.type, documentRequest("hover", (params: HoverParams) => {
    const analysis = navigationAnalysis(params.textDocument.uri);
    return analysis ? provideHover(analysis, params.position) : null;
  }, needsPosition));

  connection.onRequest(DefinitionRequest.type, documentRequest("definition", (params: DefinitionParams) => {
    const uri = params.textDocument.uri;
    const analysis = navigationAnalysis(uri);
    return analysis ? provideDefinition(analysis, params.position, uri) : null;
  }, needsPosition));

  connection.onRequest(ReferencesRequest.type, documentRequest("references", (params: ReferenceParams) => {
    const uri = params.textDocument.uri;
    const analysis = navigationAnalysis(uri);
    return analysis ? provideReferences(analysis, params.position, uri, params.context?.includeDeclaration === true) : null;
  }, needsPosition));

  connection.onRequest(DocumentHighlightRequest.type, documentRequest("documentHighlight", (params: DocumentHighlightParams) => {
    const analysis = navigationAnalysis(params.textDocument.uri);
    return analysis ? provideDocumentHighlights(analysis, params.position) : null;
  }, needsPosition));

  connection.onRequest(PrepareRenameRequest.type, documentRequest("prepareRename", (params: PrepareRenameParams) => {
    const analysis = navigationAnalysis(params.textDocument.uri);
    if (!analysis) return null;
    const result = providePrepareRename(analysis, params.position);
    if ("refused" in result) throw new ResponseError(LSPErrorCodes.RequestFailed, result.refused);
    return result;
  }, needsPosition));

  connection.onRequest(RenameRequest.type, documentRequest("rename", (params: RenameParams) => {
    const uri = params.textDocument.uri;
    const analysis = navigationAnalysis(uri);
    if (!analysis) return null;
    const result = provideRename(analysis, params.position, params.newName, uri);
    if ("refused" in result) throw new ResponseError(LSPErrorCodes.RequestFailed, result.refused);
    return result.edit;
  }, (params) => needsPosition(params) ?? (typeof params.newName === "string" ? undefined : "params.newName (a string)")));

  // ==== end of hover, definition, references, rename ===============================================

  documents.listen(connection);
  connection.listen();
  log("lwir: language server started");
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A position with numeric line and character (out-of-range values are the features' business: they clamp). */
function isPosition(v: unknown): boolean {
  return isRecord(v) && typeof v.line === "number" && Number.isFinite(v.line) && typeof v.character === "number" && Number.isFinite(v.character);
}

function isRange(v: unknown): boolean {
  return isRecord(v) && isPosition(v.start) && isPosition(v.end);
}

function cancelled(): ResponseError<never> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, "The request was cancelled.");
}

/** Resolves after `ms`, or as soon as the token is cancelled. */
function sleep(ms: number, token: CancellationToken): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const subscription = token.onCancellationRequested(done);
    function done() {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    }
  });
}
