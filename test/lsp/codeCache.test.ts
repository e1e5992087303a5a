// The server's V8 code cache (server/src/serverLoader.ts): with LWIR_CODE_CACHE_DIR the built server writes a
// cache some seconds after start-up, a later start uses it and leaves it alone, a damaged cache is replaced,
// and in every case the server answers exactly as it does without one.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LspClient, delay, type Diagnostic } from "./harness";

const root = mkdtempSync(join(tmpdir(), "lwir-code-cache-"));
after(() => rmSync(root, { recursive: true, force: true }));

const URI = "file:///w/cache.lwir.json";
// one finding (an unknown model), so there is something to compare
const TEXT = JSON.stringify({
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "cache-check", version: "0.1.0" },
  input: { schema: { type: "object" } },
  output: { schema: { type: "object" } },
  permissions: { models: ["model-a"] },
  steps: [{ id: "write", kind: "ai", with: { model: "model-z", prompt: "Hello" } }],
}, null, 2);

/** Starts the server (with a cache folder or without), opens TEXT, returns its diagnostics; stops after `stayMs`. */
async function diagnosticsOf(folder: string | undefined, stayMs = 0): Promise<Diagnostic[]> {
  const client = await LspClient.start({
    pull: false,
    timeout: 20_000,
    env: folder ? { LWIR_CODE_CACHE_DIR: folder } : undefined,
    initializationOptions: { settings: { validation: { delay: 0 } } },
  });
  try {
    client.open(URI, TEXT);
    const published = await client.waitForDiagnostics(URI, { version: 1 });
    if (stayMs > 0) await delay(stayMs);
    return published.diagnostics;
  } finally {
    await client.stop();
  }
}

const caches = (folder: string) => {
  try {
    return readdirSync(folder).filter((n) => n.endsWith(".v8cache"));
  } catch {
    return [];
  }
};

/** Waits (as a guard against hanging, not a timing check) until the server has written a cache. */
async function startAndWaitForCache(folder: string): Promise<Diagnostic[]> {
  const client = await LspClient.start({ pull: false, timeout: 20_000, env: { LWIR_CODE_CACHE_DIR: folder }, initializationOptions: { settings: { validation: { delay: 0 } } } });
  try {
    client.open(URI, TEXT);
    const published = await client.waitForDiagnostics(URI, { version: 1 });
    for (let waited = 0; caches(folder).length === 0; waited += 200) {
      if (waited > 60_000) throw new Error("no code cache written");
      await delay(200);
    }
    return published.diagnostics;
  } finally {
    await client.stop();
  }
}

describe("code cache", () => {
  test("written once, then used and left alone; the same diagnostics as without a cache", async () => {
    const folder = join(root, "fresh");
    const plain = await diagnosticsOf(undefined);
    assert.ok(plain.length > 0, "the text has a finding to compare");
    assert.deepEqual(await startAndWaitForCache(folder), plain);
    const [name] = caches(folder);
    assert.match(name, /^server-.+-v\d+\.\d+\.\d+-[a-z0-9]+\.v8cache$/);
    const before = readFileSync(join(folder, name));
    const mtime = statSync(join(folder, name)).mtimeMs;
    assert.ok(before.length > 1000, "a cache with compiled code in it");
    // a second start runs past the write delay: an accepted cache is not written again
    assert.deepEqual(await diagnosticsOf(folder, 6500), plain);
    assert.deepEqual(caches(folder), [name]);
    assert.equal(statSync(join(folder, name)).mtimeMs, mtime);
    assert.deepEqual(readFileSync(join(folder, name)), before);
  });

  test("a damaged cache is refused and replaced; stale caches of other builds are removed", async () => {
    const folder = join(root, "damaged");
    await startAndWaitForCache(folder);
    const [name] = caches(folder);
    const garbage = Buffer.alloc(4096, 7);
    writeFileSync(join(folder, name), garbage);
    writeFileSync(join(folder, "server-0.0.1-1-1-v1.0.0-x64.v8cache"), garbage);
    const plain = await diagnosticsOf(undefined);
    assert.deepEqual(await diagnosticsOf(folder, 6500), plain);
    assert.deepEqual(caches(folder), [name]);
    assert.notDeepEqual(readFileSync(join(folder, name)), garbage);
  });

  test("a folder that cannot be written costs nothing but the cache", async () => {
    const file = join(root, "not-a-folder");
    writeFileSync(file, "");
    const plain = await diagnosticsOf(undefined);
    assert.deepEqual(await diagnosticsOf(join(file, "cache"), 6500), plain);
  });
});
