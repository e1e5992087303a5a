// Every LWIR file of the workspace folders, open or not (`lwir.validation.scope: "workspace"`): found on
// start-up and when folders change, checked in the background, and followed as the disk changes
// (watchedFiles.ts). Their problems go to the client as pushed diagnostics, or as `workspace/diagnostic`
// reports with result ids to a client that pulls them (VS Code), so unchanged files are not sent again.
//
// The user comes first: one file is checked at a time, with a macrotask between files (so typing,
// completion and the open documents' validations run in between) and a pause while requests are
// outstanding. A newer scan (settings, folders) supersedes the running one, cancelling the work-done
// progress cancels it, and a file's result is dropped when a newer event for that file arrived while it
// was being read, so no stale result is ever published after a newer one. An open document is the
// editor's business (diagnosticsPushPull.ts): its disk text is not read until it closes.
import {
  DocumentDiagnosticReportKind,
  MessageType,
  ShowMessageNotification,
  WorkspaceDiagnosticRequest,
  type CancellationToken,
  type Diagnostic,
  type InitializeParams,
  type ServerCapabilities,
  type WorkDoneProgressServerReporter,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from "vscode-languageserver";
import { documentText } from "../document/decode";
import { analyzeText } from "../service/analysis";
import { applyRuleLevels, internalErrorDiagnostic, toDiagnostics, tooLargeDiagnostic, unreadableDiagnostic } from "../service/diagnostics";
import { withRuleLinks } from "../service/ruleDocs";
import { classifyDocument, fileNameOf } from "../service/workspace";
import { FileFilter, formatCount, isAtOrBelow, relativePathIn, type FileContent, type WorkspaceFileSource } from "../workspace/files";
import { cancelled } from "./requestGuards";
import type { ConfigFiles } from "./configFiles";
import type { ServerParts } from "./serverParts";

export interface WorkspaceScanParts extends ServerParts {
  /** True while a request has arrived whose response is not written yet (outstandingRequests.ts). */
  requestsOutstanding: () => boolean;
  /** Where files are found and read, first match by folder (NodeFileSource for `file:`, the client's for the rest). */
  fileSources: WorkspaceFileSource[];
  /** The configuration files: rule levels over the settings and ignored files. */
  configs?: ConfigFiles;
}

/** What was last reported for a file that is not open. */
interface DiskReport {
  resultId: string;
  diagnostics: Diagnostic[];
  /** The diagnostics as JSON: a file whose problems did not change keeps its result id and is not re-sent. */
  key: string;
  /** Pull: deleted or out of scope; reported once as empty to clients that had it. */
  deleted: boolean;
  /** Push: how many diagnostics the client holds for it from us. */
  pushed: number;
  /** Pull: a closed document's clearing, reported even to a client without a result id for it (see `closed`). */
  announce?: boolean;
}

/** One scan of the workspace folders. */
interface Bulk {
  generation: number;
  uris: string[];
  next: number;
  done: number;
  progress: WorkDoneProgressServerReporter;
  lastProgress: number;
  started: number;
}

/** A scan waits this long at most for the client's outstanding requests before checking its next file. */
const MAX_YIELD_MS = 500;
/** Progress messages at most this often. */
const PROGRESS_EVERY_MS = 100;
/** Pull: how long after a document closes its workspace report is sent (see `closed`). */
const CLOSE_SETTLE_MS = 300;
/** A workspace pull with nothing new to say is held at most this long (the client asks again after it). */
const MAX_HOLD_MS = 5 * 60_000;

const yieldMacrotask: () => Promise<void> = typeof setImmediate === "function"
  ? () => new Promise((resolve) => setImmediate(resolve))
  : () => new Promise((resolve) => setTimeout(resolve, 0));

export class WorkspaceScan {
  private folders: string[] = [];
  private readonly reports = new Map<string, DiskReport>();
  /** Bumped by every event about a file, so a read that started before it is dropped. */
  private readonly stamps = new Map<string, number>();
  /** Files to (re)check before the rest of the scan: changed on disk, or just closed. */
  private readonly urgent = new Set<string>();
  private bulk: Bulk | undefined;
  private generation = 0;
  private pumping = false;
  private started = false;
  private nextResultId = 1;
  /** Woken when a report changes or a scan ends (held workspace pulls wait on it). */
  private waiters = new Set<() => void>();
  private cachedFilter: { files: object; editorExclude: readonly string[]; filter: FileFilter } | undefined;
  /** The `maxFiles` value the "too many files" notice was shown for (once per value). */
  private cappedAt = -1;

  constructor(private readonly parts: WorkspaceScanParts) {}

  /** The workspace folders of `initialize` (or its root URI). */
  initialize(params: InitializeParams): void {
    if (Array.isArray(params.workspaceFolders)) this.folders = params.workspaceFolders.map((f) => f.uri).filter((u) => typeof u === "string");
    else if (typeof params.rootUri === "string") this.folders = [params.rootUri];
  }

  /** Spread into the initialize result's `workspace`. */
  capabilities(): NonNullable<ServerCapabilities["workspace"]> {
    return { workspaceFolders: { supported: true, changeNotifications: true } };
  }

  /**
   * A client that pulls (VS Code) scans by default; a push-only client only once its settings name the
   * scope: such editors may start one server per language (Emacs' Eglot: one for JSON, one for YAML), and
   * every one of them would publish every file of the workspace, which Flymake then loses track of.
   */
  private get on(): boolean {
    const { validation } = this.parts.settings.current;
    return this.started && validation.enable && validation.scope === "workspace" && (this.pullMode || this.parts.settings.scopeExplicit);
  }

  private get pullMode(): boolean {
    return this.parts.client().workspaceDiagnostics;
  }

  listen(): void {
    const { connection, documents, session } = this.parts;
    connection.onRequest(WorkspaceDiagnosticRequest.type, async (params: WorkspaceDiagnosticParams, token: CancellationToken) => {
      const wrongPhase = session.outOfPhase("workspace/diagnostic");
      if (wrongPhase) return wrongPhase;
      try {
        return await this.workspacePull(params, token);
      } catch (error) {
        if (token.isCancellationRequested) return cancelled();
        throw error;
      }
    });
    documents.onDidOpen(session.notification("didOpen (workspace)", (event) => this.opened(event.document.uri)));
    documents.onDidClose(session.notification("didClose (workspace)", (event) => this.closed(event.document.uri)));
  }

  /** After `initialized` and the first settings: follow folder changes, and scan. */
  start(): void {
    const { connection, session } = this.parts;
    this.started = true;
    if (this.parts.client().workspaceFolderChanges) {
      try {
        connection.workspace.onDidChangeWorkspaceFolders(session.notification("didChangeWorkspaceFolders", (event) => {
          const removed = new Set(event.removed.map((f) => f.uri));
          this.folders = [...this.folders.filter((f) => !removed.has(f)), ...event.added.map((f) => f.uri)];
          this.scan();
        }));
      } catch (error) {
        session.logError("following workspace folders", error);
      }
    }
    this.scan();
  }

  /** Settings changed: a new scan (or, with the scope off, every workspace problem cleared). */
  settingsChanged(): void {
    if (this.started) this.scan();
  }

  shutdown(): void {
    this.started = false;
    this.generation++;
    this.bulk?.progress.done();
    this.bulk = undefined;
    this.urgent.clear();
    this.wake();
  }

  /** The folders scanned (watchedFiles.ts decides from them which events matter). */
  get workspaceFolders(): readonly string[] {
    return this.folders;
  }

  // ---- following the disk (watchedFiles.ts) ----------------------------------------------------------

  /** A file was created or changed on disk: check it again, before the rest of a running scan. */
  fileChanged(uri: string): void {
    if (!this.on || this.parts.documents.get(uri)) return; // an open document's text wins; it is re-read on close
    if (!this.takes(uri)) {
      // Not a file we check (any more): what it showed goes.
      if (this.reports.has(uri)) this.forgetFile(uri);
      return;
    }
    this.bump(uri);
    this.urgent.add(uri);
    void this.pump();
  }

  /** A file or folder was deleted: its problems (all below it, for a folder) go. */
  fileDeleted(uri: string): void {
    if (!this.on) return;
    for (const known of [...this.reports.keys(), ...this.urgent]) {
      if (isAtOrBelow(uri, known) && !this.parts.documents.get(known)) this.forgetFile(known);
    }
  }

  // ---- scanning ----------------------------------------------------------------------------------------

  /** Starts a scan of every folder, superseding any running one. */
  private scan(): void {
    const generation = ++this.generation;
    this.bulk?.progress.done();
    this.bulk = undefined;
    if (!this.on) {
      this.urgent.clear();
      for (const uri of [...this.reports.keys()]) this.remove(uri);
      this.wake();
      return;
    }
    this.runScan(generation).catch((error) => this.parts.session.logError("scanning the workspace", error));
  }

  private async runScan(generation: number): Promise<void> {
    const { connection, settings } = this.parts;
    const progress = await connection.window.createWorkDoneProgress();
    const superseded = () => generation !== this.generation || progress.token.isCancellationRequested;
    if (superseded()) {
      progress.done();
      return;
    }
    progress.begin("Checking LWIR files", 0, "finding files…", true);
    const limit = settings.current.validation.maxFiles;
    const filter = this.filter();
    const found: string[] = [];
    for (const folder of this.folders) {
      const source = this.sourceFor(folder);
      if (!source || found.length > limit) continue;
      // The `include` of a configuration file at the folder's root lists more files (docs/configuration.md).
      const config = await this.parts.configs?.forUri(`${folder.replace(/\/$/, "")}/.lwir.yaml`);
      const folderFilter = config && config.folderUri === folder.replace(/\/$/, "") && config.config.include.length > 0
        ? this.filterWith(config.config.include)
        : filter;
      found.push(...await source.list(folder, folderFilter, limit + 1 - found.length, superseded));
    }
    if (superseded()) {
      progress.done();
      if (generation === this.generation) this.cancelScan(); // cancelled from the progress while listing
      return;
    }
    if (found.length > limit) {
      found.length = limit;
      this.tooManyFiles(limit);
    }
    // Reported before, not found now: deleted while no one watched, excluded now, or in a removed folder.
    const now = new Set(found);
    for (const uri of [...this.reports.keys()]) if (!now.has(uri) && !this.urgent.has(uri)) this.remove(uri);
    const bulk: Bulk = { generation, uris: found, next: 0, done: 0, progress, lastProgress: 0, started: Date.now() };
    this.bulk = bulk;
    progress.token.onCancellationRequested(() => {
      if (this.bulk === bulk) this.cancelScan();
    });
    this.reportProgress(bulk, true);
    void this.pump();
  }

  /** The user cancelled the progress: the files not checked yet stay unchecked until they change or the next scan. */
  private cancelScan(): void {
    const bulk = this.bulk;
    this.bulk = undefined;
    bulk?.progress.done();
    this.parts.session.log(`lwir: workspace check cancelled${bulk ? ` after ${bulk.done} of ${bulk.uris.length} files` : ""}`);
    this.scanEnded();
  }

  /** One file at a time, urgent ones first, a macrotask (and any outstanding request) between files. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        await this.yieldToUser();
        const next = this.takeNext();
        if (next === undefined) break;
        try {
          await this.check(next.uri);
        } catch (error) {
          this.parts.session.logError(`checking ${next.uri}`, error);
        }
        if (next.bulk && next.bulk === this.bulk) {
          next.bulk.done++;
          this.reportProgress(next.bulk, false);
          if (next.bulk.done === next.bulk.uris.length) this.finishScan(next.bulk);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private takeNext(): { uri: string; bulk?: Bulk } | undefined {
    for (const uri of this.urgent) {
      this.urgent.delete(uri);
      return { uri };
    }
    const bulk = this.bulk;
    if (bulk && bulk.next < bulk.uris.length) return { uri: bulk.uris[bulk.next++], bulk };
    if (bulk && bulk.uris.length === 0) this.finishScan(bulk);
    return undefined;
  }

  private finishScan(bulk: Bulk): void {
    if (this.bulk !== bulk) return;
    this.bulk = undefined;
    bulk.progress.done();
    this.parts.session.log(`lwir: checked ${bulk.uris.length} workspace files in ${Date.now() - bulk.started} ms`);
    this.scanEnded();
  }

  private scanEnded(): void {
    this.wake();
  }

  private async yieldToUser(): Promise<void> {
    await yieldMacrotask();
    const until = Date.now() + MAX_YIELD_MS;
    while (this.parts.requestsOutstanding() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 1));
  }

  private reportProgress(bulk: Bulk, force: boolean): void {
    const now = Date.now();
    if (!force && now - bulk.lastProgress < PROGRESS_EVERY_MS && bulk.done !== bulk.uris.length) return;
    bulk.lastProgress = now;
    const total = bulk.uris.length;
    bulk.progress.report(total === 0 ? 100 : Math.floor((bulk.done / total) * 100), `${formatCount(bulk.done)}/${formatCount(total)}`);
  }

  private tooManyFiles(limit: number): void {
    const message = `LWIR: this workspace has more than ${formatCount(limit)} LWIR files; only the first ${formatCount(limit)} are checked while closed. ` +
      "Raise lwir.validation.maxFiles to check more, or set lwir.validation.scope to \"openFiles\".";
    this.parts.session.log(message);
    if (this.cappedAt === limit) return;
    this.cappedAt = limit;
    // A notification: window.showWarningMessage would send a request and wait for a button no one presses.
    this.parts.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
  }

  // ---- one file ----------------------------------------------------------------------------------------

  private async check(uri: string): Promise<void> {
    if (!this.on || this.parts.documents.get(uri)) return;
    const source = this.sourceForFile(uri);
    if (!source) return;
    const stamp = this.stamps.get(uri) ?? 0;
    const generation = this.generation;
    const content = await source.read(uri, this.parts.settings.current.maxFileSize);
    // Superseded while reading: a newer event for the file, a newer scan, the file opened, the scope switched off.
    if ((this.stamps.get(uri) ?? 0) !== stamp || generation !== this.generation || !this.on || this.parts.documents.get(uri)) return;
    if (content.kind === "missing") {
      this.remove(uri);
      return;
    }
    const config = await this.parts.configs?.forUri(uri);
    if ((this.stamps.get(uri) ?? 0) !== stamp || generation !== this.generation || !this.on || this.parts.documents.get(uri)) return;
    if (this.parts.configs?.ignores(uri, config)) {
      this.remove(uri);
      return;
    }
    const diagnostics = this.diagnose(uri, content);
    if (diagnostics === undefined) this.remove(uri);
    else this.store(uri, diagnostics);
  }

  /** The file's diagnostics; undefined when it is not an LWIR document after all (an included file without apiVersion). */
  private diagnose(uri: string, content: FileContent): Diagnostic[] | undefined {
    const settings = this.parts.settings.current;
    const client = this.parts.client();
    let diagnostics: Diagnostic[];
    if (content.kind === "tooLarge") {
      // Unread, so only a name can say it is LWIR.
      if (!/\.lwir\.(json|ya?ml)$/i.test(fileNameOf(uri))) return undefined;
      diagnostics = [tooLargeDiagnostic(content.size, settings.maxFileSize)];
    } else if (content.kind === "unreadable") {
      diagnostics = [unreadableDiagnostic(content.reason)];
    } else if (content.kind === "text") {
      const text = content.text;
      const state = classifyDocument({ uri, languageId: "", version: 0, getText: () => text }, settings.maxFileSize);
      if (state.kind === "ignored") return undefined;
      if (state.kind === "tooLarge") diagnostics = [tooLargeDiagnostic(state.size, state.limit)];
      else {
        try {
          // As the CLI reads a file (cli/check.ts): one leading BOM dropped in YAML, replaced bytes warned about.
          const read = documentText({ text, invalidUtf8: content.invalidUtf8 ?? [] }, state.format);
          diagnostics = toDiagnostics(analyzeText(read.text, state.format, read.invalidUtf8), { uri, relatedInformation: client.relatedInformation });
        } catch (error) {
          this.parts.session.logError(`analysing ${uri}`, error);
          diagnostics = [internalErrorDiagnostic(error)];
        }
      }
    } else {
      return undefined;
    }
    diagnostics = applyRuleLevels(diagnostics, this.parts.configs ? this.parts.configs.rulesFor(uri) : settings.lint.rules);
    return client.codeDescription ? withRuleLinks(diagnostics) : diagnostics;
  }

  private store(uri: string, diagnostics: Diagnostic[]): void {
    const key = JSON.stringify(diagnostics);
    const old = this.reports.get(uri);
    if (old && !old.deleted && old.key === key) return;
    const report: DiskReport = { resultId: this.newResultId(), diagnostics, key, deleted: false, pushed: old?.pushed ?? 0 };
    this.reports.set(uri, report);
    if (!this.pullMode && (diagnostics.length > 0 || report.pushed > 0)) {
      this.parts.connection.sendDiagnostics({ uri, diagnostics });
      report.pushed = diagnostics.length;
    }
    this.wake();
  }

  /** The file is no longer reported (gone, excluded, scope off): its problems are cleared. */
  private remove(uri: string): void {
    const old = this.reports.get(uri);
    if (!old || old.deleted) return;
    if (this.pullMode) {
      this.reports.set(uri, { resultId: this.newResultId(), diagnostics: [], key: "[]", deleted: true, pushed: 0 });
      this.wake();
      return;
    }
    this.reports.delete(uri);
    if (old.pushed > 0 && !this.parts.documents.get(uri)) this.parts.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private forgetFile(uri: string): void {
    this.bump(uri);
    this.urgent.delete(uri);
    this.remove(uri);
  }

  private bump(uri: string): void {
    this.stamps.set(uri, (this.stamps.get(uri) ?? 0) + 1);
  }

  private newResultId(): string {
    return `w${this.nextResultId++}`;
  }

  // ---- open documents ------------------------------------------------------------------------------------

  /** Opened: the editor's text wins, and its diagnostics come from diagnosticsPushPull.ts. */
  private opened(uri: string): void {
    this.bump(uri); // a read in flight is about the disk text, which the editor now overrides
    this.urgent.delete(uri);
    const report = this.reports.get(uri);
    if (!report || report.deleted) return;
    // A client that pulls the document's diagnostics (not the workspace's) would show pushed ones twice.
    if (!this.pullMode && report.pushed > 0 && this.parts.client().pullDiagnostics) {
      this.parts.connection.sendDiagnostics({ uri, diagnostics: [] });
    }
    report.pushed = 0;
    report.key = "#open"; // sent again once closed, even if unchanged: closing cleared what the client showed
  }

  /** Closed: back to its disk text (saved or not), or cleared when the workspace is not in scope. */
  private closed(uri: string): void {
    this.bump(uri);
    this.urgent.delete(uri);
    if (!this.pullMode) {
      this.afterClose(uri);
      return;
    }
    // VS Code, pulling workspace diagnostics, pulls a closed document once more, drops that answer (the
    // document is no longer visible), forgets the document's own report and from then on shows what the
    // workspace reports say, but a workspace report that arrives while that last pull is in flight is
    // ignored. So the file's next workspace report waits until the last pull is surely done.
    const stamp = this.stamps.get(uri);
    setTimeout(() => {
      if (this.stamps.get(uri) === stamp && !this.parts.documents.get(uri)) this.afterClose(uri);
    }, CLOSE_SETTLE_MS);
  }

  private afterClose(uri: string): void {
    if (this.on && this.takes(uri)) {
      this.urgent.add(uri);
      void this.pump();
    } else if (this.pullMode) {
      // Out of scope: an empty report, sent even though the client has no result id for the file.
      this.reports.set(uri, { resultId: this.newResultId(), diagnostics: [], key: "[]", deleted: true, pushed: 0, announce: true });
      this.wake();
    } else {
      this.remove(uri);
    }
  }

  // ---- pulled reports ------------------------------------------------------------------------------------

  /** `textDocument/diagnostic` for a document that is not open (VS Code pulls once more after a close). */
  diskReport(uri: string): { resultId: string; items: Diagnostic[] } | undefined {
    const report = this.reports.get(uri);
    return report && !report.deleted ? { resultId: report.resultId, items: report.diagnostics } : undefined;
  }

  /**
   * `workspace/diagnostic`: full reports for the files whose result id the client does not have, unchanged
   * ones for the rest. Streamed as partial results while a scan runs when the client gives a token; with
   * nothing new to say, held until something changes (the client asks again as soon as it is answered).
   */
  private async workspacePull(params: WorkspaceDiagnosticParams, token: CancellationToken): Promise<WorkspaceDiagnosticReport> {
    const previous = new Map<string, string>();
    for (const item of Array.isArray(params?.previousResultIds) ? params.previousResultIds : []) {
      if (typeof item?.uri === "string" && typeof item.value === "string") previous.set(item.uri, item.value);
    }
    const partialToken = params?.partialResultToken;
    const deadline = Date.now() + MAX_HOLD_MS;
    let streamed = false;
    for (;;) {
      if (token.isCancellationRequested) throw cancelled();
      const scanning = this.bulk !== undefined || this.urgent.size > 0;
      const items = this.fullReportsFor(previous);
      if (partialToken !== undefined) {
        if (items.length > 0) {
          this.parts.connection.sendProgress(WorkspaceDiagnosticRequest.partialResult, partialToken, { items });
          for (const item of items) previous.set(item.uri, item.resultId!);
          streamed = true;
        }
        if (streamed && !scanning) return { items: [] };
      } else if (items.length > 0 && !scanning) {
        return { items: [...items, ...this.unchangedReportsFor(previous)] };
      }
      if (!scanning && Date.now() >= deadline) return { items: this.unchangedReportsFor(previous) };
      await this.changeOrCancel(token, deadline - Date.now());
    }
  }

  private fullReportsFor(known: ReadonlyMap<string, string>): WorkspaceDocumentDiagnosticReport[] {
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    for (const [uri, report] of this.reports) {
      const had = known.get(uri);
      if (had === report.resultId || this.parts.documents.get(uri)) continue;
      if (report.deleted && had === undefined && !report.announce) continue; // never seen by this client: nothing to clear
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId: report.resultId, items: report.diagnostics });
    }
    return items;
  }

  private unchangedReportsFor(known: ReadonlyMap<string, string>): WorkspaceDocumentDiagnosticReport[] {
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    for (const [uri, resultId] of known) {
      const report = this.reports.get(uri);
      if (report?.resultId === resultId && !this.parts.documents.get(uri)) items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, version: null, resultId });
    }
    return items;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
  }

  private changeOrCancel(token: CancellationToken, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        subscription.dispose();
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      const subscription = token.onCancellationRequested(done);
      this.waiters.add(done);
    });
  }

  // ---- which files ---------------------------------------------------------------------------------------

  private filter(): FileFilter {
    const { files } = this.parts.settings.current;
    const editorExclude = this.parts.settings.editorExclude;
    // Compiled once per settings (a git checkout sends thousands of events).
    const cached = this.cachedFilter;
    if (cached && cached.files === files && cached.editorExclude === editorExclude) return cached.filter;
    const filter = new FileFilter({ include: files.include, exclude: files.exclude, editorExclude });
    this.cachedFilter = { files, editorExclude, filter };
    return filter;
  }

  /** The filter with more include globs (a configuration file's). */
  private filterWith(include: readonly string[]): FileFilter {
    const { files } = this.parts.settings.current;
    return new FileFilter({ include: [...files.include, ...include], exclude: files.exclude, editorExclude: this.parts.settings.editorExclude });
  }

  /** Is this file one the scan checks: inside a folder, by name or include glob, not excluded? */
  takes(uri: string): boolean {
    const folder = this.folderOf(uri);
    if (folder === undefined) return false;
    const relative = relativePathIn(folder, uri);
    return relative !== undefined && this.filter().takesPath(relative);
  }

  private folderOf(uri: string): string | undefined {
    let best: string | undefined;
    for (const folder of this.folders) if (isAtOrBelow(folder, uri) && uri !== folder && (!best || folder.length > best.length)) best = folder;
    return best;
  }

  private sourceFor(folderUri: string): WorkspaceFileSource | undefined {
    return this.parts.fileSources.find((source) => source.handles(folderUri));
  }

  private sourceForFile(uri: string): WorkspaceFileSource | undefined {
    const folder = this.folderOf(uri);
    return folder === undefined ? undefined : this.sourceFor(folder);
  }
}
