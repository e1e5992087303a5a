// Shared by the robustness tests (test/robust/, run by `npm run test:robust`, not by `npm test`): a seeded
// random source, the conformance sample, the built server with its test-only memory probe, what the server
// should publish for a text, and the figures each test reports (printed, and collected by scripts/test.mjs
// for the summary that README's "Reliability" section quotes).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import type { Diagnostic, ServerCapabilities } from "vscode-languageserver-protocol";
import { analyzeText } from "../../server/src/service/analysis";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { setRuleDocsBase, withRuleLinks } from "../../server/src/service/ruleDocs";
import { expectedRuleDocsBase } from "../rule-docs";
import type { Format } from "../../server/src/document/types";
import { LspClient, ErrorCode, ResponseErrorReply, type Message, type Position, type StartOptions } from "../lsp/harness";
import { randomSource } from "../random";
import { CONFORMANCE, GENERATOR, corpusCases } from "../corpus";

export const ROOT = process.cwd();
export const EXAMPLES = join(ROOT, "examples");
export { CONFORMANCE, GENERATOR };
export const SERVER = join(ROOT, "dist", "server.js");
export const CLI = join(ROOT, "dist", "cli.js");

/** The seed of every random choice in test/robust (override with LWIR_ROBUST_SEED to explore). */
export const SEED: number = (() => {
  const raw = process.env.LWIR_ROBUST_SEED;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) ? n >>> 0 : 20_240_611;
})();

export { randomSource };

export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export interface SourceDoc {
  name: string;
  format: Format;
  text: string;
}

export function formatOfName(name: string): Format {
  return /\.json$/i.test(name) ? "json" : "yaml";
}

export function exampleDocs(): SourceDoc[] {
  return readdirSync(EXAMPLES).filter((n) => /\.lwir\.(json|ya?ml)$/.test(n)).sort()
    .map((name) => ({ name, format: formatOfName(name), text: readFileSync(join(EXAMPLES, name), "utf8") }));
}

/** The labelled conformance documents (not syntax/), sorted by name; all 354 of them or the test fails. */
export function conformanceDocs(): SourceDoc[] {
  return corpusCases(CONFORMANCE).map((c) => ({ name: c.name, format: c.format, text: readFileSync(c.file, "utf8") }));
}

/** A seeded sample of the corpus: `perFormat` JSON and `perFormat` YAML documents of at most `maxChars`. */
export function conformanceSample(seed: number, perFormat: number, maxChars: number): { docs: SourceDoc[]; population: number } {
  const all = conformanceDocs();
  const random = randomSource(seed);
  const pick = (format: Format) => shuffled(random, all.filter((d) => d.format === format && d.text.length <= maxChars)).slice(0, perFormat);
  return { docs: [...pick("json"), ...pick("yaml")], population: all.length };
}

// ---- the server ------------------------------------------------------------------------------------

/** Starts the built server with the test-only memory probe (`lwir/_debugMemory`) and `--expose-gc`. */
export function startServer(options: StartOptions = {}): Promise<LspClient> {
  return LspClient.start({
    ...options,
    nodeArgs: ["--expose-gc", ...(options.nodeArgs ?? [])],
    env: { LWIR_DEBUG_MEMORY: "1", ...(options.env ?? {}) },
  });
}

export interface ServerMemory {
  rss: number;
  heapUsed: number;
  /** Memory of JS objects outside the heap (Buffers, ArrayBuffers). */
  external: number;
  peakRss: number;
  gc: boolean;
}

/** The server's memory after a full GC (the probe forces one). */
export function serverMemory(client: LspClient, timeout?: number): Promise<ServerMemory> {
  return client.request<ServerMemory>("lwir/_debugMemory", null, timeout);
}

/** Messages the server logged as errors (`window/logMessage` type 1): a handler threw, or a message was malformed. */
export function errorLogs(client: LspClient): string[] {
  return client.received.filter((m: Message) => m.method === "window/logMessage" && m.params?.type === 1).map((m) => String(m.params?.message));
}

