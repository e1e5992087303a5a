// Diagnostics, pushed or pulled. A client that advertises `textDocument.diagnostic` (VS Code) pulls them
// and gets no pushed ones, since VS Code keeps pushed and pulled diagnostics in separate collections and
// would show each problem twice. Every other client (Neovim, Eglot, …) gets `publishDiagnostics`, after
// the quiet period of validationScheduler.ts; a pull waits out the same quiet period before answering.
import {
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  type CancellationToken,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type ServerCapabilities,
} from "vscode-languageserver";
import { applyRuleLevels, internalErrorDiagnostic, toDiagnostics, tooLargeDiagnostic } from "../service/diagnostics";
import { withRuleLinks } from "../service/ruleDocs";
import type { ClientSupport } from "./clientSupport";
import { ConfigFiles } from "./configFiles";
import { ScenarioFiles } from "./scenarioFiles";
import { cancelled } from "./requestGuards";
import type { ServerParts } from "./serverParts";
import { ValidationScheduler } from "./validationScheduler";

/** Validation slower than this is logged, so a slow document shows up in the output channel. */
const SLOW_VALIDATION_MS = 1000;

export interface DiagnosticsParts extends ServerParts {
  /** True while a request has arrived whose response is not written yet (outstandingRequests.ts). */
  requestsOutstanding: () => boolean;
  /** The last report of a file that is not open, from the workspace scan (workspaceScan.ts). */
  diskReport?: (uri: string) => { resultId: string; items: Diagnostic[] } | undefined;
  /** The configuration files: rule levels over the settings, ignored files, and their own problems. */
  configs?: ConfigFiles;
  /** Scenarios files (NAME.lwir.test.yaml): checked against the workflow beside them. */
  scenarios?: ScenarioFiles;
}

export class DiagnosticsPushPull {
  private readonly scheduler: ValidationScheduler;
  /** Push mode: the last version published per document and how many diagnostics it had. */
  private readonly published = new Map<string, { version: number; count: number }>();
  /** Pull mode: when each document last changed, for the quiet period before answering a pull. */
  private readonly lastChange = new Map<string, number>();
  /** How many times each document has been opened: versions restart when it is reopened. */
  private readonly openCount = new Map<string, number>();
  /** Documents whose publish waits for their configuration file to be looked up. */
  private readonly awaitingConfig = new Set<string>();
  /** Bumped when a configuration file changes, so pull result ids from before no longer match. */
  private configGeneration = 0;
  /** Counts the reports of scenarios files, each a new result. */
  private scenarioReports = 0;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Opened and not validated yet: validated at once, since nothing is being typed yet (the delay is for edits). */
  private readonly justOpened = new Set<string>();

  constructor(private readonly parts: DiagnosticsParts) {
    this.scheduler = new ValidationScheduler(parts.requestsOutstanding);
  }

  /** Spread into the initialize result: the pull provider, for clients that pull. */
  capabilities(client: ClientSupport): ServerCapabilities {
    return client.pullDiagnostics ? { diagnosticProvider: { identifier: "lwir", interFileDependencies: false, workspaceDiagnostics: client.workspaceDiagnostics } } : {};
  }

  listen(): void {
    const { connection, documents, session } = this.parts;
    documents.onDidOpen(session.notification("didOpen", (event) => {
      const uri = event.document.uri;
      this.openCount.set(uri, (this.openCount.get(uri) ?? 0) + 1);
      this.justOpened.add(uri);
    }));
    // Fired for didOpen and for every didChange.
    documents.onDidChangeContent(session.notification("didChange", (event) => this.changed(event.document.uri)));
    documents.onDidClose(session.notification("didClose", (event) => this.closed(event.document.uri)));
    // Registered with onRequest rather than the typed helpers: those read params.workDoneToken before any
    // handler runs, so a request without params would fail with InternalError instead of InvalidParams.
    connection.onRequest(DocumentDiagnosticRequest.type, session.documentRequest("textDocument/diagnostic", (params, token) => this.pull(params.textDocument.uri, params.previousResultId, token)));
  }

