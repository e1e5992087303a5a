// Which open documents are LWIR, and their analyses: parsed and validated once per document version,
// shared by every feature (diagnostics, completion, code actions, …). Pure: no LSP connection, no
// Node APIs, so the Node server, the browser server and tests all use it the same way.
import type { Format } from "../document/types";
import { analyzeText, type Analysis } from "./analysis";
import { DEFAULT_SETTINGS, type LwirSettings } from "./settings";
import { isConfigFileName } from "./config";
import { isScenariosFileName } from "../run/scenarios";

/** The slice of a `TextDocument` this module reads (vscode-languageserver-textdocument fits it). */
export interface TextDocumentLike {
  readonly uri: string;
  readonly languageId: string;
  readonly version: number;
  getText(): string;
  /** The text's length, where known without building the text (LazyTextDocument after an edit). */
  readonly length?: number;
}

/** Where open documents come from (`TextDocuments` fits it). */
export interface DocumentStore {
  get(uri: string): TextDocumentLike | undefined;
}

export type DocumentState =
  /** An ordinary JSON/YAML (or other) document: no feature answers for it. */
  | { readonly kind: "ignored" }
  /** An LWIR document above `lwir.maxFileSize`: one notice, no analysis. */
  | { readonly kind: "tooLarge"; readonly format: Format; readonly size: number; readonly limit: number }
  | { readonly kind: "lwir"; readonly format: Format };

interface Entry {
  document: TextDocumentLike;
  version: number;
  maxFileSize: number;
  state: DocumentState;
  analysis?: Analysis;
}

export class LwirWorkspace {
  private readonly entries = new Map<string, Entry>();
  private readonly lastGood = new Map<string, Analysis>();

  constructor(
    private readonly store: DocumentStore,
    private readonly settings: () => LwirSettings = () => DEFAULT_SETTINGS,
  ) {}

  /** How the current version of an open document is treated; undefined when it is not open. */
  getState(uri: string): DocumentState | undefined {
    return this.entry(uri)?.state;
  }

  /**
   * The analysis of the document's current version, computed at most once per version.
   * Undefined for documents that are not open, not LWIR, or too large.
   */
  getAnalysis(uri: string): Analysis | undefined {
    const entry = this.entry(uri);
    if (!entry || entry.state.kind !== "lwir") return undefined;
    if (!entry.analysis) {
      entry.analysis = analyzeText(entry.document.getText(), entry.state.format);
      if (parsedCleanly(entry.analysis)) this.lastGood.set(uri, entry.analysis);
    }
    return entry.analysis;
  }

  /**
   * The analysis of the current version if it has already been computed; never computes one, so a
   * request that can answer from the text and an older analysis (completion) never waits for a parse.
   */
  peekAnalysis(uri: string): Analysis | undefined {
    const entry = this.entry(uri);
    return entry && entry.state.kind === "lwir" ? entry.analysis : undefined;
  }

  /**
   * The most recent analysis of this document whose text parsed without errors (possibly the
   * current one): what completion reads while the document is broken mid-typing.
   */
  getLastGood(uri: string): Analysis | undefined {
    return this.lastGood.get(uri);
  }

  /**
   * The last good analyses of the other open LWIR documents, as they are (none is computed for this):
   * what completion reads for names used elsewhere in the workspace.
   */
  otherLastGood(uri: string): Array<{ uri: string; analysis: Analysis }> {
    const out: Array<{ uri: string; analysis: Analysis }> = [];
    for (const [other, analysis] of this.lastGood) if (other !== uri && this.store.get(other)) out.push({ uri: other, analysis });
    return out;
  }

  /** Drops everything known about a document (on close: a reopened document restarts its versions). */
  forget(uri: string): void {
    this.entries.delete(uri);
    this.lastGood.delete(uri);
  }