/**
 * What the server publishes for a text (the same analysis, run here), as JSON-equal data: with links to
 * the rule pages, since the harness's client declares codeDescriptionSupport.
 */
export function expectedDiagnostics(text: string, format: Format, uri: string): Diagnostic[] {
  // the built server links each code to the rule pages beside it (docs/rules of this checkout)
  setRuleDocsBase(expectedRuleDocsBase());
  try {
    return JSON.parse(JSON.stringify(withRuleLinks(toDiagnostics(analyzeText(text, format), { uri, relatedInformation: true })))) as Diagnostic[];
  } finally {
    setRuleDocsBase(undefined);
  }
}

/** An answer that is an error reply with the given code. */
export function isErrorCode(error: unknown, code: number): boolean {
  return error instanceof ResponseErrorReply && error.code === code;
}

/** Runs a request and classifies the outcome; an InternalError or no answer is what the tests count as failures. */
export async function outcome<R>(promise: Promise<R>): Promise<{ ok: true; result: R } | { ok: false; code?: number; error: unknown }> {
  try {
    return { ok: true, result: await promise };
  } catch (error) {
    return { ok: false, code: error instanceof ResponseErrorReply ? error.code : undefined, error };
  }
}

export { ErrorCode };

// ---- figures -----------------------------------------------------------------------------------------

/**
 * Prints one test file's figures and, under scripts/test.mjs (which sets LWIR_FIGURES_DIR), writes them
 * to a file there for the run's summary.
 */
export function reportFigures(name: string, figures: Record<string, number | string>): void {
  console.log(`figures ${name}: ${Object.entries(figures).map(([k, v]) => `${k}=${v}`).join(", ")}`);
  const dir = process.env.LWIR_FIGURES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(figures, null, 2) + "\n");
}

export const MB = 1024 * 1024;
export const mb = (bytes: number): string => (bytes / MB).toFixed(0);

// ---- processes under watch -----------------------------------------------------------------------

let preloadPath: string | undefined;

/**
 * test/robust/preload.ts as a script for `node --require` (bundled here by esbuild's command line, so the tests
 * find it whether they run from out/ or from a bundle): recording stubs for network, child processes and vm, and
 * the peak-RSS record.
 */
export function preloadScript(): string {
  if (!preloadPath) {
    const dir = mkdtempSync(join(tmpdir(), "lwir-preload-"));
    chmodSync(dir, 0o755); // readable by the unprivileged user some CLI tests run as
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    preloadPath = join(dir, "preload.js");
    const esbuild = spawnSync(join(ROOT, "node_modules", ".bin", "esbuild"), [
      join(ROOT, "test", "robust", "preload.ts"), "--bundle", "--platform=node", "--format=cjs", "--target=node20", "--log-level=warning", `--outfile=${preloadPath}`,
    ], { encoding: "utf8" });
    if (esbuild.status !== 0) throw new Error(`bundling preload.ts failed: ${esbuild.stderr}`);
  }
  return preloadPath;
}

export interface CliRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak RSS of the CLI process in bytes (from the preload), 0 when unknown. */
  peakRss: number;
  timedOut: boolean;
}

/** Runs the built CLI (with the preload, so its peak RSS is known) and waits for it, at most `timeout` ms. */
export function runCli(args: string[], options: { cwd?: string; timeout?: number; env?: Record<string, string>; uid?: number; gid?: number } = {}): CliRun {
  const dir = mkdtempSync(join(tmpdir(), "lwir-cli-run-"));
  chmodSync(dir, 0o777);
  const rssLog = join(dir, "rss");
  const started = Date.now();
  const r = spawnSync(process.execPath, ["--require", preloadScript(), CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: "utf8",
    timeout: options.timeout ?? 120_000,
    maxBuffer: 512 * MB,
    env: { ...process.env, NO_COLOR: "1", LWIR_RSS_LOG: rssLog, ...(options.env ?? {}) },
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
  });
  const ms = Date.now() - started;
  let peakRss = 0;
  try {
    peakRss = Number(readFileSync(rssLog, "utf8")) || 0;
  } catch {
    // the process died before its exit handler ran
  }
  rmSync(dir, { recursive: true, force: true });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ms, peakRss, timedOut };
}

