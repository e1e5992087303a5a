// Typing simulation through the running server (dist/server.js over stdio): every prefix of each example and
// of a seeded sample of the conformance corpus is typed one character per incremental didChange, then random
// single-character deletions and insertions follow; completion and code actions are asked at the cursor as
// it goes (some in the middle of a burst of changes, the rest when a burst ends).
//
// What must hold: every request is answered, never with InternalError, and its edits lie inside the document
// (completion edits on the cursor's line and around it, as LSP requires); at every pause the diagnostics
// published are those of the latest version and equal what the same analysis gives for the client's copy of
// the text (so incremental sync kept the server's copy identical); no version's diagnostics arrive after a
// newer one's; closing clears them; the server logs no error and never exits.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CodeAction, CompletionItem, CompletionList, Diagnostic, Range, TextEdit } from "vscode-languageserver-protocol";
import { ErrorCode, LspClient, fileUri, type Position } from "../lsp/harness";
import {
  SEED, conformanceSample, errorLogs, exampleDocs, expectedDiagnostics, mb, outcome, randomInt, randomSource, reportFigures,
  serverMemory, startServer, type SourceDoc,
} from "./support";

/** Conformance documents typed per format, and the largest one considered (keeps the run to a few minutes). */
const SAMPLE_PER_FORMAT = 4;
const SAMPLE_MAX_CHARS = 2600;
/** Random single-character edits after each document is typed. */
const RANDOM_EDITS = 150;
/** Characters inserted by the random edits: structure of both formats, a tab, CR, an astral character. */
const ALPHABET = ["{", "}", "[", "]", '"', "'", ":", ",", "-", " ", " ", "\n", "\t", "\r", "a", "z", "0", "9", ".", "|", ">", "&", "*", "#", "!", "\\", "{{", "}}", "é", "😀"];

const stats = { documents: 0, prefixEdits: 0, randomEdits: 0, completions: 0, codeActions: 0, pauses: 0, publications: 0, peakRss: 0 };

interface Pending {
  what: string;
  version: number;
  result: Promise<unknown>;
  /** Checked against the document as it was when the request was sent (when it was not edited meanwhile). */
  check?: (result: unknown) => void;
}

class Typist {
  private version = 1;
  private readonly inflight: Pending[] = [];

  constructor(
    private readonly client: LspClient,
    private readonly uri: string,
    private readonly format: "json" | "yaml",
    /** The client pulls diagnostics (textDocument/diagnostic) instead of waiting for published ones. */
    private readonly pull = false,
  ) {}

  private get doc(): TextDocument {
    return this.client.document(this.uri);
  }

  open(): Promise<void> {
    this.client.open(this.uri, "");
    return this.pause();
  }

  /** One incremental change replacing [start, end) by `text`; the cursor ends after the inserted text. */
  private change(start: number, end: number, text: string): Position {
    const doc = this.doc;
    this.version++;
    this.client.change(this.uri, this.version, [{ range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text }]);
    return this.doc.positionAt(start + text.length);
  }

  insertAt(offset: number, text: string): Position {
    return this.change(offset, offset, text);
  }

  deleteAt(offset: number): Position {
    return this.change(offset, offset + 1, "");
  }

  /** Completion at the cursor; `settled` means no change follows before the answer, so its edits can be checked. */
  askCompletion(position: Position, settled: boolean): void {
    stats.completions++;
    const snapshot = TextDocument.create(this.uri, "x", this.version, this.doc.getText());
    this.inflight.push({
      what: `completion at ${position.line}:${position.character}`,
      version: this.version,
      result: this.client.request("textDocument/completion", { textDocument: { uri: this.uri }, position, context: { triggerKind: 1 } }),
      check: settled ? (result) => checkCompletion(snapshot, position, result) : undefined,
    });
  }

  askCodeActions(position: Position, settled: boolean): void {
    stats.codeActions++;
    const latest = this.client.publishedFor(this.uri).at(-1)?.diagnostics ?? [];
    const onLine = latest.filter((d) => d.range.start.line <= position.line && position.line <= d.range.end.line);
    const snapshot = TextDocument.create(this.uri, "x", this.version, this.doc.getText());
    const range: Range = { start: position, end: position };
    this.inflight.push({
      what: `codeAction at ${position.line}:${position.character}`,
      version: this.version,
      result: this.client.request("textDocument/codeAction", { textDocument: { uri: this.uri }, range, context: { diagnostics: onLine } }),
      check: settled ? (result) => checkCodeActions(snapshot, this.uri, result) : undefined,
    });
  }

  /** Every request sent so far is answered, none with InternalError, and settled answers are well-formed. */
  async settle(): Promise<void> {
    const batch = this.inflight.splice(0);
    for (const pending of batch) {
      const got = await outcome(pending.result);
      if (!got.ok) {
        assert.notEqual(got.code, ErrorCode.InternalError, `${pending.what} (version ${pending.version}) failed: ${String(got.error)}`);
        // Anything else (no answer at all shows up here too) is just as wrong for a plain request.
        assert.fail(`${pending.what} (version ${pending.version}): ${String(got.error)}`);
      }
      pending.check?.(got.result);
    }
  }

