// A small LSP client for protocol tests: starts the BUILT server (`npm run build` → dist/server.js)
// over stdio and speaks JSON-RPC to it, the way an editor does.
//
//   const client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } });
//   try {
//     client.open("file:///w/a.lwir.json", text);                 // languageId guessed from the name
//     const published = await client.waitForDiagnostics("file:///w/a.lwir.json", { version: 1 });
//     const { text: fixture, position } = cursor('{"steps": [{"needs": ["|"]}]}');   // `|` marks the cursor
//     client.open(uri2, fixture);
//     const items = await client.request("textDocument/completion", { textDocument: { uri: uri2 }, position });
//   } finally {
//     await client.stop();
//   }
//
// Every wait has a timeout (5 s by default) and fails with the recent traffic in its message, so a
// test never hangs and a failure says what the server did instead.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { resolve } from "node:path";
import { TextDocument } from "vscode-languageserver-textdocument";
import type {
  ClientCapabilities,
  Diagnostic,
  InitializeResult,
  Position,
  PublishDiagnosticsParams,
  TextDocumentContentChangeEvent,
} from "vscode-languageserver-protocol";

export type { Diagnostic, Position };

/** A JSON-RPC message as it arrived (request, response or notification). */
export interface Message {
  jsonrpc: "2.0";
  id?: number | string | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

/** A rejected request: the server answered with an error. */
export class ResponseErrorReply extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(`${message} (code ${code})`);
  }
}

/** JSON-RPC and LSP error codes the tests check. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerNotInitialized: -32002,
  RequestCancelled: -32800,
  ServerCancelled: -32802,
  ContentModified: -32801,
} as const;

export interface StartOptions {
  /** Advertise pull diagnostics (`textDocument.diagnostic`) like VS Code; false: a push-only client like Neovim. */
  pull?: boolean;
  /** Advertise `workspace/configuration` (answered from `configuration`). Default false. */
  configurationRequests?: boolean;
  /** Answers to `workspace/configuration`, by section (`"lwir"`); also mutable later via `client.configuration`. */
  configuration?: Record<string, unknown>;
  /** Sent as `initializationOptions` (the server reads `initializationOptions.settings`). */
  initializationOptions?: unknown;
  /** Extra client capabilities, merged over the defaults (deeply). */
  capabilities?: ClientCapabilities;
  /** The server to start; default `$LWIR_TEST_SERVER`, else `dist/server.js` under the current directory (the project root). */
  serverPath?: string;
  /** Default timeout of every wait, in ms. */
  timeout?: number;
  /** Node options placed before the server script (e.g. `--expose-gc`, `--require stub.js`). */
  nodeArgs?: string[];
  /** Extra environment variables for the server process (merged over this process's environment). */
  env?: Record<string, string>;
  /** Sent as `workspaceFolders` in `initialize` (the workspace scan reads them); default none. */
  workspaceFolders?: Array<{ uri: string; name: string }>;
}

/** One `textDocument/publishDiagnostics`, in arrival order. */
export interface Published {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
  /** Position in the sequence of all received messages (lets tests compare arrival order). */
  seq: number;
}

interface Waiter {
  predicate: (message: Message) => boolean;
  resolve: (message: Message) => void;
}

export class LspClient {
  /** Everything received, in order. */
  readonly received: Message[] = [];
  /** Every publishDiagnostics, in order. */
  readonly published: Published[] = [];
  /** Server → client requests seen (`workspace/configuration`, `workspace/diagnostic/refresh`, …). */
  readonly serverRequests: Message[] = [];
  /** Answers to `workspace/configuration` by section; tests may change it before a didChangeConfiguration. */
  configuration: Record<string, unknown>;
  initializeResult!: InitializeResult;

  private readonly process: ChildProcessWithoutNullStreams;
  private readonly timeout: number;
  private readonly pendingReplies = new Map<number | string, { resolve: (m: Message) => void }>();
  private readonly waiters = new Set<Waiter>();
  private readonly documents = new Map<string, TextDocument>();
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private stderrText = "";
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitPromise: Promise<void>;