  /** After a change of settings or configuration files: push mode revalidates every document, pull mode asks the client to pull again. */
  revalidateAll(): void {
    this.configGeneration++;
    const { connection, documents, session } = this.parts;
    const client = this.parts.client();
    if (client.pullDiagnostics) {
      if (client.diagnosticRefresh) connection.languages.diagnostics.refresh().catch((error) => session.logError("diagnostics refresh", error));
      return;
    }
    for (const document of documents.all()) this.changed(document.uri);
  }

  shutdown(): void {
    this.scheduler.cancelAll();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
  }

  /** Pull mode: asks the client to pull again once edits of a workflow pause (its scenarios files depend on it). */
  private refreshSoon(): void {
    const { connection, session } = this.parts;
    if (!this.parts.client().diagnosticRefresh) return;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (session.phase !== "running") return;
      connection.languages.diagnostics.refresh().catch((error) => session.logError("diagnostics refresh", error));
    }, this.parts.settings.current.validation.delay);
  }

  private changed(uri: string): void {
    // A workflow changed: the scenarios files open beside it are checked again (their samples and names).
    const scenarios = this.parts.scenarios;
    if (scenarios && !ScenarioFiles.isScenariosUri(uri)) {
      const beside = scenarios.openScenariosBeside(uri);
      if (beside.length > 0 && this.parts.workspace.getState(uri)?.kind === "lwir") {
        if (!this.parts.client().pullDiagnostics) for (const other of beside) this.changed(other);
        else this.refreshSoon();
      }
    }
    // didOpen comes first (onDidOpen, then onDidChangeContent): no quiet period before the first validation.
    const opened = this.justOpened.delete(uri);
    if (opened) this.lastChange.delete(uri);
    else this.lastChange.set(uri, Date.now());
    if (this.parts.client().pullDiagnostics) return;
    this.scheduler.schedule(uri, opened ? 0 : this.parts.settings.current.validation.delay, () => {
      const publish = () => {
        try {
          this.publish(uri);
        } catch (error) {
          this.parts.session.logError(`validating ${uri}`, error);
        }
      };
      // A scenarios file: its workflow is looked up (read) first, then it is checked.
      if (scenarios && ScenarioFiles.isScenariosUri(uri)) {
        void Promise.all([scenarios.prepare(uri), this.parts.configs?.forUri(uri)]).then(() => {
          if (!this.scheduler.has(uri)) publish();
        });
        return;
      }
      // The document's configuration file is looked up once per folder; after that this is synchronous.
      const configs = this.parts.configs;
      if (!configs || configs.known(uri)) publish();
      else if (!this.awaitingConfig.has(uri)) {
        // One wait per document: the publish after it takes the document's version of that moment, unless
        // an edit made meanwhile has its own validation pending (then that one publishes, once).
        this.awaitingConfig.add(uri);
        void configs.forUri(uri).then(() => {
          this.awaitingConfig.delete(uri);
          if (!this.scheduler.has(uri)) publish();
        });
      }
    });
  }

  private closed(uri: string): void {
    this.scheduler.cancel(uri);
    this.lastChange.delete(uri);
    this.justOpened.delete(uri);
    this.parts.workspace.forget(uri);
    this.parts.scenarios?.forget(uri);
    const last = this.published.get(uri);
    this.published.delete(uri);
    // Clear what we published; nothing is published for this document after this point.
    if (last && last.count > 0) this.parts.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** The diagnostics of the document's current version under the current settings, linked to their rule pages where the client shows links. */
  private diagnosticsOf(uri: string): Diagnostic[] {
    const diagnostics = this.analyse(uri);
    return this.parts.client().codeDescription ? withRuleLinks(diagnostics) : diagnostics;
  }

  private analyse(uri: string): Diagnostic[] {
    const { workspace, session, configs } = this.parts;
    const settings = this.parts.settings.current;
    if (!settings.validation.enable) return [];
    if (configs && ConfigFiles.isConfigUri(uri)) {
      const text = this.parts.documents.get(uri)?.getText();
      return text === undefined ? [] : configs.diagnosticsOf(uri, text);
    }
    if (this.parts.scenarios && ScenarioFiles.isScenariosUri(uri)) {
      if (configs?.ignores(uri)) return [];
      try {
        return applyRuleLevels(this.parts.scenarios.diagnosticsOf(uri), configs ? configs.rulesFor(uri) : settings.lint.rules);
      } catch (error) {
        session.logError(`checking ${uri}`, error);
        return [internalErrorDiagnostic(error)];
      }
    }
    const state = workspace.getState(uri);
    if (!state || state.kind === "ignored") return [];
    // Left out by its configuration file's `ignore`: nothing to say, as for the CLI.
    if (configs?.ignores(uri)) return [];
    const rules = configs ? configs.rulesFor(uri) : settings.lint.rules;
    if (state.kind === "tooLarge") return applyRuleLevels([tooLargeDiagnostic(state.size, state.limit)], rules);
    const started = Date.now();
    let diagnostics: Diagnostic[];
    try {
      diagnostics = applyRuleLevels(toDiagnostics(workspace.getAnalysis(uri)!, { uri, relatedInformation: this.parts.client().relatedInformation }), rules);
    } catch (error) {
      // A bug in a rule must not leave the user with silently stale squiggles: say so, once.
      session.logError(`analysing ${uri}`, error);
      return [internalErrorDiagnostic(error)];
    }
    const took = Date.now() - started;
    if (took > SLOW_VALIDATION_MS) session.log(`lwir: analysing ${uri} took ${took} ms`);
    return diagnostics;
  }

  /** Push mode: publishes the diagnostics of the document's current version. */
  private publish(uri: string): void {
    const { documents, workspace, connection } = this.parts;
    const document = documents.get(uri);
    if (!document) return; // closed meanwhile
    const version = document.version;
    const diagnostics = this.diagnosticsOf(uri);
    // Never publish for a version older than the document's current one, nor go backwards.
    if (documents.get(uri)?.version !== version) return;
    const last = this.published.get(uri);
    if (last && last.version > version) return;
    // Documents we do not handle are left alone, unless they still show diagnostics of ours.
    const state = workspace.getState(uri);
    const ours = this.parts.settings.current.validation.enable && ((state !== undefined && state.kind !== "ignored") || (this.parts.configs !== undefined && ConfigFiles.isConfigUri(uri)) || (this.parts.scenarios !== undefined && ScenarioFiles.isScenariosUri(uri)));
    if (!ours && (!last || last.count === 0)) return;
    this.published.set(uri, { version, count: diagnostics.length });
    connection.sendDiagnostics({ uri, version, diagnostics });
  }

  /** Pull mode: the report for a document, once it has been quiet for `lwir.validation.delay`. */
  private async pull(uri: string, previousResultId: string | undefined, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    await this.quietPeriod(uri, token);
    await this.parts.configs?.forUri(uri);
    const scenarios = this.parts.scenarios && ScenarioFiles.isScenariosUri(uri) && this.parts.documents.get(uri) ? this.parts.scenarios : undefined;
    if (scenarios) await scenarios.prepare(uri);
    if (token.isCancellationRequested) throw cancelled();
    const document = this.parts.documents.get(uri);
    if (!document) {
      // Not open (VS Code pulls once more right after a close): the workspace scan's report, if it has one.
      const disk = this.parts.diskReport?.(uri);
      if (disk && previousResultId === disk.resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId: disk.resultId };
      return disk ? { kind: DocumentDiagnosticReportKind.Full, resultId: disk.resultId, items: disk.items } : { kind: DocumentDiagnosticReportKind.Full, items: [] };
    }
    const resultId = `${this.openCount.get(uri) ?? 0}.${document.version}.${this.parts.settings.generation}.${this.configGeneration}`;
    // A scenarios file's report also depends on its workflow: always given in full.
    if (scenarios) return { kind: DocumentDiagnosticReportKind.Full, resultId: `${resultId}.s${++this.scenarioReports}`, items: this.diagnosticsOf(uri) };
    if (previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: this.diagnosticsOf(uri) };
  }

  /** Waits until the document has been quiet for `lwir.validation.delay`, or cancellation. */
  private async quietPeriod(uri: string, token: CancellationToken): Promise<void> {
    for (;;) {
      const wait = (this.lastChange.get(uri) ?? 0) + this.parts.settings.current.validation.delay - Date.now();
      if (wait <= 0 || token.isCancellationRequested) return;
      await sleep(wait, token);
    }
  }
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