  /** Waits for the latest version's diagnostics and checks them against the same analysis of the client's text. */
  async pause(): Promise<void> {
    stats.pauses++;
    const version = this.version;
    if (this.pull) {
      const report = await this.client.pullDiagnostics(this.uri);
      assert.equal(report.kind, "full", "a changed document gets a full report");
      assert.deepEqual(report.items, expectedDiagnostics(this.doc.getText(), this.format, this.uri), `pulled diagnostics of version ${version}`);
      return;
    }
    const published = await this.client.waitForDiagnostics(this.uri, { version });
    const latest = this.client.publishedFor(this.uri).at(-1)!;
    assert.equal(latest.version, version, `after the pause the last diagnostics published are for version ${latest.version}, not ${version}`);
    const text = this.doc.getText();
    assert.deepEqual(published.diagnostics, expectedDiagnostics(text, this.format, this.uri),
      `diagnostics of version ${version} differ from the analysis of the client's text:\n${JSON.stringify(text.slice(-300))}`);
  }

  get text(): string {
    return this.doc.getText();
  }
}

/** Is the position inside the document (a character at most at the line's end)? */
function positionInside(doc: TextDocument, p: Position): boolean {
  if (!Number.isInteger(p.line) || !Number.isInteger(p.character) || p.line < 0 || p.character < 0) return false;
  const back = doc.positionAt(doc.offsetAt(p));
  return back.line === p.line && back.character === p.character;
}

function rangeInside(doc: TextDocument, r: Range): boolean {
  return positionInside(doc, r.start) && positionInside(doc, r.end) && doc.offsetAt(r.start) <= doc.offsetAt(r.end);
}

function describeRange(r: Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

function checkEdits(doc: TextDocument, edits: TextEdit[], what: string): void {
  const spans = edits.map((e) => {
    assert.ok(rangeInside(doc, e.range), `${what}: edit range ${describeRange(e.range)} is outside the document (${doc.lineCount} lines)`);
    assert.equal(typeof e.newText, "string", `${what}: newText`);
    return [doc.offsetAt(e.range.start), doc.offsetAt(e.range.end)] as const;
  }).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 1; i < spans.length; i++) {
    assert.ok(spans[i - 1][1] <= spans[i][0], `${what}: edits overlap (${spans[i - 1]} and ${spans[i]})`);
  }
}

function checkCompletion(doc: TextDocument, position: Position, result: unknown): void {
  if (result === null) return;
  const items: CompletionItem[] = Array.isArray(result) ? result : (result as CompletionList).items;
  assert.ok(Array.isArray(items), "completion answers a list");
  for (const item of items) {
    const what = `completion item ${JSON.stringify(item.label)} at ${position.line}:${position.character}`;
    assert.equal(typeof item.label, "string", what);
    const edit = item.textEdit;
    if (edit) {
      const ranges = "range" in edit ? [edit.range] : [edit.insert, edit.replace];
      for (const r of ranges) {
        assert.ok(rangeInside(doc, r), `${what}: range ${describeRange(r)} outside the document`);
        // LSP: a completion edit is a single-line range that contains the position completion was asked at.
        assert.equal(r.start.line, r.end.line, `${what}: range ${describeRange(r)} spans lines`);
        assert.ok(doc.offsetAt(r.start) <= doc.offsetAt(position) && doc.offsetAt(position) <= doc.offsetAt(r.end),
          `${what}: range ${describeRange(r)} does not contain the cursor`);
      }
    }
    if (item.additionalTextEdits) checkEdits(doc, [...item.additionalTextEdits, ...(edit && "range" in edit ? [edit] : [])], what);
  }
}

function checkCodeActions(doc: TextDocument, uri: string, result: unknown): void {
  if (result === null) return;
  assert.ok(Array.isArray(result), "codeAction answers a list");
  for (const action of result as CodeAction[]) {
    assert.equal(typeof action.title, "string");
    const changes = action.edit?.changes ?? {};
    for (const [target, edits] of Object.entries(changes)) {
      assert.equal(target, uri, `code action "${action.title}" edits another document`);
      checkEdits(doc, edits, `code action "${action.title}"`);
    }
  }
}

/** Publications per document never go back to an older version. */
function assertVersionsNeverGoBack(client: LspClient, uri: string): void {
  const versions = client.publishedFor(uri).map((p) => p.version ?? -1);
  for (let i = 1; i < versions.length; i++) {
    assert.ok(versions[i] >= versions[i - 1], `${uri}: diagnostics of version ${versions[i]} arrived after those of version ${versions[i - 1]}`);
  }
}