  private constructor(private readonly options: StartOptions) {
    this.timeout = options.timeout ?? 5000;
    this.configuration = options.configuration ?? {};
    const serverPath = resolve(options.serverPath ?? process.env.LWIR_TEST_SERVER ?? "dist/server.js");
    this.process = spawn(process.execPath, [...(options.nodeArgs ?? []), serverPath, "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: options.env ? { ...process.env, ...options.env } : process.env,
    });
    this.process.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
    this.process.stderr.on("data", (chunk: Buffer) => { this.stderrText += chunk.toString("utf8"); });
    this.process.stdin.on("error", () => { /* the server exited; reported through `alive` */ });
    this.exitPromise = new Promise((done) => {
      this.process.on("exit", (code, signal) => { this.exited = { code, signal }; done(); });
    });
  }

  /** Starts the server, sends `initialize` and `initialized`. */
  static async start(options: StartOptions = {}): Promise<LspClient> {
    const client = new LspClient(options);
    client.initializeResult = await client.request<InitializeResult>("initialize", {
      processId: process.pid,
      rootUri: null,
      ...(options.workspaceFolders ? { workspaceFolders: options.workspaceFolders } : {}),
      capabilities: mergeDeep(defaultCapabilities(options), options.capabilities ?? {}),
      initializationOptions: options.initializationOptions,
    });
    client.notify("initialized", {});
    return client;
  }

  // ---- raw protocol ----------------------------------------------------------------------------

  /** Sends a request and resolves with its result; rejects with ResponseErrorReply on an error answer. */
  async request<R = any>(method: string, params: unknown, timeout = this.timeout): Promise<R> {
    return this.startRequest<R>(method, params, timeout).result;
  }

  /** Sends a request and returns its id at once (to cancel it), plus the eventual result. */
  startRequest<R = any>(method: string, params: unknown, timeout = this.timeout): { id: number; result: Promise<R> } {
    const id = this.nextId++;
    const reply = new Promise<Message>((resolveReply, reject) => {
      const timer = setTimeout(() => {
        this.pendingReplies.delete(id);
        reject(new Error(`No answer to ${method} (id ${id}) within ${timeout} ms.${this.context()}`));
      }, timeout);
      this.pendingReplies.set(id, { resolve: (m) => { clearTimeout(timer); resolveReply(m); } });
    });
    this.write({ jsonrpc: "2.0", id, method, params });
    const result = reply.then((m) => {
      if (m.error) throw new ResponseErrorReply(m.error.code, m.error.message, m.error.data);
      return m.result as R;
    });
    return { id, result };
  }

  /** The raw answer to a request (result or error), without throwing on errors. */
  async reply(method: string, params: unknown, timeout = this.timeout): Promise<Message> {
    const { result } = this.startRequest(method, params, timeout);
    return result.then((r) => ({ jsonrpc: "2.0", result: r }), (e: unknown) => {
      if (e instanceof ResponseErrorReply) return { jsonrpc: "2.0", error: { code: e.code, message: e.message, data: e.data } };
      throw e;
    });
  }

  notify(method: string, params: unknown): void {
    this.write({ jsonrpc: "2.0", method, params });
  }

  /** `$/cancelRequest` for a request started with `startRequest`. */
  cancel(id: number): void {
    this.notify("$/cancelRequest", { id });
  }

  /** Several messages in one write, so the server reads them in one chunk (e.g. a request and its cancel). */
  writeTogether(messages: object[]): void {
    this.writeRaw(Buffer.concat(messages.map((m) => frame(JSON.stringify(m)))));
  }

  /** Bytes exactly as given (for malformed-input tests); use `frame()` to add a Content-Length header. */
  writeRaw(bytes: Buffer | string): void {
    this.process.stdin.write(bytes);
  }

