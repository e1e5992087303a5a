// The committed bundles (bundle/, scripts/bundle.mjs) are what pre-commit, `npm install -g` and the GitHub
// Action run without building anything: each must be exactly a fresh build of the sources (so it can never go
// stale: after changing the sources, `npm run bundle` and commit bundle/), and the CLI must run alone (with
// `lwir mcp`'s bundle beside it, which only that command loads).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "./repo-copy";

interface Bundle { path: string; bytes: Uint8Array }

async function freshBundles(): Promise<Bundle[]> {
  const script = pathToFileURL(resolve("scripts", "bundle.mjs")).href;
  const mod = (await import(script)) as { bundles(): Promise<Bundle[]> };
  return mod.bundles();
}

test("every committed bundle is byte for byte a fresh build of the sources (npm run bundle)", async () => {
  const first = await freshBundles();
  assert.deepEqual(first.map((b) => b.path).sort(), ["bundle/action.js", "bundle/lwir-mcp.js", "bundle/lwir.js"]);
  // The build is deterministic, or the comparison below would mean nothing.
  const second = await freshBundles();
  for (const [i, b] of first.entries()) assert.ok(Buffer.from(b.bytes).equals(Buffer.from(second[i].bytes)), `${b.path}: two builds differ`);
  const stale = first.filter((b) => {
    let committed: Buffer;
    try {
      committed = readFileSync(b.path);
    } catch {
      return true;
    }
    return !committed.equals(Buffer.from(b.bytes));
  }).map((b) => b.path);
  assert.deepEqual(stale, [], "stale bundles: run `npm run bundle` and commit bundle/");
});

test("the CLI bundle runs alone (no node_modules; lwir mcp's bundle the only file beside it) and is executable", () => {
  assert.ok((statSync("bundle/lwir.js").mode & 0o111) !== 0, "bundle/lwir.js is not executable");
  const dir = tempDir("lwir-bundle-");
  copyFileSync("bundle/lwir.js", join(dir, "lwir.js"));
  const run = (...args: string[]) => spawnSync(process.execPath, [join(dir, "lwir.js"), ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  // every command but mcp needs nothing beside the CLI
  assert.equal(run("--version").stdout.trim(), (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version);
  const valid = run("validate", resolve("examples/release-notes.lwir.json"));
  assert.equal(valid.status, 0, valid.stderr);
  const invalid = run("validate", "--format", "json", resolve("examples/broken-review.lwir.yaml"));
  assert.equal(invalid.status, 1, invalid.stderr);
  assert.equal((JSON.parse(invalid.stdout) as { files: { findings: unknown[] }[] }).files[0].findings.length, 4);
  const graph = run("graph", resolve("examples/release-notes.lwir.json"));
  assert.equal(graph.status, 0, graph.stderr);
  assert.match(graph.stdout, /^flowchart /);
  assert.equal(run("schema").status, 0);
  // without its bundle, lwir mcp says what is missing
  const lost = run("mcp");
  assert.equal(lost.status, 2);
  assert.match(lost.stderr, /^lwir: cannot load lwir mcp \(lwir-mcp\.js, beside the CLI\)/);
  // with it, lwir mcp answers an initialize request (and ends with its input)
  copyFileSync("bundle/lwir-mcp.js", join(dir, "lwir-mcp.js"));
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } };
  const mcp = spawnSync(process.execPath, [join(dir, "lwir.js"), "mcp"], { cwd: dir, encoding: "utf8", input: `${JSON.stringify(init)}\n`, timeout: 30_000 });
  assert.equal(mcp.status, 0, mcp.stderr);
  const answer = JSON.parse(mcp.stdout.split("\n")[0]) as { id: number; result: { serverInfo: { name: string } } };
  assert.equal(answer.id, 1);
  assert.equal(answer.result.serverInfo.name, "lwir");
});

test("the CLI's bundle holds no MCP SDK or zod: only lwir mcp's bundle loads them", () => {
  const cli = readFileSync("bundle/lwir.js", "utf8");
  assert.match(cli, /require\("\.\/lwir-mcp\.js"\)/);
  assert.doesNotMatch(cli, /notifications\/tools\/list_changed|ZodError/); // the SDK's protocol, zod's errors
  assert.match(readFileSync("bundle/lwir-mcp.js", "utf8"), /notifications\/tools\/list_changed[^]*ZodError|ZodError[^]*notifications\/tools\/list_changed/);
});