/** Types `doc` into the server, then edits it at random; returns when the document is closed again. */
async function typeAndEdit(client: LspClient, doc: SourceDoc, index: number, random: () => number, burstMax: number, pull: boolean): Promise<void> {
  const uri = fileUri(`typing/${index}-${doc.name}`);
  const typist = new Typist(client, uri, doc.format, pull);
  await typist.open();
  stats.documents++;

  // Every prefix, one character at a time, at the end of the text.
  let typed = 0;
  while (typed < doc.text.length) {
    const burst = randomInt(random, 1, burstMax);
    let cursor: Position | undefined;
    for (let k = 0; k < burst && typed < doc.text.length; k++, typed++) {
      cursor = typist.insertAt(typed, doc.text[typed]);
      stats.prefixEdits++;
      if (random() < 0.04) typist.askCompletion(cursor, false);
    }
    typist.askCompletion(cursor!, true);
    if (random() < 0.5) typist.askCodeActions(cursor!, true);
    await typist.settle();
    await typist.pause();
  }
  assert.equal(typist.text, doc.text, "the typed text is the document");

  // Random single-character deletions and insertions.
  let done = 0;
  while (done < RANDOM_EDITS) {
    const burst = randomInt(random, 1, 5);
    let cursor: Position = { line: 0, character: 0 };
    for (let k = 0; k < burst && done < RANDOM_EDITS; k++, done++) {
      const length = typist.text.length;
      if (length > 0 && random() < 0.5) cursor = typist.deleteAt(randomInt(random, 0, length - 1));
      else cursor = typist.insertAt(randomInt(random, 0, length), ALPHABET[randomInt(random, 0, ALPHABET.length - 1)]);
      stats.randomEdits++;
      if (random() < 0.1) typist.askCodeActions(cursor, false);
    }
    typist.askCompletion(cursor, true);
    typist.askCodeActions(cursor, true);
    await typist.settle();
    await typist.pause();
  }

  if (pull) {
    assert.equal(client.publishedFor(uri).length, 0, "a pulling client gets no pushed diagnostics");
    client.close(uri);
    return;
  }
  assertVersionsNeverGoBack(client, uri);
  const before = client.publishedFor(uri).length;
  const hadDiagnostics = client.publishedFor(uri).at(-1)!.diagnostics.length > 0;
  client.close(uri);
  if (hadDiagnostics) {
    const cleared = await client.waitForDiagnostics(uri, { after: client.publishedFor(uri).at(-1)!.seq });
    assert.deepEqual(cleared.diagnostics, [], "closing clears the document's diagnostics");
  }
  // A round trip: anything the server still had queued for the closed document has arrived by now.
  await serverMemory(client);
  const after = client.publishedFor(uri).slice(before);
  assert.ok(after.length <= 1 && after.every((p) => p.diagnostics.length === 0), "nothing but the clearing is published after close");
  stats.publications += client.publishedFor(uri).length;
}

describe("typing simulation through the server", { timeout: 300_000 }, () => {
  const clients: LspClient[] = [];
  const sample = conformanceSample(SEED, SAMPLE_PER_FORMAT, SAMPLE_MAX_CHARS);

  before(() => {
    console.log(`typing: seed ${SEED}; conformance sample of ${sample.docs.length} of ${sample.population} documents ` +
      `(${SAMPLE_PER_FORMAT} JSON + ${SAMPLE_PER_FORMAT} YAML, at most ${SAMPLE_MAX_CHARS} characters): ${sample.docs.map((d) => d.name).join(", ")}`);
  });

  after(async () => {
    for (const client of clients) {
      const memory = await outcome(serverMemory(client));
      if (memory.ok) stats.peakRss = Math.max(stats.peakRss, memory.result.peakRss);
      await client.stop();
    }
    reportFigures("typing", {
      seed: SEED,
      documents: stats.documents,
      edits: stats.prefixEdits + stats.randomEdits,
      prefixEdits: stats.prefixEdits,
      randomEdits: stats.randomEdits,
      completions: stats.completions,
      codeActions: stats.codeActions,
      pauses: stats.pauses,
      publications: stats.publications,
      peakRssMB: mb(stats.peakRss),
    });
  });

  async function session(name: string, docs: SourceDoc[], delay: number, burstMax: number, seedOffset: number, pull = false): Promise<void> {
    const client = await startServer({ pull, initializationOptions: { settings: { validation: { delay } } }, timeout: 15_000 });
    clients.push(client);
    const random = randomSource(SEED + seedOffset);
    for (const [i, doc] of docs.entries()) await typeAndEdit(client, doc, i, random, burstMax, pull);
    assert.ok(client.alive, `${name}: the server is running`);
    assert.deepEqual(errorLogs(client), [], `${name}: the server logged no error`);
  }

  test("the examples, typed with validation on every change (lwir.validation.delay 0)", async () => {
    const docs = exampleDocs();
    assert.ok(docs.some((d) => d.format === "json") && docs.some((d) => d.format === "yaml"), "examples in both formats");
    await session("examples", docs, 0, 24, 1);
  });

  test("a seeded sample of the conformance corpus, typed with a debounce (lwir.validation.delay 15)", async () => {
    assert.equal(sample.docs.length, 2 * SAMPLE_PER_FORMAT);
    await session("sample", sample.docs, 15, 24, 2);
  });

  test("the YAML examples again, by a client that pulls diagnostics (as VS Code does)", async () => {
    await session("pull", exampleDocs().filter((d) => d.format === "yaml"), 10, 32, 3, true);
  });
});
