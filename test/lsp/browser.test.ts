// The browser build (dist/web/server.js, a web-worker bundle) in a Node worker thread that plays the
// web worker's part: `self.onmessage` in, `self.postMessage` out. Proves the bundle has no Node-only
// code on its path and that the same server answers there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";

interface Message { id?: number; method?: string; params?: any; result?: any }

test("the web-worker server initializes and publishes diagnostics", async () => {
  const bundle = resolve(process.env.LWIR_TEST_WEB_SERVER ?? "dist/web/server.js");
  const shim = `
    const { parentPort } = require("node:worker_threads");
    globalThis.self = globalThis;
    globalThis.addEventListener = () => {};
    globalThis.postMessage = (m) => parentPort.postMessage(m);
    parentPort.on("message", (data) => globalThis.onmessage && globalThis.onmessage({ data }));
    require(${JSON.stringify(bundle)});`;
  const worker = new Worker(shim, { eval: true });
  const received: Message[] = [];
  try {
    const published = new Promise<Message>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no diagnostics; received ${JSON.stringify(received).slice(0, 500)}`)), 5000);
      worker.on("error", fail);
      worker.on("message", (m: Message) => {
        received.push(m);
        if (m.id === 1) {
          worker.postMessage({ jsonrpc: "2.0", method: "initialized", params: {} });
          worker.postMessage({ jsonrpc: "2.0", method: "textDocument/didOpen", params: {
            textDocument: { uri: "file:///w/a.lwir.json", languageId: "json", version: 1, text: '{"apiVersion": "littleworkflow.dev/v0.1", "kind": "Workflow"}' },
          } });
        }
        if (m.method === "textDocument/publishDiagnostics") { clearTimeout(timer); done(m); }
      });
    });
    worker.postMessage({ jsonrpc: "2.0", id: 1, method: "initialize", params: {
      processId: null, rootUri: null, capabilities: {}, initializationOptions: { settings: { validation: { delay: 0 } } },
    } });
    const m = await published;
    const init = received.find((r) => r.id === 1)!;
    assert.equal(init.result.capabilities.textDocumentSync.change, 2);
    assert.equal(m.params.version, 1);
    const codes = (m.params.diagnostics as { code: string }[]).map((d) => d.code);
    assert.ok(codes.includes("schema.invalid"), codes.join(", "));
  } finally {
    await worker.terminate();
  }
});
