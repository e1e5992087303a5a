// Protocol tests of the workspace scan (server/src/lsp/workspaceScan.ts, watchedFiles.ts): a real folder
// on disk whose files are never opened, the built server over stdio.
//
// "Unreadable" files: the tests run as root, where chmod 000 does not stop a read, so unreadable entries
// are made of things no one can read as text: a FIFO (reading it would block: the server must not), a
// dangling symbolic link and a link to itself (a loop). A folder link back to its parent checks that the
// walk does not loop.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { stringify as toYaml } from "yaml";
import { analyzeText } from "../../server/src/service/analysis";
import { LspClient, delay, type Diagnostic, type Message, type StartOptions } from "./harness";
import { type Json, aiStep, toolStep, withSteps } from "../unit/lwir-fixtures";

const VALID = withSteps([aiStep("write", { with: { model: "model-b", prompt: "{{ input.topic }}" } })]);
const BROKEN = withSteps([
  toolStep("extra"),
  toolStep("gather", { needs: ["extra"] }),
  aiStep("write", { needs: ["gather"], with: { model: "model-z", prompt: "{{ steps.gather.output }} {{ steps.extra.output }}" } }),
]);
const json = (doc: Json) => JSON.stringify(doc, null, 2) + "\n";
const MAX_FILE_SIZE = 4000;

