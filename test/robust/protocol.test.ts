// Protocol abuse against the running server (dist/server.js over stdio): the errors the protocol prescribes
// where it prescribes them, never an InternalError for a client's mistake, never a crash, and memory back
// at its baseline and RSS flat across floods of 10,000 changes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode, LspClient, fileUri, frame, positionAt, type Message } from "../lsp/harness";
import {
  EXAMPLES, MB, askEverything, errorLogs, expectedDiagnostics, featureRequests, mb, outcome, randomInt, randomSource, reportFigures, SEED,
  serverMemory, startServer, type ServerMemory,
} from "./support";

const figures = { malformedMessages: 0, abusiveRequests: 0, badChanges: 0, floodChanges: 0, floodMs: 0, retainedBaselineMB: "", retainedAfterFloodsMB: "", rssBaselineMB: "", rssAfterFloodsMB: "", serverCrashes: 0 };
const EXAMPLE = readFileSync(join(EXAMPLES, "release-notes.lwir.json"), "utf8");

/**
 * A server driven byte by byte, for what the harness cannot send (requests before initialize): the messages
 * written, then the replies read until `done` holds of them and the exit code (undefined while running), or
 * until `timeoutMs` (a generous bound: the test's assertion says what was missing). Killed if still running.
 */
async function rawSession(
  messages: object[],
  done: (replies: Message[], exitCode: number | null | undefined) => boolean,
  timeoutMs = 20_000,
): Promise<{ replies: Message[]; exitCode: number | null | undefined }> {
  const child = spawn(process.execPath, [join(process.cwd(), "dist", "server.js"), "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  let buffer = Buffer.alloc(0);
  const replies: Message[] = [];
  let exitCode: number | null | undefined;
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => { settle = resolve; });
  const check = () => { if (done(replies, exitCode)) settle(); };
  child.stdout.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      const length = end < 0 ? undefined : /Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString("ascii"));
      if (!length || buffer.length < end + 4 + Number(length[1])) break;
      replies.push(JSON.parse(buffer.subarray(end + 4, end + 4 + Number(length[1])).toString("utf8")) as Message);
      buffer = buffer.subarray(end + 4 + Number(length[1]));
    }
    check();
  });
  child.on("exit", (code) => {
    exitCode = code;
    check();
    settle(); // nothing more can arrive
  });
  for (const m of messages) child.stdin.write(frame(JSON.stringify(m)));
  const timer = setTimeout(settle, timeoutMs);
  await settled;
  clearTimeout(timer);
  if (exitCode === undefined) child.kill();
  return { replies, exitCode };
}

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } };

describe("the LSP session", { timeout: 60_000 }, () => {
  test("a request before initialize gets ServerNotInitialized", async () => {
    const { replies } = await rawSession([{ jsonrpc: "2.0", id: 7, method: "textDocument/completion", params: { textDocument: { uri: "file:///a.lwir.json" }, position: { line: 0, character: 0 } } }], (r) => r.some((m) => m.id === 7));
    const reply = replies.find((m) => m.id === 7);
    assert.equal(reply?.error?.code, ErrorCode.ServerNotInitialized, JSON.stringify(replies));
  });

  test("after shutdown requests get InvalidRequest; exit then ends the process with 0", async () => {
    const client = await startServer({});
    await client.request("shutdown", null);
    const reply = await client.reply("textDocument/hover", { textDocument: { uri: fileUri("x.lwir.json") }, position: { line: 0, character: 0 } });
    assert.equal(reply.error?.code, ErrorCode.InvalidRequest);
    client.notify("exit", null);
    assert.deepEqual(await client.waitForExit(20_000), { code: 0, signal: null });
  });

  test("exit without shutdown ends the process with 1", async () => {
    const { exitCode } = await rawSession([INIT, { jsonrpc: "2.0", method: "initialized", params: {} }, { jsonrpc: "2.0", method: "exit" }], (_r, code) => code !== undefined);
    assert.equal(exitCode, 1);
  });

  test("when the editor goes away (stdin closes) the server exits instead of lingering", async () => {
    const child = spawn(process.execPath, [join(process.cwd(), "dist", "server.js"), "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    // the session is under way (the initialize answer is out) before the editor goes
    const answered = new Promise<boolean>((done) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => { out += chunk.toString("utf8"); if (out.includes('"id":1')) done(true); });
      setTimeout(() => done(false), 20_000).unref();
    });
    child.stdin.write(frame(JSON.stringify(INIT)));
    assert.ok(await answered, "the server answered initialize");
    const exited = new Promise<boolean>((done) => { child.on("exit", () => done(true)); setTimeout(() => done(false), 20_000).unref(); });
    child.stdin.end();
    const gone = await exited;
    if (!gone) child.kill();
    assert.ok(gone, "the server exited once its input closed (waited up to 20 s)");
  });
});

