// Safety: the server and the CLI only read documents. Whole sessions run with every way out of the process
// (outbound network: net/tls/http/https/http2/dgram/dns and fetch; child processes; vm; worker threads)
// replaced by recording stubs (test/robust/preload.ts), over documents that invite trouble (remote $ref and
// $schema URLs, code.run files that would spawn a process and write a file, network permissions, YAML tags
// of other languages), and nothing may try to get out. A static check finds no eval / Function / vm /
// child_process / network module in our sources, and no eval( or new Function( in the shipped bundles.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import ts from "typescript";
import { fileUri, positionAt, type LspClient } from "../lsp/harness";
import { baseWorkflow } from "../unit/lwir-fixtures";
import {
  CONFORMANCE,
  ROOT, SEED, askEverything, cliReports, conformanceSample, exampleDocs, outcome, preloadScript, reportFigures, runCli, startServer, type SourceDoc,
} from "./support";

const figures = { serverDocuments: 0, serverRequests: 0, cliFiles: 0, escapeAttempts: 0, sourceFilesScanned: 0, bundlesScanned: 0 };

/** Documents that would make a careless tool reach out: URLs to fetch, code to run, tags to instantiate. */
function temptingDocuments(marker: string): SourceDoc[] {
  const sneaky = `require('child_process').execSync('touch ${marker}'); fetch('http://127.0.0.1:9/leak'); eval('1')`;
  const doc = baseWorkflow();
  doc.$schema = "http://127.0.0.1:9/schema.json";
  doc.input.schema.$ref = "http://127.0.0.1:9/defs.json#/input";
  doc.input.schema.properties.remote = { $ref: "https://127.0.0.1:9/remote.json", $id: "http://127.0.0.1:9/id" };
  doc.input.schema.properties.local = { $ref: "file:///etc/passwd" };
  doc.permissions.network = ["http://127.0.0.1:9", "127.0.0.1:9"];
  doc.steps.push({
    id: "run", uses: "code.run", needs: ["write"],
    with: {
      entrypoint: "main.ts",
      files: { "main.ts": { content: sneaky, sha256: "sha256:" + createHash("sha256").update(sneaky).digest("hex") } },
      sandbox: { network: "allow" },
    },
    output: { mode: "text" },
  });
  doc.steps[1].with.prompt += " {{ fetch('http://127.0.0.1:9') }} {{ constructor.constructor('return process')() }}";
  const yaml = [
    "apiVersion: littleworkflow.dev/v0.1", "kind: Workflow", "metadata: {name: tags, version: 0.1.0}",
    "input: {schema: {$ref: 'http://127.0.0.1:9/in.json'}}", "output: {schema: {type: object}}",
    "permissions: {models: [m], tools: [], secrets: [], network: ['http://127.0.0.1:9']}",
    "steps:",
    "  - id: a",
    "    uses: ai.generate",
    `    with: {model: m, prompt: !!js/function "function () { require('child_process').execSync('touch ${marker}') }"}`,
    "    output: !!python/object:os.system {mode: text}",
    "  - !<tag:yaml.org,2002:js/undefined> {id: b}",
    "",
  ].join("\n");
  return [
    { name: "tempting.lwir.json", format: "json", text: JSON.stringify(doc, null, 2) },
    { name: "tags.lwir.yaml", format: "yaml", text: yaml },
  ];
}

after(() => reportFigures("safety", figures));

function escapes(log: string): string[] {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l.trim() !== "") : [];
}

/** How many processes ran with the stubs in place. */
function stubbedProcesses(log: string): number {
  return existsSync(`${log}.loaded`) ? readFileSync(`${log}.loaded`, "utf8").split("\n").filter((l) => l !== "").length : 0;
}