  /** Resolves with the first message (already received or future) that matches. */
  waitFor(predicate: (message: Message) => boolean, what = "a matching message", timeout = this.timeout): Promise<Message> {
    const found = this.received.find(predicate);
    if (found) return Promise.resolve(found);
    return this.waitForNext(predicate, what, timeout);
  }

  /** Resolves with the next message to arrive that matches (ignores what was received before). */
  waitForNext(predicate: (message: Message) => boolean, what = "a matching message", timeout = this.timeout): Promise<Message> {
    return new Promise((resolveWait, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (m) => { clearTimeout(timer); this.waiters.delete(waiter); resolveWait(m); },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`Timed out after ${timeout} ms waiting for ${what}.${this.context()}`));
      }, timeout);
      this.waiters.add(waiter);
    });
  }

  /** Waits for a notification by method (and optional predicate on its params). */
  waitForNotification(method: string, predicate: (params: any) => boolean = () => true, timeout = this.timeout): Promise<any> {
    return this.waitFor((m) => m.method === method && m.id === undefined && predicate(m.params), `notification ${method}`, timeout)
      .then((m) => m.params);
  }

  // ---- documents ---------------------------------------------------------------------------------

  /** didOpen; the language id defaults to what VS Code would pick from the name. */
  open(uri: string, text: string, languageId = languageIdOf(uri), version = 1): void {
    this.documents.set(uri, TextDocument.create(uri, languageId, version, text));
    this.notify("textDocument/didOpen", { textDocument: { uri, languageId, version, text } });
  }

  /** didChange with explicit content changes (ranges for incremental edits, or `{text}` for a full replace). */
  change(uri: string, version: number, contentChanges: TextDocumentContentChangeEvent[]): void {
    this.recordChange(uri, version, contentChanges);
    this.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges });
  }

  /** Applies changes to the client's copy only: for a didChange sent by other means (`writeTogether`). */
  recordChange(uri: string, version: number, contentChanges: TextDocumentContentChangeEvent[]): void {
    const doc = this.documents.get(uri);
    if (doc) this.documents.set(uri, TextDocument.update(doc, contentChanges, version));
  }

  /** didChange replacing `oldText` (its first occurrence) by `newText`, as one incremental edit. */
  edit(uri: string, oldText: string, newText: string, version = this.version(uri) + 1): number {
    const doc = this.document(uri);
    const start = doc.getText().indexOf(oldText);
    if (start === -1) throw new Error(`edit: ${JSON.stringify(oldText)} is not in ${uri}`);
    const range = { start: doc.positionAt(start), end: doc.positionAt(start + oldText.length) };
    this.change(uri, version, [{ range, text: newText }]);
    return version;
  }

  close(uri: string): void {
    this.documents.delete(uri);
    this.notify("textDocument/didClose", { textDocument: { uri } });
  }

  /** The client's copy of an open document (with every change applied). */
  document(uri: string): TextDocument {
    const doc = this.documents.get(uri);
    if (!doc) throw new Error(`${uri} is not open`);
    return doc;
  }
  text(uri: string): string {
    return this.document(uri).getText();
  }
  version(uri: string): number {
    return this.document(uri).version;
  }

  // ---- diagnostics --------------------------------------------------------------------------------

  /** Every publishDiagnostics for a document, in arrival order. */
  publishedFor(uri: string): Published[] {
    return this.published.filter((p) => p.uri === uri);
  }

  /**
   * Waits for a publishDiagnostics for `uri` (already received or future) matching the options:
   * a given version, and/or a predicate on the diagnostics. `after` ignores earlier publications.
   */
  waitForDiagnostics(
    uri: string,
    options: { version?: number; predicate?: (diagnostics: Diagnostic[]) => boolean; after?: number; timeout?: number } = {},
  ): Promise<Published> {
    const matches = (p: Published) => p.uri === uri
      && (options.version === undefined || p.version === options.version)
      && (options.after === undefined || p.seq > options.after)
      && (options.predicate === undefined || options.predicate(p.diagnostics));
    const found = this.published.find(matches);
    if (found) return Promise.resolve(found);
    const what = `diagnostics for ${uri}${options.version === undefined ? "" : ` version ${options.version}`}`;
    return this.waitForNext((m) => m.method === "textDocument/publishDiagnostics" && matches(this.published[this.published.length - 1]), what, options.timeout)
      .then(() => this.published.filter(matches)[0]);
  }

  /** Pull diagnostics (`textDocument/diagnostic`) for one document. */
  pullDiagnostics(uri: string, previousResultId?: string, timeout?: number): Promise<{ kind: "full" | "unchanged"; resultId?: string; items?: Diagnostic[] }> {
    return this.request("textDocument/diagnostic", { textDocument: { uri }, ...(previousResultId ? { previousResultId } : {}) }, timeout);
  }

  /** The sequence number of the last message received so far (for `after:` in waits). */
  get seq(): number {
    return this.received.length;
  }

  // ---- process ---------------------------------------------------------------------------------

  /** The server's process id. */
  get pid(): number | undefined {
    return this.process.pid;
  }
  /** How the server process ended (undefined while it runs). */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exited;
  }

  /** How the server process ended, once it has (undefined if it still runs after `timeout` ms). */
  async waitForExit(timeout = this.timeout): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exitPromise, new Promise((resolve) => { timer = setTimeout(resolve, timeout); })]);
    clearTimeout(timer);
    return this.exited;
  }

  /** True while the server process runs. */
  get alive(): boolean {
    return this.exited === undefined;
  }
  get stderr(): string {
    return this.stderrText;
  }
  /** The server's `window/logMessage` texts (errors it logged, among others). */
  get logs(): string[] {
    return this.received.filter((m) => m.method === "window/logMessage").map((m) => String(m.params?.message));
  }

  /** shutdown + exit, then waits for the process; kills it if it does not go. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    try {
      await this.request("shutdown", null, 2000);
      this.notify("exit", null);
    } catch {
      // fall through to the kill below
    }
    const gone = await Promise.race([this.exitPromise.then(() => true), delay(2000).then(() => false)]);
    if (!gone) {
      this.process.kill();
      await this.exitPromise;
    }
  }

  // ---- internals ---------------------------------------------------------------------------------

  private write(message: object): void {
    this.writeRaw(frame(JSON.stringify(message)));
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd === -1) return;
      const header = this.buffer.subarray(0, headerEnd).toString("ascii");
      const length = /Content-Length:\s*(\d+)/i.exec(header);
      if (!length) throw new Error(`Bad header from the server: ${header}`);
      const bodyStart = headerEnd + 4;
      const bodyEnd = bodyStart + Number(length[1]);
      if (this.buffer.length < bodyEnd) return;
      const body = this.buffer.subarray(bodyStart, bodyEnd).toString("utf8");
      this.buffer = this.buffer.subarray(bodyEnd);
      this.onMessage(JSON.parse(body) as Message);
    }
  }

  private onMessage(message: Message): void {
    this.received.push(message);
    if (message.method === "textDocument/publishDiagnostics") {
      const params = message.params as PublishDiagnosticsParams;
      this.published.push({ uri: params.uri, version: params.version, diagnostics: params.diagnostics, seq: this.received.length });
    }
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      this.answerServerRequest(message);
    } else if (message.method === undefined && message.id !== undefined && message.id !== null) {
      const pending = this.pendingReplies.get(message.id);
      if (pending) {
        this.pendingReplies.delete(message.id);
        pending.resolve(message);
      }
    }
    for (const waiter of [...this.waiters]) if (waiter.predicate(message)) waiter.resolve(message);
  }

  /** What a minimal editor answers to the server's own requests. */
  private answerServerRequest(message: Message): void {
    this.serverRequests.push(message);
    const answer = (result: unknown) => this.write({ jsonrpc: "2.0", id: message.id, result });
    switch (message.method) {
      case "workspace/configuration":
        return answer((message.params?.items ?? []).map((item: { section?: string }) =>
          item.section === undefined ? this.configuration : this.configuration[item.section] ?? null));
      case "client/registerCapability":
      case "client/unregisterCapability":
      case "window/workDoneProgress/create":
      case "workspace/diagnostic/refresh":
        return answer(null);
      default:
        this.write({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.MethodNotFound, message: `test client: no ${message.method}` } });
    }
  }

  private context(): string {
    const recent = this.received.slice(-8).map((m) => JSON.stringify(m).slice(0, 300));
    return `\n  server ${this.alive ? "running" : `exited (${JSON.stringify(this.exited)})`}` +
      `\n  last messages:\n    ${recent.join("\n    ") || "(none)"}` +
      (this.stderrText ? `\n  stderr:\n${this.stderrText.slice(-2000)}` : "");
  }
}

