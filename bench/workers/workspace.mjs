// The workspace scan (issue 16), two series over LSP (stdio) through the test harness's client:
//   1. Scan throughput: a folder of 1,000 generated workflows (10–100 steps, JSON and YAML, one in five
//      with errors): spawn of the built server → the scan's progress ends (every file's diagnostics
//      published), against `lwir validate --format json` on the same folder (spawn → exit), timed in the
//      same rounds, interleaved: the CLI is this series' floor, so ratio_to_floor is server ÷ CLI.
//   2. Typing during a scan: edit → diagnostics and completion right after typing `.`, on an open
//      1,000-step document, each measured while a scan of that folder runs (started just before by
//      removing and re-adding the workspace folder, which rescans without touching the open document)
//      and with no scan running, interleaved; the no-scan figure is the floor, so ratio_to_floor is
//      during ÷ without.
//   node bench/workers/workspace.mjs --file bench/tmp/w-1000.lwir.json --format json --steps 1000 [--iterations 20] [--warmup 2]
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generate, render } from "../generate.mjs";
import { args, completionSite, editAt, editSites, emit, interleave, readWorkload, require, rssOf, summarize, timed } from "../lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const { LspClient } = require("./tmp/harness.cjs");
const a = args();
const TIMEOUT = 600_000;
const FILES = 1000;
const folder = join(root, "bench", "tmp", "workspace-1000");
const folderUri = pathToFileURL(folder).href;

// ---- the folder: 1,000 workflows of 10–100 steps ------------------------------------------------
if (!existsSync(folder) || readdirSync(folder).length !== FILES) {
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const steps = 10 + ((i * 37) % 91);
    const format = i % 2 === 0 ? "json" : "yaml";
    const { doc } = generate({ steps, seed: `ws-${i}`, errors: i % 5 === 0 ? 2 : 0 });
    writeFileSync(join(folder, `wf-${String(i).padStart(4, "0")}.lwir.${format}`), render(doc, format, `bench workspace file ${i}`));
  }
}

const CAPABILITIES = {
  window: { workDoneProgress: true },
  workspace: { workspaceFolders: true },
  textDocument: { completion: { completionList: { itemDefaults: ["editRange"] } } },
};

function startServer() {
  return LspClient.start({
    pull: false,
    timeout: TIMEOUT,
    capabilities: CAPABILITIES,
    serverPath: join(root, "dist", "server.js"),
    workspaceFolders: [{ uri: folderUri, name: "bench" }],
    initializationOptions: { settings: { validation: { delay: 0, scope: "workspace" } } },
  });
}

const scanEnded = (client, after) => client.waitFor((m) => m.method === "$/progress" && m.params?.value?.kind === "end" && client.received.indexOf(m) >= after, "the scan's end", TIMEOUT);

function runCli() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "dist", "cli.js"), "validate", "--format", "json", folder], { stdio: ["ignore", "pipe", "pipe"] });
    let bytes = 0;
    child.stdout.on("data", (d) => { bytes += d.length; });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 || code === 1 ? resolve(bytes) : reject(new Error(`lwir validate exited ${code}`))));
  });
}

const out = [];

// ---- 1. scan throughput -----------------------------------------------------------------------------
{
  let published = 0;
  let peak = 0;
  const { results, floorSamples } = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      scan: async () => {
        let client;
        const ms = await timed(async () => {
          client = await startServer();
          await scanEnded(client, 0);
        });
        published = new Set(client.published.map((p) => p.uri)).size;
        peak = Math.max(peak, rssOf(client.pid).peak_mb);
        await client.stop();
        return ms;
      },
    },
    floor: async () => timed(runCli),
  });
  out.push(summarize(`workspace scan of ${FILES} files → all diagnostics`, "ours (LSP)", "mixed", FILES, results.scan, "lwir validate --format json (same folder)", floorSamples,
    { files_with_diagnostics: published, rss_peak_mb: peak }));
}