describe("no way out of the process", { timeout: 240_000 }, () => {
  let dir: string;
  let marker: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "lwir-safety-"));
    marker = join(dir, "pwned");
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("the recording stubs catch every kind of attempt (so an empty record means something)", () => {
    const log = join(dir, "sanity.log");
    const script = [
      "const tries = [",
      "  () => require('net').connect(9, '127.0.0.1'),",
      "  () => new (require('net').Socket)().connect(9, '127.0.0.1'),",
      "  () => require('tls').connect(9, '127.0.0.1'),",
      "  () => require('http').get('http://127.0.0.1:9/'),",
      "  () => require('https').request('https://127.0.0.1:9/'),",
      "  () => require('http2').connect('http://127.0.0.1:9'),",
      "  () => require('dgram').createSocket('udp4'),",
      "  () => require('dns').lookup('example.invalid', () => {}),",
      "  () => fetch('http://127.0.0.1:9/'),",
      "  () => require('child_process').execSync('true'),",
      "  () => require('child_process').spawn('true'),",
      "  () => require('vm').runInNewContext('1'),",
      "  () => new (require('worker_threads').Worker)('1', { eval: true }),",
      "];",
      "for (const t of tries) { try { t(); } catch {} }",
    ].join("\n");
    const r = spawnSync(process.execPath, ["--require", preloadScript(), "-e", script], { env: { ...process.env, LWIR_ESCAPE_LOG: log }, encoding: "utf8", timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    const apis = escapes(log).map((l) => (JSON.parse(l) as { api: string }).api);
    for (const api of ["net.connect", "net.Socket#connect", "tls.connect", "http.get", "https.request", "http2.connect", "dgram.createSocket", "dns.lookup", "fetch",
      "child_process.execSync", "child_process.spawn", "vm.runInNewContext", "worker_threads.Worker"]) {
      assert.ok(apis.includes(api), `${api} was recorded (got ${apis.join(", ")})`);
    }
  });

  async function session(pull: boolean, docs: SourceDoc[], log: string): Promise<void> {
    const client: LspClient = await startServer({
      pull, nodeArgs: ["--require", preloadScript()], env: { LWIR_ESCAPE_LOG: log }, timeout: 30_000,
      initializationOptions: { settings: { validation: { delay: 0 } } },
    });
    try {
      for (const [i, doc] of docs.entries()) {
        const uri = fileUri(`safety/${i}-${doc.name}`);
        client.open(uri, doc.text);
        if (pull) await client.pullDiagnostics(uri);
        else await client.waitForDiagnostics(uri, { version: 1 });
        for (const offset of [0, Math.floor(doc.text.length / 3), Math.floor((2 * doc.text.length) / 3), doc.text.length]) {
          figures.serverRequests += await askEverything(client, uri, positionAt(doc.text, offset), 30_000, `${doc.name} at ${offset}`);
        }
        // code actions with the document's own diagnostics, the way the editor asks for fixes
        const diagnostics = pull ? (await client.pullDiagnostics(uri)).items ?? [] : client.publishedFor(uri).at(-1)!.diagnostics;
        const actions = await outcome(client.request("textDocument/codeAction", {
          textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: positionAt(doc.text, doc.text.length) }, context: { diagnostics },
        }));
        assert.ok(actions.ok, `code actions for ${doc.name}`);
        figures.serverRequests++;
        const version = await outcome(client.request("lwir/workflowVersion", { textDocument: { uri }, canonicalJson: true }));
        if (!version.ok) assert.notEqual(version.code, undefined);
        figures.serverDocuments++;
      }
      // commands the server advertises, with odd arguments
      for (const command of client.initializeResult.capabilities.executeCommandProvider?.commands ?? []) {
        await outcome(client.request("workspace/executeCommand", { command, arguments: [{ uri: fileUri("safety/0") }, "http://127.0.0.1:9"] }));
      }
      assert.ok(client.alive);
    } finally {
      await client.stop();
    }
  }

  test("a whole server session (push and pull) over examples, a corpus sample and tempting documents tries nothing", async () => {
    const docs = [...exampleDocs(), ...conformanceSample(SEED, 3, 4000).docs, ...temptingDocuments(marker)];
    const log = join(dir, "server.log");
    await session(false, docs, log);
    await session(true, docs, log);
    assert.equal(stubbedProcesses(log), 2, "both servers ran with the stubs");
    const attempts = escapes(log);
    figures.escapeAttempts += attempts.length;
    assert.deepEqual(attempts, [], "no network connection, process, vm or worker was attempted");
    assert.ok(!existsSync(marker), "no workflow code ran");
  });

  test("a CLI run over the examples, the whole corpus and tempting documents tries nothing", () => {
    for (const doc of temptingDocuments(marker)) writeFileSync(join(dir, doc.name), doc.text);
    const log = join(dir, "cli.log");
    const result = runCli(["validate", "--format", "json", join(ROOT, "examples"), CONFORMANCE, dir], { env: { LWIR_ESCAPE_LOG: log } });
    assert.equal(result.timedOut, false);
    assert.equal(result.status, 1, result.stderr);
    figures.cliFiles = cliReports(result).size;
    assert.ok(figures.cliFiles > 350, `${figures.cliFiles} files checked`);
    assert.equal(stubbedProcesses(log), 1, "the CLI ran with the stubs");
    const attempts = escapes(log);
    figures.escapeAttempts += attempts.length;
    assert.deepEqual(attempts, [], "no network connection, process, vm or worker was attempted");
    assert.ok(!existsSync(marker), "no workflow code ran");
  });
});

// ---- static checks ---------------------------------------------------------------------------

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Modules the server and CLI must never load: code execution and the network. */
const FORBIDDEN_MODULES = new Set(["child_process", "vm", "worker_threads", "cluster", "net", "tls", "http", "https", "http2", "dgram", "dns", "inspector"]);