describe("protocol abuse", { timeout: 240_000 }, () => {
  let client: LspClient;
  const uri = fileUri("protocol/release-notes.lwir.json");

  before(async () => {
    client = await startServer({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } }, timeout: 30_000 });
    client.open(uri, EXAMPLE);
    await client.waitForDiagnostics(uri, { version: 1 });
  });

  after(async () => {
    if (!client.alive) figures.serverCrashes++;
    await client.stop();
    reportFigures("protocol", figures);
  });

  /** The server still answers a plain request (a method it lacks: MethodNotFound is an answer). */
  async function stillAnswers(): Promise<void> {
    const reply = await client.reply("lwir/noSuchMethod", {});
    assert.equal(reply.error?.code, ErrorCode.MethodNotFound);
    assert.ok(client.alive);
  }

  /** After broken framing: one of a few probes (each given 3 s) is answered, and the server runs. */
  async function answersAgain(what: string): Promise<void> {
    for (let probe = 1; probe <= 5; probe++) {
      const reply = await client.reply("lwir/noSuchMethod", {}, 3000).catch(() => undefined);
      if (reply) {
        assert.equal(reply.error?.code, ErrorCode.MethodNotFound);
        assert.ok(client.alive);
        return;
      }
    }
    assert.fail(`no probe was answered after ${JSON.stringify(what)} (server ${client.alive ? "running" : "gone"})`);
  }

  test("malformed JSON-RPC: the server stays up, says what it got, and answers the next request", async () => {
    const logsBefore = errorLogs(client).length;
    const bodies = [
      "{not json", "{\"jsonrpc\": \"2.0\", \"id\": 1", "[]", "[{\"jsonrpc\":\"2.0\",\"id\":901,\"method\":\"shutdown\"}]", "\"hello\"", "null", "42",
      JSON.stringify({ jsonrpc: "2.0", id: 902 }), JSON.stringify({ jsonrpc: "2.0", id: 903, method: 17 }), JSON.stringify({ id: {}, method: "x" }),
      "\u0000\u0001\u0002", "\ud800",
    ];
    for (const body of bodies) {
      client.writeRaw(frame(body));
      await stillAnswers();
      figures.malformedMessages++;
    }
    // Broken framing costs at most the message it frames, and what arrives with it before the reader finds
    // the next header (a probe written right behind it may be taken as part of it): a later probe is answered.
    for (const header of ["Content-Type: application/json\r\n\r\n", "X: y\r\n\r\n", "garbage\r\n\r\n", "Content-Length: abc\r\n\r\n", "Content-Length: 3\r\n\r\n{}}"]) {
      client.writeRaw(header);
      await answersAgain(header);
      figures.malformedMessages++;
    }
    assert.ok(errorLogs(client).length > logsBefore, "malformed messages are logged");
    // a shutdown inside a JSON-RPC batch (LSP has no batches) was not acted on
    assert.equal((await client.reply("textDocument/completion", { textDocument: { uri }, position: { line: 0, character: 0 } })).error, undefined);
  });

  test("unknown methods: requests get MethodNotFound, notifications are ignored", async () => {
    for (const method of ["foo/bar", "textDocument/noSuchFeature", "$/noSuchRequest", "lwir/_nope"]) {
      const reply = await client.reply(method, { textDocument: { uri } });
      assert.equal(reply.error?.code, ErrorCode.MethodNotFound, method);
      figures.abusiveRequests++;
    }
    const before = client.seq;
    for (const method of ["foo/notify", "$/noSuchNotification", "textDocument/didSomething"]) client.notify(method, { x: 1 });
    await stillAnswers();
    assert.ok(client.received.slice(before).every((m) => m.method !== "window/logMessage" || m.params?.type !== 1), "unknown notifications are not errors");
  });

  test("every advertised request with missing or malformed params: InvalidParams or an answer, never InternalError", async () => {
    const requests = featureRequests(client.initializeResult.capabilities, uri, { line: 0, character: 0 });
    assert.ok(requests.length >= 2, "completion and code actions at least");
    const garbage: unknown[] = [
      null, undefined, {}, [], 42, "text", { textDocument: null }, { textDocument: { uri: 17 } }, { textDocument: { uri } },
      { textDocument: { uri }, position: null }, { textDocument: { uri }, position: { line: "0", character: {} } }, { textDocument: { uri }, position: { line: NaN } },
      { textDocument: { uri }, range: { start: 1, end: 2 }, context: "x" }, { textDocument: { uri }, positions: "x" }, { textDocument: { uri }, positions: [null] },
      { textDocument: { uri }, context: { diagnostics: [null, 1, { range: null }], only: "quickfix" }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } },
      { textDocument: { uri }, position: { line: 0, character: 0 }, newName: null }, { textDocument: { uri }, position: { line: 0, character: 0 }, context: null },
    ];
    for (const { method } of requests) {
      for (const params of garbage) {
        const got = await outcome(client.request(method, params));
        if (!got.ok) {
          assert.ok(got.code !== undefined, `${method} ${JSON.stringify(params)}: no answer: ${String(got.error)}`);
          assert.notEqual(got.code, ErrorCode.InternalError, `${method} ${JSON.stringify(params)}: ${String(got.error)}`);
        }
        figures.abusiveRequests++;
      }
    }
    // the malformed didOpen/didChange/didClose notifications
    for (const [method, params] of [
      ["textDocument/didOpen", null], ["textDocument/didOpen", { textDocument: { uri: fileUri("protocol/no-text.lwir.json"), languageId: "json", version: 1 } }],
      ["textDocument/didOpen", { textDocument: { uri: fileUri("protocol/number-text.lwir.json"), languageId: "json", version: 1, text: 17 } }],
      ["textDocument/didChange", null], ["textDocument/didChange", { textDocument: { uri: fileUri("protocol/never-opened.lwir.json"), version: 2 }, contentChanges: [{ text: "{}" }] }],
      ["textDocument/didClose", { textDocument: { uri: fileUri("protocol/never-opened.lwir.json") } }], ["textDocument/didClose", null],
    ] as const) {
      client.notify(method, params);
    }
    await stillAnswers();
    for (const name of ["no-text", "number-text"]) {
      const other = fileUri(`protocol/${name}.lwir.json`);
      figures.abusiveRequests += await askEverything(client, other, { line: 0, character: 0 }, 30_000, `${name} document`);
      assert.deepEqual(client.publishedFor(other).filter((p) => p.diagnostics.length > 0), [], `${name}: no diagnostics for a document without text`);
    }
    assert.equal(client.publishedFor(fileUri("protocol/never-opened.lwir.json")).length, 0, "nothing published for a document never opened");
  });

  test("requests for documents that are not open: empty answers, not errors", async () => {
    for (const name of ["nowhere.lwir.json", "nowhere.lwir.yaml", "plain.json", "untitled"]) {
      const other = name === "untitled" ? "untitled:Untitled-1" : fileUri(`protocol/${name}`);
      for (const { method, params } of featureRequests(client.initializeResult.capabilities, other, { line: 3, character: 4 })) {
        const got = await outcome(client.request(method, params));
        assert.ok(got.ok, `${method} for ${name}: ${got.ok ? "" : String(got.error)}`);
        const result = got.result as unknown;
        const empty = result === null || (Array.isArray(result) && result.length === 0) ||
          (typeof result === "object" && result !== null && (
            ("items" in result && Array.isArray(result.items) && result.items.length === 0) ||
            ("data" in result && Array.isArray(result.data) && result.data.length === 0)));
        assert.ok(empty, `${method} for ${name}: an empty answer, got ${JSON.stringify(result).slice(0, 200)}`);
        figures.abusiveRequests++;
      }
    }
  });

  test("out-of-range positions: answers whose edits stay inside the document", async () => {
    const lineLengths = EXAMPLE.split("\n").map((l) => l.replace(/\r$/, "").length);
    const lines = lineLengths.length;
    const positions = [
      { line: lines + 10, character: 0 }, { line: 0, character: 100_000 }, { line: 2 ** 31 - 1, character: 2 ** 31 - 1 }, { line: -1, character: -1 },
      { line: 1.5, character: 2.5 }, { line: 1e300, character: 0 },
    ];
    const inside = (p: { line: number; character: number }) =>
      Number.isInteger(p.line) && p.line >= 0 && p.line < lines && Number.isInteger(p.character) && p.character >= 0 && p.character <= lineLengths[p.line];
    for (const position of positions) {
      figures.abusiveRequests += await askEverything(client, uri, position, 30_000, `position ${JSON.stringify(position)}`);
      const completion = await client.request<{ items: Array<{ label: string; textEdit?: { range: { start: { line: number; character: number }; end: { line: number; character: number } } } }> } | null>(
        "textDocument/completion", { textDocument: { uri }, position });
      for (const item of completion?.items ?? []) {
        if (item.textEdit) assert.ok(inside(item.textEdit.range.start) && inside(item.textEdit.range.end), `${item.label} at ${JSON.stringify(position)}: ${JSON.stringify(item.textEdit.range)}`);
      }
    }
  });

  test("changes with wrong versions or ranges: no crash, and the next good change resynchronises", async () => {
    const doc = fileUri("protocol/changes.lwir.json");
    client.open(doc, EXAMPLE);
    await client.waitForDiagnostics(doc, { version: 1 });
    const bad = (version: unknown, contentChanges: unknown) => {
      client.notify("textDocument/didChange", { textDocument: { uri: doc, version }, contentChanges });
      figures.badChanges++;
    };
    bad(2, [{ range: { start: { line: 9999, character: 0 }, end: { line: 99999, character: 5 } }, text: "X" }]);
    bad(3, [{ range: { start: { line: 5, character: 10 }, end: { line: 2, character: 0 } }, text: "Y" }]);
    bad(4, [{ range: { start: { line: -1, character: -5 }, end: { line: 0, character: 1 } }, text: "" }]);
    bad(5, [{ range: { start: { line: 0.5, character: null }, end: { line: "a", character: null } }, text: "Z" }]);
    bad(6, [{ text: 42 }]);
    bad(7, [{ range: null, text: "" }]);
    bad(8, [null]);
    bad(9, "not a list");
    bad(null, [{ text: "{}" }]);
    bad(undefined, [{ text: "{}" }]);
    bad(3, [{ text: "{\"older\": true}" }]); // a version older than the last one
    bad(9, []); // no change at all
    bad(2 ** 53, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: " " }]);
    await stillAnswers();
    // A well-behaved full replacement with a version above every earlier one: diagnostics for exactly that text.
    const text = EXAMPLE.replace('"gpt-4o-mini"', '"gpt-unknown"');
    const version = 2 ** 53 + 2;
    client.notify("textDocument/didChange", { textDocument: { uri: doc, version }, contentChanges: [{ text }] });
    const published = await client.waitForDiagnostics(doc, { version });
    assert.deepEqual(published.diagnostics, expectedDiagnostics(text, "json", doc));
    // reopening without closing, then closing twice
    client.notify("textDocument/didOpen", { textDocument: { uri: doc, languageId: "json", version: 1, text: EXAMPLE } });
    client.notify("textDocument/didClose", { textDocument: { uri: doc } });
    client.notify("textDocument/didClose", { textDocument: { uri: doc } });
    await stillAnswers();
    assert.ok(client.alive);
  });

  test("cancelling unknown, finished and odd request ids is harmless", async () => {
    for (const id of [999_999, "no-such-id", null, { x: 1 }, -1]) client.notify("$/cancelRequest", { id });
    const { id, result } = client.startRequest("textDocument/completion", { textDocument: { uri }, position: { line: 3, character: 4 } });
    await result;
    client.cancel(id);
    await stillAnswers();
  });

  test("floods of 10,000 changes in a burst: the last version's diagnostics; nothing retained, from one flood to the next", async () => {
    const doc = fileUri("protocol/flood.lwir.json");
    const random = randomSource(SEED + 7);
    let version = 1;
    let text = EXAMPLE;
    client.open(doc, text);
    await client.waitForDiagnostics(doc, { version });

    /** `count` single-character edits written in batches, without waiting, with completions among them. */
    const burst = async (count: number): Promise<void> => {
      const pendingCompletions: Array<Promise<unknown>> = [];
      let batch: object[] = [];
      for (let i = 0; i < count; i++) {
        const offset = randomInt(random, 0, text.length);
        const remove = random() < 0.45 && offset < text.length;
        const insert = remove ? "" : "x{\"[ ,:\n"[randomInt(random, 0, 7)];
        const range = { start: positionAt(text, offset), end: positionAt(text, remove ? offset + 1 : offset) };
        text = text.slice(0, offset) + insert + text.slice(remove ? offset + 1 : offset);
        version++;
        batch.push({ jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri: doc, version }, contentChanges: [{ range, text: insert }] } });
        if (batch.length === 200 || i === count - 1) {
          client.writeTogether(batch);
          batch = [];
          pendingCompletions.push(client.request("textDocument/completion", { textDocument: { uri: doc }, position: range.start }, 60_000));
        }
      }
      const answers = await Promise.all(pendingCompletions.map((p) => outcome(p)));
      for (const a of answers) assert.ok(a.ok || (a.code !== undefined && a.code !== ErrorCode.InternalError), `completion during the flood: ${a.ok ? "" : String(a.error)}`);
      const published = await client.waitForDiagnostics(doc, { version, timeout: 60_000 });
      assert.deepEqual(published.diagnostics, expectedDiagnostics(text, "json", doc), "the last version's diagnostics, for the text the client has");
    };

    // What a leak would show: memory still reachable after a full garbage collection (the probe collects
    // first), on the JS heap or outside it (buffers). RSS is only reported: it also holds what the allocator
    // keeps for reuse after a burst, which comes and goes with the machine's load (a bound on it failed 1 run
    // in 5 with nothing leaking). A leak of anything per change (a document version, an analysis, a pending
    // timer's closure: kilobytes each) grows with every flood of 10,000 changes by tens of MB.
    const retained = (m: ServerMemory) => m.heapUsed + m.external;
    // Warm up with a smaller flood, so the baseline includes what any flood leaves allocated (JIT code, pools).
    await burst(2_000);
    const baseline: ServerMemory = await serverMemory(client);
    assert.ok(baseline.gc, "the server was started with --expose-gc");
    const started = Date.now();
    await burst(10_000);
    figures.floodMs = Date.now() - started;
    const after: ServerMemory[] = [await serverMemory(client)];
    for (let round = 1; round < 3; round++) {
      await burst(10_000);
      after.push(await serverMemory(client));
    }
    figures.floodChanges = 30_000;
    figures.retainedBaselineMB = mb(retained(baseline));
    figures.retainedAfterFloodsMB = after.map((m) => mb(retained(m))).join(" → ");
    figures.rssBaselineMB = mb(baseline.rss);
    figures.rssAfterFloodsMB = after.map((m) => mb(m.rss)).join(" → ");
    console.log(`flood: 10,000 changes in ${figures.floodMs} ms; retained after GC ${figures.retainedBaselineMB} MB → ${figures.retainedAfterFloodsMB} MB; RSS ${figures.rssBaselineMB} MB → ${figures.rssAfterFloodsMB} MB`);
    // Generous bounds (a few MB of noise: the document's text and its analysis differ from round to round),
    // far below what a leak of anything per change would add.
    for (const [i, m] of after.entries()) {
      assert.ok(retained(m) <= retained(baseline) * 1.2 + 4 * MB, `retained after flood ${i + 1}: ${mb(retained(m))} MB vs the baseline ${mb(retained(baseline))} MB`);
    }
    assert.ok(retained(after[2]) <= retained(after[0]) + 4 * MB, `no growth from one flood to the next: ${figures.retainedAfterFloodsMB} MB`);
    client.close(doc);
  });

  test("the server never exited and logged no error of its own", () => {
    assert.ok(client.alive);
    // Malformed messages are logged by the JSON-RPC layer; anything logged by our handlers starts with "lwir:".
    assert.deepEqual(errorLogs(client).filter((m) => m.startsWith("lwir:")), []);
  });
});