  private entry(uri: string): Entry | undefined {
    const document = this.store.get(uri);
    if (!document) {
      this.entries.delete(uri);
      return undefined;
    }
    const maxFileSize = this.settings().maxFileSize;
    const cached = this.entries.get(uri);
    if (cached && cached.document === document && cached.version === document.version && cached.maxFileSize === maxFileSize) {
      return cached;
    }
    const state = classifyDocument(document, maxFileSize);
    const entry: Entry = { document, version: document.version, maxFileSize, state };
    // Only the size limit changed: the text is the same, so the analysis still holds.
    if (cached && cached.document === document && cached.version === document.version && state.kind === "lwir") {
      entry.analysis = cached.analysis;
    }
    this.entries.set(uri, entry);
    if (state.kind === "ignored") this.lastGood.delete(uri);
    return entry;
  }
}

function parsedCleanly(analysis: Analysis): boolean {
  return analysis.document.parseErrors.length === 0 && !analysis.document.tooDeep;
}

// ---- which documents are LWIR ---------------------------------------------------------------------

const LWIR_FILE_NAME = /\.lwir\.(json|ya?ml)$/i;
/** How much of a document above the size limit is searched for `apiVersion` (it normally comes first). */
const OVERSIZE_SNIFF_LIMIT = 64 * 1024;
/** At most this many `apiVersion` candidates are examined (a JSON array of workflows has one each). */
const MAX_CANDIDATES = 32;

/**
 * `*.lwir.json|yaml|yml` by name, or a JSON/YAML document (by language id or extension) whose
 * top-level `apiVersion` starts with `littleworkflow.dev/`, found by a bounded text search (no parse,
 * so a large ordinary file costs one regular-expression scan).
 */
export function classifyDocument(document: TextDocumentLike, maxFileSize: number): DocumentState {
  const name = fileNameOf(document.uri);
  // Read the text only where its length does not tell: a named file under the size limit needs no more,
  // and right after an edit a LazyTextDocument would have to build its text for it.
  const known = document.length;
  const text = typeof known === "number" ? undefined : document.getText();
  // A client that opened the document without text (a malformed didOpen) gets no answers for it, not errors.
  if (typeof known !== "number" && typeof (text as unknown) !== "string") return { kind: "ignored" };
  const textOf = () => text ?? document.getText();
  const length = typeof known === "number" ? known : (text as string).length;
  // Our own read-only views (the canonical JSON of a workflow) are not documents to analyse.
  if (document.uri.startsWith("lwir-canonical:")) return { kind: "ignored" };
  // The configuration file (.lwir.yaml) is not a workflow: lsp/configFiles.ts checks it.
  if (isConfigFileName(name)) return { kind: "ignored" };
  // Nor is a scenarios file (NAME.lwir.test.yaml): lsp/scenarioFiles.ts checks it.
  if (isScenariosFileName(name)) return { kind: "ignored" };
  const named = LWIR_FILE_NAME.exec(name);
  const format: Format | undefined = named
    ? (named[1].toLowerCase() === "json" ? "json" : "yaml")
    : formatOf(document.languageId, name);
  if (!format) return { kind: "ignored" };
  const size = utf8LengthAbove(textOf, length, maxFileSize);
  const sniffed = named !== null || declaresLwir(textOf(), format, size > maxFileSize ? OVERSIZE_SNIFF_LIMIT : length);
  if (!sniffed) return { kind: "ignored" };
  if (size > maxFileSize) return { kind: "tooLarge", format, size, limit: maxFileSize };
  return { kind: "lwir", format };
}

function formatOf(languageId: string, name: string): Format | undefined {
  if (languageId === "json" || languageId === "jsonc") return "json";
  if (languageId === "yaml") return "yaml";
  const lower = name.toLowerCase();
  if (lower.endsWith(".json") || lower.endsWith(".jsonc")) return "json";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  return undefined;
}