// ---- 2. typing during a scan --------------------------------------------------------------------------
{
  const client = await startServer();
  await scanEnded(client, 0);
  const base = readWorkload(a.file);
  const uri = pathToFileURL(join(root, "bench", "tmp", `typing-during-scan-${a.steps}.lwir.${a.format}`)).href;
  const site = completionSite(base, a.format);
  client.open(uri, site.text, a.format);
  await client.waitForDiagnostics(uri, { version: 1, timeout: TIMEOUT });

  /** Starts a rescan and resolves once it is checking files. */
  const rescan = async () => {
    const from = client.received.length;
    client.notify("workspace/didChangeWorkspaceFolders", { event: { added: [], removed: [{ uri: folderUri, name: "bench" }] } });
    client.notify("workspace/didChangeWorkspaceFolders", { event: { added: [{ uri: folderUri, name: "bench" }], removed: [] } });
    // the second scan's first report: the first one (no folders) ends at once
    const report = await client.waitFor((m) => m.method === "$/progress" && m.params?.value?.kind === "report" && /^\d[\d,]*\/1,000$/.test(m.params.value.message) && client.received.indexOf(m) >= from, "a rescan to run", TIMEOUT);
    return client.received.indexOf(report);
  };
  let stillScanning = 0;
  let measuredDuring = 0;
  /** No progress end since the rescan's report at `from`: the measurement ran while the scan did. */
  const scanRunning = (from) => !client.received.slice(from + 1).some((m) => m.method === "$/progress" && m.params?.value?.kind === "end");
  const quiet = async () => {
    // no scan: the last one has ended
    const last = client.received.filter((m) => m.method === "$/progress").at(-1);
    if (last && last.params.value.kind !== "end") await client.waitForNext((m) => m.method === "$/progress" && m.params?.value?.kind === "end", "the scan's end", TIMEOUT);
  };

  function prepare(edit) {
    const doc = client.document(uri);
    const range = { start: doc.positionAt(edit.offset), end: doc.positionAt(edit.offset + edit.deleteCount) };
    const version = client.version(uri) + 1;
    const contentChanges = [{ range, text: edit.insert }];
    return {
      version,
      range,
      message: { jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version }, contentChanges } },
      record: () => client.recordChange(uri, version, contentChanges),
    };
  }
  const sites = editSites(client.text(uri));
  let round = 0;
  const editOnce = async () => {
    const edit = prepare(editAt(sites, round++));
    const ms = await timed(async () => {
      client.writeTogether([edit.message]);
      await client.waitForDiagnostics(uri, { version: edit.version, timeout: TIMEOUT });
    });
    edit.record();
    return ms;
  };
  const edits = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      during: async () => {
        const from = await rescan();
        const ms = await editOnce();
        measuredDuring++;
        if (scanRunning(from)) stillScanning++;
        return ms;
      },
    },
    floor: async () => {
      await quiet();
      return editOnce();
    },
  });
  out.push(summarize("edit → diagnostics during a 1,000-file scan", "ours (LSP)", a.format, a.steps, edits.results.during, "the same with no scan", edits.floorSamples,
    { scan_still_running_after: `${stillScanning}/${measuredDuring}` }));

  let nextId = 2_000_000;
  const completionAt = () => client.text(uri).indexOf(site.marker) + site.marker.length;
  const completeOnce = async () => {
    const at = completionAt();
    const edit = prepare({ offset: at, deleteCount: 0, insert: "." });
    const position = { line: edit.range.start.line, character: edit.range.start.character + 1 };
    const id = nextId++;
    const request = { jsonrpc: "2.0", id, method: "textDocument/completion", params: { textDocument: { uri }, position, context: { triggerKind: 2, triggerCharacter: "." } } };
    const ms = await timed(async () => {
      client.writeTogether([edit.message, request]);
      await client.waitFor((m) => m.id === id, `completion ${id}`, TIMEOUT);
    });
    edit.record();
    // not measured: take the `.` out again
    const undo = prepare({ offset: at, deleteCount: 1, insert: "" });
    client.writeTogether([undo.message]);
    undo.record();
    await client.waitForDiagnostics(uri, { version: undo.version, timeout: TIMEOUT });
    return ms;
  };
  stillScanning = 0;
  measuredDuring = 0;
  const completions = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      during: async () => {
        const from = await rescan();
        const ms = await completeOnce();
        measuredDuring++;
        if (scanRunning(from)) stillScanning++;
        return ms;
      },
    },
    floor: async () => {
      await quiet();
      return completeOnce();
    },
  });
  out.push(summarize("completion right after an edit during a 1,000-file scan", "ours (LSP)", a.format, a.steps, completions.results.during, "the same with no scan", completions.floorSamples,
    { scan_still_running_after: `${stillScanning}/${measuredDuring}` }));
  await client.stop();
}

emit(out);