/** Findings and parse errors of a text by code and range, as the server should report them. */
function expected(text: string, format: "json" | "yaml"): string[] {
  const analysis = analyzeText(text, format);
  return [
    ...analysis.document.parseErrors.map((p) => key({ code: "parse", range: p.range })),
    ...analysis.findings.map((f) => key({ code: f.code, range: f.range })),
  ].sort();
}
function key(d: { code?: unknown; range: Diagnostic["range"] }): string {
  const r = d.range;
  return `${String(d.code)} ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}
const keys = (diagnostics: Diagnostic[]) => diagnostics.map(key).sort();

/** A folder with one file of each kind; returns its path and the URIs by short name. */
function makeWorkspace(): { root: string; uri: (relative: string) => string } {
  const root = mkdtempSync(join(tmpdir(), "lwir-ws-"));
  const put = (relative: string, content: string | Buffer) => {
    mkdirSync(join(root, relative, ".."), { recursive: true });
    writeFileSync(join(root, relative), content);
  };
  put("valid.lwir.json", json(VALID));
  put("flows/invalid.lwir.yaml", toYaml(BROKEN));
  put("broken.lwir.json", '{"apiVersion": "littleworkflow.dev/v1", "steps": [');
  put("big.lwir.json", json({ ...VALID, description: "x".repeat(MAX_FILE_SIZE) }));
  put("binary.lwir.json", Buffer.from([0x7b, 0x00, 0x22, 0x7d]));
  // read as the runtime reads them: Latin-1 bytes as U+FFFD (a warning), two BOMs (the second in the first key)
  put("latin1.lwir.yaml", Buffer.from(toYaml(VALID).replace("name: fixture-workflow", "name: caf\u00e9"), "latin1"));
  put("two-boms.lwir.yaml", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from(toYaml(VALID), "utf8")]));
  put("deep/a/b/c/d/e/f/g/nested.lwir.yml", toYaml(BROKEN));
  put("node_modules/pkg/dep.lwir.json", json(BROKEN)); // never searched
  put("generated/out.lwir.json", json(BROKEN)); // lwir.files.exclude
  put("included/plain.yaml", toYaml(BROKEN)); // lwir.files.include, and it declares apiVersion
  put("included/other.yaml", "name: not a workflow\n"); // included, but not LWIR
  put("notes.json", json(BROKEN)); // not an LWIR name, not included
  execFileSync("mkfifo", [join(root, "fifo.lwir.json")]);
  symlinkSync(join(root, "nowhere.lwir.json"), join(root, "dangling.lwir.yaml"));
  symlinkSync(join(root, "loop.lwir.json"), join(root, "loop.lwir.json"));
  symlinkSync("..", join(root, "flows", "back")); // a folder loop
  const base = pathToFileURL(root).href;
  return { root, uri: (relative) => `${base}/${relative.split("/").map(encodeURIComponent).join("/")}` };
}

const SETTINGS = { validation: { delay: 0, scope: "workspace" }, maxFileSize: MAX_FILE_SIZE, files: { include: ["included/*.yaml"], exclude: ["generated/**"] } };

function startOptions(root: string, extra: Partial<StartOptions> = {}): StartOptions {
  return {
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "ws" }],
    initializationOptions: { settings: SETTINGS },
    capabilities: { window: { workDoneProgress: true }, workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true } },
    timeout: 15000,
    ...extra,
  };
}

/** The `$/progress` end of the scan's progress (its token came with window/workDoneProgress/create). */
function waitForScanEnd(client: LspClient, after = 0): Promise<Message> {
  return client.waitFor((m) => m.method === "$/progress" && m.params?.value?.kind === "end" && client.received.indexOf(m) >= after, "the scan's progress to end");
}

/** The last diagnostics pushed for a URI (undefined if none). */
function lastPushed(client: LspClient, uri: string): Diagnostic[] | undefined {
  const all = client.publishedFor(uri);
  return all.length === 0 ? undefined : all[all.length - 1].diagnostics;
}

function watched(client: LspClient, changes: Array<{ uri: string; type: 1 | 2 | 3 }>): void {
  client.notify("workspace/didChangeWatchedFiles", { changes });
}

describe("a push-only client that names no scope", () => {
  test("gets no workspace scan (an editor may start one server per language), and a scan once the setting says workspace", async () => {
    const ws = makeWorkspace();
    const { scope: _scope, ...validation } = SETTINGS.validation;
    const client = await LspClient.start(startOptions(ws.root, { initializationOptions: { settings: { ...SETTINGS, validation } } }));
    try {
      // An opened document is validated at once; the closed invalid one is not published.
      const opened = ws.uri("valid.lwir.json");
      client.notify("textDocument/didOpen", { textDocument: { uri: opened, languageId: "json", version: 1, text: readFileSync(new URL(opened), "utf8") } });
      await client.waitFor((m) => m.method === "textDocument/publishDiagnostics" && m.params?.uri === opened, "the opened document's diagnostics");
      assert.equal(client.publishedFor(ws.uri("flows/invalid.lwir.yaml")).length, 0, "no workspace problems without the setting");
      const from = client.received.length;
      client.notify("workspace/didChangeConfiguration", { settings: { lwir: SETTINGS } });
      await waitForScanEnd(client, from);
      assert.deepEqual(keys(lastPushed(client, ws.uri("flows/invalid.lwir.yaml"))!), expected(toYaml(BROKEN), "yaml"));
    } finally {
      await client.stop();
      rmSync(ws.root, { recursive: true, force: true });
    }
  });
});

describe("workspace scan, pushed diagnostics", () => {
  let ws: ReturnType<typeof makeWorkspace>;
  let client: LspClient;
  before(async () => {
    ws = makeWorkspace();
    client = await LspClient.start(startOptions(ws.root));
    await waitForScanEnd(client);
  });
  after(async () => {
    await client.stop();
    rmSync(ws.root, { recursive: true, force: true });
  });

  test("every kind of file, none of them opened, gets the expected diagnostics", async () => {
    const { uri } = ws;
    // Valid: nothing (no publication at all is needed for a file without problems).
    assert.deepEqual(lastPushed(client, uri("valid.lwir.json")) ?? [], []);
    assert.deepEqual(keys(lastPushed(client, uri("flows/invalid.lwir.yaml"))!), expected(toYaml(BROKEN), "yaml"));
    assert.ok(expected(toYaml(BROKEN), "yaml").length >= 2);
    assert.deepEqual(keys(lastPushed(client, uri("deep/a/b/c/d/e/f/g/nested.lwir.yml"))!), expected(toYaml(BROKEN), "yaml"));
    assert.deepEqual(keys(lastPushed(client, uri("included/plain.yaml"))!), expected(toYaml(BROKEN), "yaml"));
    const broken = lastPushed(client, uri("broken.lwir.json"))!;
    assert.ok(broken.length > 0 && broken.every((d) => d.code === "parse"), JSON.stringify(broken));
    assert.deepEqual(lastPushed(client, uri("big.lwir.json"))!.map((d) => d.code), ["lwir.file_too_large"]);
    // Not UTF-8 is not binary: valid for the runtime (it reads caf\ufffd), a warning at the byte.
    const latin1 = lastPushed(client, uri("latin1.lwir.yaml"))!;
    assert.deepEqual(latin1.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character]), [["lwir.invalid_utf8", 2, 3, 11]]);
    // The first BOM dropped (as the editor and the runtime's yaml do), the second read into the first key,
    // which our unknown-key notice names (the BOM made visible in words) beside the runtime's finding.
    const twoBoms = lastPushed(client, uri("two-boms.lwir.yaml"))!;
    assert.deepEqual(twoBoms.map((d) => [d.code, (d.data as { path: string }).path]), [["schema.invalid", "$.apiVersion"], ["lwir.unknown_key", "$.\ufeffapiVersion"]]);
    assert.match(String(twoBoms[1].message), /invisible byte-order mark \(U\+FEFF\)/);
    const reasons: Record<string, RegExp> = {
      "binary.lwir.json": /binary file/,
      "fifo.lwir.json": /not a regular file/,
      "dangling.lwir.yaml": /dangling symbolic link/,
      "loop.lwir.json": /symbolic link loop/,
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const got = lastPushed(client, uri(name));
      assert.equal(got?.length, 1, `${name}: ${JSON.stringify(got)}`);
      assert.equal(got![0].code, "parse");
      assert.match(String(got![0].message), reason);
    }
    // Never reported: node_modules, excluded, not LWIR, not included, and nothing twice through the folder loop.
    for (const name of ["node_modules/pkg/dep.lwir.json", "generated/out.lwir.json", "included/other.yaml", "notes.json"]) {
      assert.equal(lastPushed(client, uri(name)), undefined, name);
    }
    assert.ok(!client.published.some((p) => p.uri.includes("/back/")), "the folder loop was walked");
    assert.ok(client.alive);
  });

  test("the scan reports work-done progress: Checking LWIR files n/total", () => {
    assert.ok(client.serverRequests.some((m) => m.method === "window/workDoneProgress/create"));
    const progress = client.received.filter((m) => m.method === "$/progress").map((m) => m.params.value);
    assert.equal(progress[0].kind, "begin");
    assert.equal(progress[0].title, "Checking LWIR files");
    assert.equal(progress[0].cancellable, true);
    const last = progress.filter((v) => v.kind === "report").at(-1);
    // valid, invalid, broken, big, binary, latin1, two-boms, nested, included/plain + other, fifo, dangling, loop
    assert.equal(last.message, "13/13");
  });

  test("watchers are registered dynamically for LWIR files, the include globs and deletions", () => {
    const registration = client.serverRequests.find((m) => m.method === "client/registerCapability" &&
      m.params.registrations.some((r: { method: string }) => r.method === "workspace/didChangeWatchedFiles"));
    assert.ok(registration);
    const watchers = registration!.params.registrations.find((r: { method: string }) => r.method === "workspace/didChangeWatchedFiles").registerOptions.watchers;
    assert.deepEqual(watchers.map((w: { globPattern: string }) => w.globPattern), ["**/*.lwir.{json,yaml,yml}", "**/.lwir.{yaml,json}", "**/included/*.yaml", "**/*"]);
  });

  test("a disk edit and its watched-file event update the file's problems; delete clears them; create adds them", async () => {
    const { uri, root } = ws;
    writeFileSync(join(root, "flows/invalid.lwir.yaml"), toYaml(VALID));
    const before = client.seq;
    watched(client, [{ uri: uri("flows/invalid.lwir.yaml"), type: 2 }]);
    await client.waitForDiagnostics(uri("flows/invalid.lwir.yaml"), { after: before, predicate: (d) => d.length === 0 });

    unlinkSync(join(root, "broken.lwir.json"));
    watched(client, [{ uri: uri("broken.lwir.json"), type: 3 }]);
    await client.waitForDiagnostics(uri("broken.lwir.json"), { after: before, predicate: (d) => d.length === 0 });

    writeFileSync(join(root, "fresh.lwir.json"), json(BROKEN));
    watched(client, [{ uri: uri("fresh.lwir.json"), type: 1 }]);
    const fresh = await client.waitForDiagnostics(uri("fresh.lwir.json"), { after: before });
    assert.deepEqual(keys(fresh.diagnostics), expected(json(BROKEN), "json"));

    // A deleted folder clears everything below it.
    rmSync(join(root, "deep"), { recursive: true });
    watched(client, [{ uri: uri("deep"), type: 3 }]);
    await client.waitForDiagnostics(uri("deep/a/b/c/d/e/f/g/nested.lwir.yml"), { after: before, predicate: (d) => d.length === 0 });
  });

  test("an open document's editor text wins over its disk text, until it closes", async () => {
    const { uri, root } = ws;
    const file = uri("flows/invalid.lwir.yaml"); // valid on disk now (previous test)
    client.open(file, toYaml(BROKEN));
    const opened = await client.waitForDiagnostics(file, { version: 1 });
    assert.deepEqual(keys(opened.diagnostics), expected(toYaml(BROKEN), "yaml"));

    // The disk changes while it is open: ignored.
    const mark = client.seq;
    writeFileSync(join(root, "flows/invalid.lwir.yaml"), '{"apiVersion": ');
    watched(client, [{ uri: file, type: 2 }]);
    // Typing: the editor's text is what is validated.
    client.edit(file, "model-z", "model-b");
    const typed = await client.waitForDiagnostics(file, { version: 2 });
    assert.deepEqual(keys(typed.diagnostics), expected(client.text(file), "yaml"));
    await delay(300);
    assert.ok(client.publishedFor(file).filter((p) => p.seq > mark).every((p) => p.version !== undefined), "a disk result was published for an open document");

    // Closed: back to the disk text (which does not parse).
    const closing = client.seq;
    client.close(file);
    const back = await client.waitForDiagnostics(file, { after: closing, predicate: (d) => d.length > 0 });
    assert.ok(back.diagnostics.every((d) => d.code === "parse"));
    assert.equal(back.version, undefined);
  });

  test("scope openFiles clears every workspace problem of files not open", async () => {
    const { uri } = ws;
    const before = client.seq;
    client.notify("workspace/didChangeConfiguration", { settings: { lwir: { ...SETTINGS, validation: { delay: 0, scope: "openFiles" } } } });
    for (const name of ["fresh.lwir.json", "included/plain.yaml", "big.lwir.json", "binary.lwir.json", "flows/invalid.lwir.yaml"]) {
      await client.waitForDiagnostics(uri(name), { after: before, predicate: (d) => d.length === 0 });
    }
    // And events no longer bring them back.
    watched(client, [{ uri: uri("fresh.lwir.json"), type: 2 }]);
    await delay(300);
    assert.deepEqual(lastPushed(client, uri("fresh.lwir.json")), []);
  });
});

describe("workspace scan, pulled workspace diagnostics", () => {
  let ws: ReturnType<typeof makeWorkspace>;
  let client: LspClient;
  before(async () => {
    ws = makeWorkspace();
    client = await LspClient.start(startOptions(ws.root, { pull: true }));
  });
  after(async () => {
    await client.stop();
    rmSync(ws.root, { recursive: true, force: true });
  });

  type Report = { kind: "full" | "unchanged"; uri: string; resultId: string; items?: Diagnostic[] };

  test("workspace/diagnostic: full reports, then unchanged ones with the previous result ids, a full one for what changed", async () => {
    const { uri, root } = ws;
    assert.equal(client.initializeResult.capabilities.diagnosticProvider && (client.initializeResult.capabilities.diagnosticProvider as { workspaceDiagnostics: boolean }).workspaceDiagnostics, true);
    const first = await client.request<{ items: Report[] }>("workspace/diagnostic", { previousResultIds: [] });
    const byUri = new Map(first.items.map((r) => [r.uri, r]));
    assert.ok(first.items.every((r) => r.kind === "full" && typeof r.resultId === "string"));
    assert.deepEqual(keys(byUri.get(uri("flows/invalid.lwir.yaml"))!.items!), expected(toYaml(BROKEN), "yaml"));
    assert.deepEqual(byUri.get(uri("valid.lwir.json"))!.items, []);
    assert.deepEqual(byUri.get(uri("big.lwir.json"))!.items!.map((d) => d.code), ["lwir.file_too_large"]);
    assert.equal(byUri.has(uri("node_modules/pkg/dep.lwir.json")), false);
    assert.equal(byUri.has(uri("included/other.yaml")), false);
    assert.equal(client.publishedFor(uri("flows/invalid.lwir.yaml")).length, 0, "a pulling client got pushed diagnostics too");

    // Nothing changed: the request is held; a change on disk answers it.
    const previousResultIds = first.items.map((r) => ({ uri: r.uri, value: r.resultId }));
    const second = client.request<{ items: Report[] }>("workspace/diagnostic", { previousResultIds });
    await delay(200);
    writeFileSync(join(root, "flows/invalid.lwir.yaml"), toYaml(VALID));
    watched(client, [{ uri: uri("flows/invalid.lwir.yaml"), type: 2 }]);
    const answer = await second;
    const changed = answer.items.find((r) => r.uri === uri("flows/invalid.lwir.yaml"))!;
    assert.equal(changed.kind, "full");
    assert.deepEqual(changed.items, []);
    assert.notEqual(changed.resultId, byUri.get(changed.uri)!.resultId);
    const unchanged = answer.items.filter((r) => r.kind === "unchanged");
    assert.equal(unchanged.length, first.items.length - 1);
    for (const r of unchanged) assert.equal(r.resultId, byUri.get(r.uri)!.resultId);

    // A deleted file is reported once as empty to a client that had it.
    const third = client.request<{ items: Report[] }>("workspace/diagnostic", { previousResultIds: answer.items.map((r) => ({ uri: r.uri, value: r.resultId })) });
    unlinkSync(join(root, "broken.lwir.json"));
    watched(client, [{ uri: uri("broken.lwir.json"), type: 3 }]);
    const gone = (await third).items.find((r) => r.uri === uri("broken.lwir.json"))!;
    assert.equal(gone.kind, "full");
    assert.deepEqual(gone.items, []);
  });

  test("textDocument/diagnostic for a file that is not open answers its disk report (VS Code pulls once after a close)", async () => {
    const report = await client.pullDiagnostics(ws.uri("binary.lwir.json"));
    assert.equal(report.kind, "full");
    assert.match(String(report.items![0].message), /binary file/);
    const again = await client.pullDiagnostics(ws.uri("binary.lwir.json"), report.resultId);
    assert.equal(again.kind, "unchanged");
  });

  test("partial results stream while the scan runs when the client gives a token", async () => {
    const token = "partial-1";
    // Switching the scope off and on rescans.
    client.notify("workspace/didChangeConfiguration", { settings: { lwir: { ...SETTINGS, validation: { delay: 0, scope: "openFiles" } } } });
    await delay(100);
    client.notify("workspace/didChangeConfiguration", { settings: { lwir: { ...SETTINGS, validation: { delay: 0, scope: "workspace" } } } });
    const final = await client.request<{ items: Report[] }>("workspace/diagnostic", { previousResultIds: [], partialResultToken: token });
    assert.deepEqual(final.items, []);
    const streamed = client.received.filter((m) => m.method === "$/progress" && m.params.token === token).flatMap((m) => m.params.value.items as Report[]);
    assert.ok(streamed.some((r) => r.uri === ws.uri("deep/a/b/c/d/e/f/g/nested.lwir.yml") && r.items!.length > 0));
  });
});

describe("pulled workspace diagnostics and closed documents", () => {
  test("with scope openFiles, closing a document sends an empty workspace report for it (VS Code forgets the document's own)", async () => {
    const ws = makeWorkspace();
    const client = await LspClient.start(startOptions(ws.root, { pull: true, initializationOptions: { settings: { ...SETTINGS, validation: { delay: 0, scope: "openFiles" } } } }));
    try {
      const file = ws.uri("flows/invalid.lwir.yaml");
      client.open(file, toYaml(BROKEN));
      const open = await client.pullDiagnostics(file);
      assert.ok(open.items!.length > 0);
      const pending = client.request<{ items: Array<{ kind: string; uri: string; items?: Diagnostic[] }> }>("workspace/diagnostic", { previousResultIds: [] });
      await delay(200);
      client.close(file);
      const report = (await pending).items.find((r) => r.uri === file);
      assert.equal(report?.kind, "full");
      assert.deepEqual(report?.items, []);
      // Nothing else: the scope is the open files.
      assert.equal((await pending).items.length, 1);
    } finally {
      await client.stop();
      rmSync(ws.root, { recursive: true, force: true });
    }
  });
});

describe("open documents validate at once; edits wait for the quiet period", () => {
  test("didOpen is not debounced, didChange is", async () => {
    const client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 3000 } } }, timeout: 2500 });
    try {
      const file = "file:///lwir-test/open-now.lwir.json";
      client.open(file, json(BROKEN));
      // Published although the delay (3 s) is longer than this wait (2.5 s).
      const opened = await client.waitForDiagnostics(file, { version: 1 });
      assert.ok(opened.diagnostics.length > 0);
      client.edit(file, "model-z", "model-b");
      await delay(500);
      assert.equal(client.publishedFor(file).filter((p) => p.version === 2).length, 0, "an edit was validated before its quiet period");
    } finally {
      await client.stop();
    }
  });
});

describe("lwir.validation.maxFiles", () => {
  test("at most maxFiles files are checked, and the user is told once", async () => {
    const ws = makeWorkspace();
    const client = await LspClient.start(startOptions(ws.root, { initializationOptions: { settings: { ...SETTINGS, validation: { delay: 0, maxFiles: 3, scope: "workspace" } } } }));
    try {
      await waitForScanEnd(client);
      const notice = await client.waitForNotification("window/showMessage");
      assert.equal(notice.type, 2); // warning
      assert.match(notice.message, /more than 3 LWIR files/);
      assert.match(notice.message, /lwir\.validation\.maxFiles/);
      const reportsBegin = client.received.filter((m) => m.method === "$/progress" && m.params.value.kind === "report").at(-1);
      assert.equal(reportsBegin!.params.value.message, "3/3");
      assert.ok(new Set(client.published.map((p) => p.uri)).size <= 3);
    } finally {
      await client.stop();
      rmSync(ws.root, { recursive: true, force: true });
    }
  });
});
