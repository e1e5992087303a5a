// Series 5b, the graph view over LSP (issue 15): an edit that changes an edge (one `needs` entry names
// another step, then the original again), sent in one write with `lwir/graph` {provisional: true} and a
// completion request, as the extension does when the user types with the graph open; on the provisional
// answer (the edit's edges on the last layout) it asks again without the flag, as the extension does, for
// the new layout. Measures edit → provisional answer (what the view redraws first), edit → the answer
// with the new layout, and the completion's latency meanwhile; the Node server lays out in its worker
// thread, so the completion does not wait for the layout. Floor: yaml parseDocument of the same text.
//   --server-path FILE   another build of the server (e.g. one without the worker, for a before/after)
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FLOOR, args, completionSite, emit, interleave, readWorkload, require, summarize, timedSync } from "../lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const { LspClient } = require("./tmp/harness.cjs");
const a = args();
const floor = FLOOR.yaml;
const site = completionSite(readWorkload(a.file), a.format);
const TIMEOUT = 600_000;
const uri = pathToFileURL(join(root, "bench", "tmp", `graph-${a.steps}.lwir.${a.format}`)).href;
const client = await LspClient.start({
  pull: false, timeout: TIMEOUT, serverPath: a.raw["server-path"] ?? join(root, "dist", "server.js"),
  initializationOptions: { settings: { validation: { delay: 0 } } },
});
client.open(uri, site.text, a.format);
await client.request("lwir/graph", { uri });

// the needs entry toggled: the first one after the middle of the document, renamed to the first step's id
const text0 = client.text(uri);
const firstId = (a.format === "json" ? /"id": "([^"]+)"/ : /\bid: ([\w-]+)/).exec(text0)[1];
const needs = (a.format === "json" ? /"needs": \[\s+"([\w-]+)"/g : /needs:\n\s+- ([\w-]+)\n/g);
needs.lastIndex = text0.length >> 1;
const m = needs.exec(text0);
const original = m[1];
const at = m.index + m[0].lastIndexOf(original);

let id = 2_000_000;
async function round(i) {
  const doc = client.document(uri);
  const [from, to] = i % 2 === 0 ? [original, firstId] : [firstId, original];
  const range = { start: doc.positionAt(at), end: doc.positionAt(at + from.length) };
  const version = client.version(uri) + 1;
  const changes = [{ range, text: to }];
  const after = client.text(uri).slice(0, at) + to + client.text(uri).slice(at + from.length);
  const offset = after.indexOf(site.marker) + site.marker.length;
  const before = after.slice(0, offset);
  const position = { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
  const graphId = id++;
  const completionId = id++;
  const settledId = id++;
  const start = performance.now();
  let completionMs = NaN;
  const answer = (wanted) => client.waitForNext((msg) => msg.id === wanted, `answer ${wanted}`, TIMEOUT);
  const answered = (wanted) => answer(wanted).then(() => performance.now() - start);
  const provisional = answer(graphId);
  const completion = answered(completionId).then((ms) => { completionMs = ms; });
  client.writeTogether([
    { jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version }, contentChanges: changes } },
    { jsonrpc: "2.0", id: graphId, method: "lwir/graph", params: { uri, provisional: true } },
    { jsonrpc: "2.0", id: completionId, method: "textDocument/completion", params: { textDocument: { uri }, position } },
  ]);
  const first = await provisional;
  const provisionalMs = performance.now() - start;
  if (first.result?.provisional !== true) throw new Error("an edge-only edit was not answered provisionally");
  const settled = answered(settledId);
  client.writeTogether([{ jsonrpc: "2.0", id: settledId, method: "lwir/graph", params: { uri } }]);
  const graphMs = await settled;
  await completion;
  client.recordChange(uri, version, changes);
  return { provisionalMs, graphMs, completionMs };
}

const samples = { provisional: [], graph: [], completion: [] };
const { floorSamples } = await interleave({
  warmup: a.warmup,
  iterations: a.iterations,
  subjects: {
    round: async (i) => {
      const r = await round(i);
      if (i >= a.warmup) {
        samples.provisional.push(r.provisionalMs);
        samples.graph.push(r.graphMs);
        samples.completion.push(r.completionMs);
      }
      return r.graphMs;
    },
  },
  floor: () => timedSync(() => floor.run(client.text(uri))),
});
await client.stop();
const tool = a.raw["server-path"] ? `ours (LSP, ${a.raw["server-path"]})` : "ours (LSP)";
emit([
  summarize("graph: edit that changes an edge → provisional lwir/graph answer (its edges on the last layout)", tool, a.format, a.steps, samples.provisional, floor.name, floorSamples),
  summarize("graph: edit that changes an edge → lwir/graph answer (new layout)", tool, a.format, a.steps, samples.graph, floor.name, floorSamples),
  summarize("graph: completion sent with that edit, while the graph is laid out", tool, a.format, a.steps, samples.completion, floor.name, floorSamples),
]);