/** The client capabilities of a small editor: push-only (Neovim/Eglot-like) or pull (VS Code-like). */
export function defaultCapabilities(options: Pick<StartOptions, "pull" | "configurationRequests">): ClientCapabilities {
  return {
    workspace: {
      configuration: options.configurationRequests === true,
      didChangeConfiguration: { dynamicRegistration: options.configurationRequests === true },
      ...(options.pull ? { diagnostics: { refreshSupport: true } } : {}),
    },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: false },
      publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
      completion: { completionItem: { snippetSupport: true, documentationFormat: ["markdown", "plaintext"] } },
      codeAction: {
        codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "source", "source.fixAll"] } },
        dataSupport: true,
        isPreferredSupport: true,
      },
      ...(options.pull ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } : {}),
    },
  };
}

/** `Content-Length` framing of one message body. */
export function frame(body: string): Buffer {
  const bytes = Buffer.from(body, "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, "ascii"), bytes]);
}

/** The language id VS Code gives a file name: json, yaml, or plaintext. */
export function languageIdOf(uri: string): string {
  if (/\.jsonc?$/i.test(uri)) return "json";
  if (/\.ya?ml$/i.test(uri)) return "yaml";
  return "plaintext";
}

/**
 * Removes the cursor marker from a fixture and returns the text and the marker's position:
 * `cursor('{"needs": ["|"]}')` → `{ text: '{"needs": [""]}', position: {line: 0, character: 12}, offset: 12 }`.
 * Exactly one marker must be present; pass another marker when the text itself contains `|`.
 */
export function cursor(textWithMarker: string, marker = "|"): { text: string; position: Position; offset: number } {
  const offset = textWithMarker.indexOf(marker);
  if (offset === -1 || textWithMarker.indexOf(marker, offset + marker.length) !== -1) {
    throw new Error(`cursor(): the text must contain the marker ${JSON.stringify(marker)} exactly once`);
  }
  const text = textWithMarker.slice(0, offset) + textWithMarker.slice(offset + marker.length);
  return { text, position: positionAt(text, offset), offset };
}

/** LSP position (UTF-16 code units) of an offset. */
export function positionAt(text: string, offset: number): Position {
  return TextDocument.create("untitled:x", "plaintext", 0, text).positionAt(offset);
}

/** Offset of an LSP position. */
export function offsetAt(text: string, position: Position): number {
  return TextDocument.create("untitled:x", "plaintext", 0, text).offsetAt(position);
}

/** A file URI under a fixed fake folder. */
export function fileUri(name: string): string {
  return `file:///lwir-test/${name}`;
}

export function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function mergeDeep<T>(base: T, extra: unknown): T {
  if (!isPlain(base) || !isPlain(extra)) return (extra === undefined ? base : extra) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) out[k] = k in out ? mergeDeep(out[k], v) : v;
  return out as T;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
