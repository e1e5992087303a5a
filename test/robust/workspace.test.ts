// Robustness of the workspace scan (server/src/lsp/workspaceScan.ts): 20,000 files in a wide and deep
// tree, files rewritten on disk (with their watched-file events) while the scan runs, and a cancelled
// scan. No crash, no error logged, every file's last result is its last disk text (never a stale result
// after a newer one), and the server's peak RSS is reported (not asserted: machines differ).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { delay, type LspClient, type Message } from "../lsp/harness";
import { toolStep, withSteps } from "../unit/lwir-fixtures";
import { errorLogs, expectedDiagnostics, mb, reportFigures, serverMemory, startServer } from "./support";

const FILES = 20_000;
/** The deepest chain of folders (each one level below the last). */
const DEPTH = 150;
const REWRITTEN = 100;
const REWRITES = 4;

const valid = (id: string) => JSON.stringify({ ...withSteps([toolStep("a")]), description: `file ${id}` });
/** One finding: `b` needs a step that does not exist. */
const invalid = (id: string) => JSON.stringify({ ...withSteps([toolStep("b", { needs: ["missing"] })]), description: `file ${id}` });

describe("workspace scan: 20,000 files, deep trees, files changing while it runs", () => {
  let root: string;
  let client: LspClient;
  const files: string[] = [];
  const uriOf = (relative: string) => `${pathToFileURL(root).href}/${relative}`;

  before(() => {
    root = mkdtempSync(join(tmpdir(), "lwir-ws-robust-"));
    // Wide: 100 folders of files; deep: one chain of DEPTH folders with a file at every 10th level.
    let deep = "";
    for (let level = 0; level < DEPTH; level++) {
      deep = deep === "" ? "d0" : `${deep}/d${level}`;
      if (level % 10 === 9) files.push(`${deep}/at-${level}.lwir.json`);
    }
    mkdirSync(join(root, deep), { recursive: true });
    for (let i = files.length; i < FILES; i++) files.push(`w${i % 100}/f${i}.lwir.json`);
    for (let k = 0; k < 100; k++) mkdirSync(join(root, `w${k}`), { recursive: true });
    files.forEach((relative, i) => writeFileSync(join(root, relative), i % 4 === 0 ? invalid(String(i)) : valid(String(i))));
  });

  after(async () => {
    await client?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test("the scan finishes with every file's last disk text reported, under rewrites, without errors", async () => {
    const started = Date.now();
    client = await startServer({
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: "big" }],
      initializationOptions: { settings: { validation: { delay: 0, maxFiles: 50_000, scope: "workspace" } } },
      capabilities: { window: { workDoneProgress: true }, workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
      timeout: 600_000,
    });
    // Rewrite files while the scan runs: each is valid/invalid in turn, its event sent after each write.
    await client.waitFor((m) => m.method === "$/progress" && m.params?.value?.kind === "report", "the scan to start");
    const rewritten = files.filter((_, i) => i % Math.floor(FILES / REWRITTEN) === 1).slice(0, REWRITTEN);
    const finalText = new Map<string, string>();
    for (let round = 0; round < REWRITES; round++) {
      for (const [n, relative] of rewritten.entries()) {
        const text = (round + n) % 2 === 0 ? invalid(`r${round}-${n}`) : valid(`r${round}-${n}`);
        writeFileSync(join(root, relative), text);
        finalText.set(relative, text);
      }
      client.notify("workspace/didChangeWatchedFiles", { changes: rewritten.map((relative) => ({ uri: uriOf(relative), type: 2 })) });
      await delay(50);
    }
    await client.waitFor((m) => m.method === "$/progress" && m.params?.value?.kind === "end", "the scan to end");
    const scanMs = Date.now() - started;

    // Every rewritten file ends with the diagnostics of its last text, and stays so.
    const lastFor = (uri: string) => client.publishedFor(uri).at(-1)?.diagnostics ?? [];
    const matchesFinal = () => rewritten.every((relative) => JSON.stringify(lastFor(uriOf(relative))) === JSON.stringify(expectedDiagnostics(finalText.get(relative)!, "json", uriOf(relative))));
    for (let i = 0; i < 600 && !matchesFinal(); i++) await delay(100);
    assert.ok(matchesFinal(), "a rewritten file's last result is not its last disk text");
    await delay(500);
    assert.ok(matchesFinal(), "a stale result arrived after the newest one");

    // The files not rewritten: invalid ones have their one finding, valid ones nothing.
    const untouched = new Set(rewritten);
    let checked = 0;
    files.forEach((relative, i) => {
      if (untouched.has(relative)) return;
      const got = lastFor(uriOf(relative));
      if (i % 4 === 0) assert.deepEqual(got.map((d) => d.code), ["step.missing_dependency"], relative);
      else assert.deepEqual(got, [], relative);
      checked++;
    });
    assert.equal(checked, FILES - rewritten.length);
    const lastReport = client.received.filter((m: Message) => m.method === "$/progress" && m.params?.value?.kind === "report").at(-1);
    assert.equal(lastReport?.params.value.message, "20,000/20,000");
    assert.deepEqual(errorLogs(client), []);
    assert.ok(client.alive);

    const memory = await serverMemory(client, 60_000);
    reportFigures("workspace scan of 20,000 files", {
      "files": FILES,
      "deepest folder": DEPTH,
      "files rewritten during the scan": `${rewritten.length} × ${REWRITES}`,
      "start to scan end (ms)": scanMs,
      "peak RSS (MB)": mb(memory.peakRss),
      "RSS after GC (MB)": mb(memory.rss),
      "heap after GC (MB)": mb(memory.heapUsed),
    });
  });

  test("a scan cancelled from its progress stops, and the server goes on answering", async () => {
    const creates = client.serverRequests.filter((m) => m.method === "window/workDoneProgress/create").length;
    // A new maxFiles starts a new scan.
    client.notify("workspace/didChangeConfiguration", { settings: { lwir: { validation: { delay: 0, maxFiles: 40_000, scope: "workspace" } } } });
    const create = await client.waitFor((m) => m.method === "window/workDoneProgress/create" && client.serverRequests.filter((r) => r.method === m.method).length > creates, "a new scan's progress");
    const token = create.params.token;
    await client.waitFor((m) => m.method === "$/progress" && m.params.token === token && m.params.value.kind === "report", "the new scan's first report");
    client.notify("window/workDoneProgress/cancel", { token });
    await client.waitFor((m) => m.method === "$/progress" && m.params.token === token && m.params.value.kind === "end", "the cancelled scan to end");
    const reports = client.received.filter((m: Message) => m.method === "$/progress" && m.params.token === token && m.params.value.kind === "report");
    const [done, total] = String(reports.at(-1)!.params.value.message).split("/");
    assert.equal(total, "20,000");
    assert.notEqual(done, "20,000", "the scan ran to its end despite the cancel");
    // Still serving.
    client.open("file:///elsewhere/x.lwir.json", invalid("open"));
    const published = await client.waitForDiagnostics("file:///elsewhere/x.lwir.json", { version: 1 });
    assert.equal(published.diagnostics.length, 1);
    assert.deepEqual(errorLogs(client), []);
  });
});