/** Dynamic code execution and forbidden imports in one file, found on its syntax tree (comments and strings do not count). */
function unsafeConstructs(file: string, checkImports: boolean): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const where = (node: ts.Node) => `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const moduleName = (spec: ts.Expression | undefined) => (spec && ts.isStringLiteral(spec) ? spec.text.replace(/^node:/, "").split("/")[0] : undefined);
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      if (name === "eval" || name === "Function") found.push(`${where(node)}: ${name}(…)`);
      if ((name === "setTimeout" || name === "setInterval") && node.arguments?.[0] && ts.isStringLiteralLike(node.arguments[0])) found.push(`${where(node)}: ${name} with a string`);
      if (checkImports && name === "require" && FORBIDDEN_MODULES.has(moduleName(node.arguments?.[0]) ?? "")) found.push(`${where(node)}: require of ${moduleName(node.arguments?.[0])}`);
    }
    if (ts.isPropertyAccessExpression(node) && node.name.text === "constructor" && ts.isCallExpression(node.parent) && node.parent.expression === node) {
      found.push(`${where(node)}: a call of .constructor (Function by another name)`);
    }
    if (checkImports && (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) {
      const name = moduleName(node.moduleSpecifier);
      if (name && FORBIDDEN_MODULES.has(name)) found.push(`${where(node)}: import of ${name}`);
    }
    if (checkImports && ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(`${where(node)}: dynamic import()`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("static checks", { timeout: 60_000 }, () => {
  test("server/src (server, CLI, service, document, lwir) and client/src: no eval, Function or string timers; the server loads no process, vm or network module", () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, "server", "src"))) { found.push(...unsafeConstructs(file, true)); figures.sourceFilesScanned++; }
    for (const file of sourceFiles(join(ROOT, "client", "src"))) { found.push(...unsafeConstructs(file, false)); figures.sourceFilesScanned++; }
    assert.ok(figures.sourceFilesScanned > 30, `${figures.sourceFilesScanned} files scanned`);
    // Three places may load such a module, each for our own shipped code only, never a document's text:
    // the loader compiles the server bundle with a V8 code cache (when VS Code gives a private folder),
    // the graph layout runs our layout bundle in a worker thread (a file, never `eval: true`), and the
    // GitHub Action's entry (action.ts, never part of the server or the extension) runs the committed CLI
    // bundle with the inputs as arguments, never through a shell.
    const allowed = [/^server\/src\/serverLoader\.ts:\d+: import of vm$/, /^server\/src\/graph\/workerLayouter\.ts:\d+: import of worker_threads$/, /^server\/src\/graphLayoutWorker\.ts:\d+: import of worker_threads$/,
      /^server\/src\/action\.ts:\d+: import of child_process$/];
    assert.deepEqual(found.filter((f) => !allowed.some((a) => a.test(f.replace(/\\/g, "/")))), []);
    assert.doesNotMatch(readFileSync(join(ROOT, "server", "src", "graph", "workerLayouter.ts"), "utf8"), /\beval\s*:/, "the layout worker is never given code to evaluate");
  });

  test("the check itself finds what it looks for", () => {
    const probeDir = mkdtempSync(join(tmpdir(), "lwir-static-"));
    const probe = join(probeDir, "probe.ts");
    writeFileSync(probe, [
      "// eval(1) in a comment does not count, nor does 'new Function(' in a string",
      "import { exec } from 'node:child_process';",
      "eval('1'); new Function('return 1'); setTimeout('x()', 1); ({}).constructor.constructor('return this')();",
      "const h = require('https'); import('vm');",
    ].join("\n"));
    const found = unsafeConstructs(probe, true).map((f) => f.replace(/^.*probe\.ts:\d+: /, ""));
    assert.deepEqual(found.sort(), [
      "Function(…)", "a call of .constructor (Function by another name)", "dynamic import()", "eval(…)", "import of child_process", "require of https", "setTimeout with a string",
    ]);
    rmSync(probeDir, { recursive: true, force: true });
  });

  test("the bundles in dist/ contain no eval( or new Function(", () => {
    const bundles = ["cli.js", "server.js", "extension.js", "web/server.js", "web/extension.js"].map((f) => join(ROOT, "dist", f)).filter((f) => existsSync(f));
    assert.ok(bundles.length >= 3, "npm run build produced the bundles");
    for (const bundle of bundles) {
      const text = readFileSync(bundle, "utf8");
      const hits = [...text.matchAll(/\beval\s*\(|\bnew\s+Function\s*\(/g)].map((m) => text.slice(Math.max(0, m.index - 60), m.index + 40));
      assert.deepEqual(hits, [], `${relative(ROOT, bundle)}`);
      figures.bundlesScanned++;
    }
  });
});
