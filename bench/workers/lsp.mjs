// Series 3 and 4 over LSP (stdio), through the test harness's client (test/lsp/harness.ts, bundled):
//   --server ours            the built server (dist/server.js), lwir.validation.delay 0;
//   --server yamlls          yaml-language-server as shipped (its 200 ms validation debounce left in);
//   --server yamlls-nodelay  the same with the debounce removed by a preload module (bench/yamlls-nodelay.cjs).
// Measures didChange → publishDiagnostics for one-character edits in prompts, completion right after
// typing `.` in `{{ steps` (didChange and the request in one write, as an editor sends them) and again
// on the same version, and the server's RSS (idle, after opening, after the edits and completions).
// The floor parser runs in this process, interleaved, on the same text.
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FLOOR, args, completionSite, editAt, editSites, emit, interleave, readWorkload, require, rssOf, summarize, timed, timedSync, yamllsSettings } from "../lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const { LspClient } = require("./tmp/harness.cjs");
const a = args();
const server = a.raw.server;
const base = readWorkload(a.file);
const floor = FLOOR[a.format];
const uri = pathToFileURL(join(root, "bench", "tmp", `bench-${a.steps}.lwir.${a.format}`)).href;
const TIMEOUT = 600_000;

// What VS Code (1.91) advertises for completion, given to both servers: the list's item defaults and
// lazily resolved documentation let a server keep a long list small on the wire.
const VSCODE_COMPLETION = {
  textDocument: {
    completion: {
      completionItem: { snippetSupport: true, insertReplaceSupport: true, labelDetailsSupport: true, resolveSupport: { properties: ["documentation", "detail", "additionalTextEdits"] } },
      completionList: { itemDefaults: ["commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"] },
    },
  },
};

let client;
let tool;
if (server === "ours") {
  tool = "ours (LSP, delay 0)";
  client = await LspClient.start({
    pull: false,
    timeout: TIMEOUT,
    capabilities: VSCODE_COMPLETION,
    serverPath: join(root, "dist", "server.js"),
    initializationOptions: { settings: { validation: { delay: 0 } } },
  });
} else {
  const yamlSettings = yamllsSettings(root);
  tool = server === "yamlls" ? "yaml-language-server (LSP, 200 ms debounce)" : "yaml-language-server (LSP, debounce removed)";
  client = await LspClient.start({
    pull: false,
    timeout: TIMEOUT,
    capabilities: VSCODE_COMPLETION,
    configurationRequests: true,
    configuration: { yaml: yamlSettings, "[yaml]": {}, http: {}, editor: {}, files: {} },
    serverPath: require.resolve("yaml-language-server/bin/yaml-language-server"),
    nodeArgs: server === "yamlls-nodelay" ? ["--require", join(here, "..", "yamlls-nodelay.cjs")] : [],
  });
  client.notify("workspace/didChangeConfiguration", { settings: { yaml: yamlSettings } });
}

const pid = client.pid;
const idle = rssOf(pid);
// the document carries an unfinished `{{ steps` where completion is asked later
const site = completionSite(base, a.format);
const openedAt = performance.now();
client.open(uri, site.text, a.format);
await client.waitForNotification("textDocument/publishDiagnostics", (p) => p.uri === uri, TIMEOUT);
const openMs = performance.now() - openedAt;
const afterOpen = rssOf(pid);

/**
 * A didChange for `edit` of the client's current copy, built before any timing starts: the timed part
 * is the server's (write → answer), not the test client's own bookkeeping, which an editor does in its
 * text model anyway. `record()` applies the change to the client's copy once the answer is in.
 */
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

let nextId = 1_000_000;

async function diagnosticsFor({ version, seq }) {
  // yaml-language-server publishes without a version: take the first publication after the change
  if (server === "ours") await client.waitForDiagnostics(uri, { version, timeout: TIMEOUT });
  else await client.waitForDiagnostics(uri, { after: seq, timeout: TIMEOUT });
}

const out = [];
const extra = { rss_idle_mb: idle.rss_mb, rss_after_open_mb: afterOpen.rss_mb, open_ms: Math.round(openMs) };

// edit → diagnostics
{
  // edit sites shift by the inserted `{{ steps` text after it; recompute on the current text
  const sites = editSites(client.text(uri));
  const { results, floorSamples } = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      diag: async (i) => {
        const edit = prepare(editAt(sites, i));
        const ms = await timed(async () => {
          const seq = client.seq;
          client.writeTogether([edit.message]);
          await diagnosticsFor({ version: edit.version, seq });
        });
        edit.record();
        return ms;
      },
    },
    floor: () => timedSync(() => floor.run(client.text(uri))),
  });
  out.push(summarize("edit → diagnostics", tool, a.format, a.steps, results.diag, floor.name, floorSamples, extra));
}

// completion right after typing `.`, then again on the same version
{
  // an odd number of edit rounds leaves a letter typed, maybe before the site: find it in the current text
  const completionAt = client.text(uri).indexOf(site.marker) + site.marker.length;
  let items = 0;
  let sameItems = 0;
  let pendingCheck;
  let position;
  const { results, floorSamples } = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      afterEdit: async () => {
        const edit = prepare({ offset: completionAt, deleteCount: 0, insert: "." });
        position = { line: edit.range.start.line, character: edit.range.start.character + 1 };
        const id = nextId++;
        const request = { jsonrpc: "2.0", id, method: "textDocument/completion", params: { textDocument: { uri }, position, context: { triggerKind: 2, triggerCharacter: "." } } };
        let list;
        const ms = await timed(async () => {
          pendingCheck = { version: edit.version, seq: client.seq };
          // one write for the change and the request, as an editor sends them while typing
          client.writeTogether([edit.message, request]);
          list = (await client.waitFor((m) => m.id === id, `completion ${id}`, TIMEOUT)).result;
        });
        edit.record();
        items = (Array.isArray(list) ? list : list?.items ?? []).length;
        return ms;
      },
      // once the version is analysed (its diagnostics are out; not timed)
      sameVersion: async () => {
        await diagnosticsFor(pendingCheck);
        return timed(async () => {
          const list = await client.request("textDocument/completion", { textDocument: { uri }, position, context: { triggerKind: 1 } }, TIMEOUT);
          sameItems = (Array.isArray(list) ? list : list?.items ?? []).length;
        });
      },
      // not measured: delete the `.` again and let the server settle before the next round
      settle: async () => {
        const edit = prepare({ offset: completionAt, deleteCount: 1, insert: "" });
        const seq = client.seq;
        client.writeTogether([edit.message]);
        edit.record();
        await diagnosticsFor({ version: edit.version, seq });
        return 0;
      },
    },
    floor: () => timedSync(() => floor.run(client.text(uri))),
  });
  const after = rssOf(pid);
  const memory = { ...extra, rss_after_edits_mb: after.rss_mb, rss_peak_mb: after.peak_mb };
  out.push(summarize("completion right after an edit", tool, a.format, a.steps, results.afterEdit, floor.name, floorSamples, { items, ...memory }));
  out.push(summarize("completion, same version", tool, a.format, a.steps, results.sameVersion, floor.name, floorSamples, { items: sameItems }));
}
await client.stop();
emit(out);
