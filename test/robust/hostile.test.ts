// Hostile documents (test/robust/hostile-documents.ts) through the running server and through the CLI.
//
// Server: each document is opened (push diagnostics, validation on every change) while a request on another,
// ordinary document is pending; that request is answered, the hostile document gets its diagnostics (the
// clear one each case names, equal to what the analysis gives), and every feature the server advertises
// answers on it, at its start, middle and end, without an internal error. The server never exits and logs
// no error. Documents above lwir.maxFileSize (default 8 MB) get the size notice instead of analysis.
//
// CLI: all of them in one run (plus undecodable bytes on disk): each file gets its report, the large ones
// fully analysed, and the run ends with exit status 1 (problems in files) well within its time limit.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LspClient, fileUri, positionAt } from "../lsp/harness";
import { baseWorkflow } from "../unit/lwir-fixtures";
import { hostileDocuments, type Expectation, type Hostile } from "./hostile-documents";
import {
  askEverything, cliReports, errorLogs, expectedDiagnostics, formatOfName, mb, outcome, reportFigures, runCli, serverMemory, startServer,
  type CliFileReport,
} from "./support";

const HOSTILE = hostileDocuments();
/** The longest any one answer may take (a hang fails here rather than at the test runner's timeout). */
const ANSWER_TIMEOUT = 60_000;

const figures = {
  serverInputs: 0, serverRequests: 0, slowestDiagnosticsMs: 0, slowestOtherDocumentAnswerMs: 0, serverCrashes: 0, serverHangs: 0, serverPeakRssMB: "",
  cliInputs: 0, cliMs: 0, cliPeakRssMB: "", cliCrashes: 0, cliHangs: 0,
};

function matches(found: Array<{ code?: unknown; message: string; path?: string }>, expected: Expectation): boolean {
  return found.some((d) => d.code === expected.code && (!expected.message || expected.message.test(d.message)) &&
    (expected.path === undefined || d.path === expected.path));
}

describe("hostile documents in the editor", { timeout: 300_000 }, () => {
  let client: LspClient;
  const witness = fileUri("hostile/witness.lwir.json");
  const witnessText = JSON.stringify(baseWorkflow(), null, 2);

  before(async () => {
    client = await startServer({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } }, timeout: ANSWER_TIMEOUT });
    client.open(witness, witnessText);
    await client.waitForDiagnostics(witness, { version: 1 });
  });

  after(async () => {
    const memory = await outcome(serverMemory(client));
    if (memory.ok) figures.serverPeakRssMB = mb(memory.result.peakRss);
    if (!client.alive) figures.serverCrashes++;
    await client.stop();
  });

  for (const h of HOSTILE) {
    test(`${h.name}: ${h.editor === "none" ? "no diagnostics" : `${h.editor.code}`}, and the server answers meanwhile`, async () => {
      const uri = fileUri(`hostile/${h.file}`);
      const format = formatOfName(h.file);
      const text = h.text();
      const started = Date.now();
      client.open(uri, text);
      // A request on another document, sent right behind the hostile one.
      const other = await outcome(client.request("textDocument/completion", { textDocument: { uri: witness }, position: positionAt(witnessText, 20) }, ANSWER_TIMEOUT));
      figures.slowestOtherDocumentAnswerMs = Math.max(figures.slowestOtherDocumentAnswerMs, Date.now() - started);
      if (!other.ok) figures.serverHangs++;
      assert.ok(other.ok, `the request on another document is answered: ${other.ok ? "" : String(other.error)}`);

      const published = await client.waitForDiagnostics(uri, { version: 1, timeout: ANSWER_TIMEOUT });
      figures.slowestDiagnosticsMs = Math.max(figures.slowestDiagnosticsMs, Date.now() - started);
      const diagnostics = published.diagnostics.map((d) => ({ code: d.code, message: String(d.message), path: (d.data as { path?: string } | undefined)?.path }));
      if (h.editor === "none") {
        assert.deepEqual(diagnostics, [], "a valid document: no diagnostics");
      } else {
        assert.ok(matches(diagnostics, h.editor), `expected ${h.editor.code} ${h.editor.message ?? ""} ${h.editor.path ?? ""}, got ${JSON.stringify(diagnostics).slice(0, 600)}`);
      }
      if (h.editor === "none" || h.editor.code !== "lwir.file_too_large") {
        assert.deepEqual(published.diagnostics, expectedDiagnostics(text, format, uri), "what the analysis gives");
      }

      for (const offset of [0, Math.floor(text.length / 2), text.length]) {
        figures.serverRequests += await askEverything(client, uri, positionAt(text, offset), ANSWER_TIMEOUT, `${h.file} at ${offset}`);
      }
      assert.ok(client.alive, "the server is running");
      client.close(uri);
      figures.serverInputs++;
    });
  }

  test("the server logged no error and still answers", async () => {
    assert.deepEqual(errorLogs(client), []);
    const items = await client.request("textDocument/completion", { textDocument: { uri: witness }, position: positionAt(witnessText, 20) });
    assert.ok(items !== undefined);
    assert.ok(client.alive);
  });
});