/** The CLI's `--format json` report, by file as given on the command line. */
export interface CliFileReport {
  file: string;
  format: Format;
  parseErrors: Array<{ message: string }>;
  findings: Array<{ code: string; path: string; message: string }>;
  valid: boolean;
  notices?: Array<{ code: string; path: string; message: string }>;
}

export function cliReports(run: CliRun): Map<string, CliFileReport> {
  const parsed = JSON.parse(run.stdout) as { files: CliFileReport[] };
  return new Map(parsed.files.map((f) => [f.file, f]));
}

// ---- every feature the server advertises ---------------------------------------------------------

/** One request per document feature the server advertises in `initialize`, at a position of the document. */
export function featureRequests(capabilities: ServerCapabilities, uri: string, position: Position): Array<{ method: string; params: unknown }> {
  const textDocument = { uri };
  const at = { textDocument, position };
  const out: Array<{ method: string; params: unknown }> = [];
  const has = (key: keyof ServerCapabilities): boolean => capabilities[key] !== undefined && capabilities[key] !== false;
  if (has("completionProvider")) out.push({ method: "textDocument/completion", params: at });
  if (has("codeActionProvider")) {
    out.push({ method: "textDocument/codeAction", params: { textDocument, range: { start: position, end: position }, context: { diagnostics: [] } } });
  }
  if (has("hoverProvider")) out.push({ method: "textDocument/hover", params: at });
  if (has("signatureHelpProvider")) out.push({ method: "textDocument/signatureHelp", params: at });
  if (has("definitionProvider")) out.push({ method: "textDocument/definition", params: at });
  if (has("referencesProvider")) out.push({ method: "textDocument/references", params: { ...at, context: { includeDeclaration: true } } });
  if (has("documentHighlightProvider")) out.push({ method: "textDocument/documentHighlight", params: at });
  if (has("documentSymbolProvider")) out.push({ method: "textDocument/documentSymbol", params: { textDocument } });
  if (has("foldingRangeProvider")) out.push({ method: "textDocument/foldingRange", params: { textDocument } });
  if (has("selectionRangeProvider")) out.push({ method: "textDocument/selectionRange", params: { textDocument, positions: [position] } });
  if (has("semanticTokensProvider")) out.push({ method: "textDocument/semanticTokens/full", params: { textDocument } });
  if (has("codeLensProvider")) out.push({ method: "textDocument/codeLens", params: { textDocument } });
  if (has("documentLinkProvider")) out.push({ method: "textDocument/documentLink", params: { textDocument } });
  if (has("inlayHintProvider")) {
    out.push({ method: "textDocument/inlayHint", params: { textDocument, range: { start: { line: 0, character: 0 }, end: position } } });
  }
  if (has("renameProvider")) {
    const rename = capabilities.renameProvider;
    if (typeof rename === "object" && rename.prepareProvider) out.push({ method: "textDocument/prepareRename", params: at });
    out.push({ method: "textDocument/rename", params: { ...at, newName: "renamed" } });
  }
  if (has("diagnosticProvider")) out.push({ method: "textDocument/diagnostic", params: { textDocument } });
  return out;
}

/**
 * Sends every advertised feature request for `uri` at `position` and checks each is answered in time, never with
 * InternalError (another error, such as a refused rename, is an answer). Returns how many were sent.
 */
export async function askEverything(client: LspClient, uri: string, position: Position, timeout: number, what: string): Promise<number> {
  const requests = featureRequests(client.initializeResult.capabilities, uri, position);
  const answers = await Promise.all(requests.map((r) => outcome(client.request(r.method, r.params, timeout))));
  answers.forEach((a, i) => {
    if (a.ok) return;
    assert.ok(a.code !== undefined, `${what}: ${requests[i].method} got no answer: ${String(a.error)}`);
    assert.notEqual(a.code, ErrorCode.InternalError, `${what}: ${requests[i].method} failed: ${String(a.error)}`);
  });
  return requests.length;
}
