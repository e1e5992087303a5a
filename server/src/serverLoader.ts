// dist/server.js, what editors start: loads the language server bundle (dist/server-main.js, from node.ts)
// through a V8 code cache when the editor gives it a private folder for one (LWIR_CODE_CACHE_DIR; the VS Code
// extension passes a folder in its global storage). Compiling the bundle, and then each function the first
// validation runs, is a large part of a cold start (docs/benchmark.md, "Start-up"); with the cache V8 skips
// both. V8 checks the cache against its own version and flags and refuses a mismatch (then the bundle is
// compiled as usual and the cache rewritten), but it recognises the source only by its length, so the cache's
// name carries the bundle's version, size and modification time: an updated bundle never meets old code.
// No folder given (any other editor, tests): plain loading, nothing written.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";

/** package.json's version, defined by scripts/build.mjs when bundling. */
declare const __LWIR_VERSION__: string | undefined;

// Memory. By default V8 lets the heap grow to up to 4× what is live before the next full collection:
// right for throughput, wrong for a language server, which validates in bursts, idles in between, and
// shares the machine with the editor and its other servers. Growing by half of what is live keeps the
// process near its working set (bench: a 5,000-step YAML workflow after 30 edits and completions) for
// a few more full collections. V8 reads the flag at every collection, so it takes effect when set here.
// Set before anything is compiled: V8 keys the code cache to its flags.
setFlagsFromString("--heap-growing-percent=50");

/** Written this long after start-up, once the first documents are usually validated (their code compiled). */
const CACHE_WRITE_DELAY_MS = 5000;
const CACHE_PREFIX = "server-";

const bundle = join(__dirname, "server-main.js");
const folder = process.env.LWIR_CODE_CACHE_DIR || undefined;
const cacheFile = folder ? join(folder, cacheName()) : undefined;
let cachedData: Buffer | undefined;
if (cacheFile) {
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
}
let script: Script | undefined;
if (cacheFile) {
  // `vm` compiles our own shipped bundle here, never a document's text; only with a cache folder
  script = new Script(Module.wrap(readFileSync(bundle, "utf8")), { filename: bundle, cachedData });
  if (!cachedData || script.cachedDataRejected) setTimeout(writeCache, CACHE_WRITE_DELAY_MS).unref();
  const main = new Module(bundle, module);
  main.filename = bundle;
  script.runInThisContext()(main.exports, require, main, bundle, __dirname);
} else {
  require(bundle);
}

function cacheName(): string {
  const { size, mtimeMs } = statSync(bundle);
  const version = typeof __LWIR_VERSION__ === "string" ? __LWIR_VERSION__ : "dev";
  return `${CACHE_PREFIX}${version}-${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}.v8cache`.replace(/[^\w.-]/g, "_");
}

/** Replaces the cache (and drops those of other versions); a failure only costs the next start its speed-up. */
function writeCache(): void {
  try {
    mkdirSync(folder!, { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script!.createCachedData());
    renameSync(temporary, cacheFile!);
    const own = cacheFile!.slice(folder!.length + 1);
    for (const name of readdirSync(folder!)) {
      if (name.startsWith(CACHE_PREFIX) && name.endsWith(".v8cache") && name !== own) unlinkSync(join(folder!, name));
    }
  } catch {
    // a read-only or full disk: start without the cache next time
  }
}