describe("hostile documents on the command line", { timeout: 240_000 }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "lwir-hostile-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    reportFigures("hostile", figures);
  });

  test("one run over all of them (and undecodable bytes): a report for each, exit status 1", () => {
    const expectations = new Map<string, Expectation | "none">();
    const add = (h: Hostile): void => {
      // Buffer.from(…, "utf8") would replace lone surrogates; WTF-8 keeps them as the (invalid UTF-8) bytes an
      // editor that saved them would write, so the raw-surrogate case checks the CLI's decoder.
      const text = h.text();
      writeFileSync(join(dir, h.file), wtf8(text));
      // (read as the runtime reads it: each surrogate's bytes a U+FFFD, and a warning)
      const undecodable = /[\ud800-\udfff]/.test(text) ? { code: "lwir.invalid_utf8", message: /are not UTF-8|is not UTF-8/ } : undefined;
      expectations.set(h.file, undecodable ?? h.cli ?? h.editor);
    };
    HOSTILE.forEach(add);
    writeFileSync(join(dir, "invalid-utf8.lwir.json"), Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    // Bytes that are not UTF-8 are read as the runtime reads them (U+FFFD) and warned about, never refused.
    expectations.set("invalid-utf8.lwir.json", { code: "lwir.invalid_utf8", message: /^Byte 0xC3 is not UTF-8/ });
    writeFileSync(join(dir, "overlong-utf8.lwir.yaml"), Buffer.from("apiVersion: littleworkflow.dev/v0.1\nkind: \xc0\xaf\n", "latin1"));
    expectations.set("overlong-utf8.lwir.yaml", { code: "lwir.invalid_utf8", message: /^Bytes 0xC0 0xAF are not UTF-8/ });

    const run = runCli(["validate", "--format", "json", "."], { cwd: dir, timeout: 180_000 });
    figures.cliMs = run.ms;
    figures.cliPeakRssMB = mb(run.peakRss);
    if (run.timedOut) figures.cliHangs++;
    if (run.signal !== null) figures.cliCrashes++;
    assert.equal(run.timedOut, false, "the CLI finished in time");
    assert.equal(run.signal, null, `the CLI was not killed: ${run.stderr}`);
    assert.equal(run.status, 1, `exit status 1 (problems in files): ${run.stderr.slice(0, 2000)}`);
    assert.equal(run.stderr, "", "no file was unreadable and nothing went wrong inside");
    const reports = cliReports(run);
    for (const [file, expected] of expectations) {
      const report: CliFileReport | undefined = reports.get(`./${file}`);
      assert.ok(report, `${file} is reported`);
      const found = [
        ...report.parseErrors.map((p) => ({ code: "parse", message: p.message })),
        ...report.findings.map((f) => ({ code: f.code, message: f.message, path: f.path })),
        ...(report.notices ?? []).map((n) => ({ code: n.code, message: n.message, path: n.path })),
      ];
      if (expected === "none") assert.deepEqual(found, [], `${file}: valid`);
      else assert.ok(matches(found, expected), `${file}: expected ${expected.code} ${expected.message ?? ""}, got ${JSON.stringify(found).slice(0, 400)}`);
      figures.cliInputs++;
    }
    assert.equal(reports.size, expectations.size, "one report per file");
  });
});

/** UTF-16 → bytes, encoding a lone surrogate as the three bytes UTF-8 would use for its code point (invalid UTF-8). */
function wtf8(text: string): Buffer {
  if (!/[\ud800-\udfff]/.test(text)) return Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let plain = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (c >= 0xd800 && c <= 0xdfff && !pair) {
      parts.push(Buffer.from(plain, "utf8"), Buffer.from([0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]));
      plain = "";
    } else {
      plain += text[i];
      if (pair) plain += text[++i];
    }
  }
  parts.push(Buffer.from(plain, "utf8"));
  return Buffer.concat(parts);
}