/** The last path segment of a URI, without query or fragment, percent-decoded where possible. */
export function fileNameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/s, "");
  const last = path.slice(path.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The UTF-8 size of a text of `length` UTF-16 units, counted exactly only where it could matter for `limit`. */
function utf8LengthAbove(textOf: () => string, length: number, limit: number): number {
  if (length > limit) return length; // every UTF-16 unit is at least one byte: already above
  if (length * 3 <= limit) return length; // at most three bytes per unit: cannot be above
  // One byte per unit, plus what the non-ASCII runs add (the regular expression skips ASCII natively:
  // this runs on every version of a large document).
  let bytes = length;
  for (const run of textOf().matchAll(NON_ASCII_RUNS)) {
    const s = run[0];
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x800) bytes += 1;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) { bytes += 2; i++; } // a pair: 4 bytes for 2 units
      else bytes += 2;
    }
  }
  return bytes;
}

const NON_ASCII_RUNS = /[^\x00-\x7f]+/g;

const JSON_API_VERSION = /"apiVersion"\s*:\s*"littleworkflow\.dev\//g;
const YAML_BLOCK_API_VERSION = /^(?:apiVersion|"apiVersion"|'apiVersion')[ \t]*:[ \t]*["']?littleworkflow\.dev\//m;
const YAML_FLOW_API_VERSION = /["']?apiVersion["']?\s*:\s*["']?littleworkflow\.dev\//g;

/** Does the text declare a top-level LWIR apiVersion within its first `limit` characters? */
export function declaresLwir(text: string, format: Format, limit: number): boolean {
  const head = limit < text.length ? text.slice(0, limit) : text;
  if (head.indexOf("littleworkflow.dev/") === -1) return false;
  if (format === "yaml") {
    // A block mapping's top-level keys start at column 0. A flow mapping (`{apiVersion: …}`) is
    // JSON-like, so the bracket-depth check below decides it.
    if (YAML_BLOCK_API_VERSION.test(head)) return true;
    return /^\s*(?:#.*\n\s*)*(?:---\s*)?\{/.test(head) && atDepthOne(head, YAML_FLOW_API_VERSION);
  }
  return atDepthOne(head, JSON_API_VERSION);
}

/** Is one of the regex's matches inside the outermost object (depth 1), outside strings and comments? */
function atDepthOne(text: string, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  const scan = new BracketScanner(text);
  for (let n = 0; n < MAX_CANDIDATES; n++) {
    const match = pattern.exec(text);
    if (!match) return false;
    if (scan.depthAt(match.index) === 1 && text[scan.firstOpen] === "{") return true;
  }
  return false;
}

/** Tracks `{}`/`[]` nesting left to right, skipping strings and comments; positions must ascend. */
class BracketScanner {
  private pos = 0;
  private depth = 0;
  /** Where the outermost bracket opened (to tell an object from an array at the top). */
  firstOpen = -1;

  constructor(private readonly text: string) {}

  /** Nesting depth at `offset`, or -1 when `offset` lies inside a string or comment. */
  depthAt(offset: number): number {
    const t = this.text;
    if (this.pos > offset) return -1;
    while (this.pos < offset) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
        this.pos = this.skipString(c);
        continue;
      }
      if (c === 0x2f /* / */ && t.charCodeAt(this.pos + 1) === 0x2f) {
        const end = t.indexOf("\n", this.pos);
        this.pos = end === -1 ? t.length : end;
        continue;
      }
      if (c === 0x2f && t.charCodeAt(this.pos + 1) === 0x2a /* * */) {
        const end = t.indexOf("*/", this.pos + 2);
        this.pos = end === -1 ? t.length : end + 2;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        if (this.depth === 0 && this.firstOpen === -1) this.firstOpen = this.pos;
        this.depth++;
      } else if (c === 0x7d || c === 0x5d) {
        this.depth--;
      }
      this.pos++;
    }
    return this.pos > offset ? -1 : this.depth;
  }

  private skipString(quote: number): number {
    const t = this.text;
    let i = this.pos + 1;
    while (i < t.length) {
      const c = t.charCodeAt(i);
      if (c === 0x5c /* \ */ && quote === 0x22) { i += 2; continue; }
      if (c === quote) return i + 1;
      if (c === 0x0a) return i; // an unterminated string ends at the line end
      i++;
    }
    return i;
  }
}
