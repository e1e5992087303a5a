// The VS Code integration suite (test/e2e/vscode/suite/) in VS Code desktop, through @vscode/test-electron,
// against the extension's Node build (dist/extension.js, dist/server.js):
//
//   npm run test:vscode        (= npm run build && node test/e2e/vscode/electron.mjs)
//
// It downloads VS Code desktop (LWIR_E2E_VSCODE_VERSION, default 1.91.1: the version `engines.vscode` and
// @types/vscode name, and the one run.mjs tests in the browser) into CACHE/vscode-desktop, which needs
// update.code.visualstudio.com: where that is unreachable it stops at once with a failed check saying so
// (`node test/e2e/vscode/run.mjs` runs the same suite in VS Code for the Web offline). On Linux without a
// display it runs VS Code under xvfb-run (Debian packages xvfb and xauth, installed when missing).
//
// Like run.mjs, two runs of the whole suite, each with its own user data and extensions folders:
//   trusted    test-electron's runTests, which passes --disable-workspace-trust;
//   untrusted  electron-run.mjs starts VS Code with runTests' arguments except that one, and user settings
//              that turn trust on without a startup prompt: the fresh workspace folder is then untrusted.
// Each test becomes one check ("trusted › …", "untrusted › …") from the suite's report lines on stdout.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CACHE, Checks, ROOT, ensureApt, freshWorkspace, log } from "../lib.mjs";
import { bundleSuite, computeExpectations } from "./prepare.mjs";
import { SuiteRunner } from "./runner.mjs";

const PART = "vscode-electron";
const HERE = dirname(fileURLToPath(import.meta.url));
const VERSION = process.env.LWIR_E2E_VSCODE_VERSION ?? "1.91.1";
const RUN_TIMEOUT_MS = Number(process.env.LWIR_E2E_VSCODE_TIMEOUT_MS ?? 300_000);
const testElectron = createRequire(join(ROOT, "package.json"))("@vscode/test-electron");

/** User settings of both runs: no welcome page, updates, telemetry or experiments in the way. */
const QUIET_SETTINGS = {
  "workbench.startupEditor": "none",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "workbench.enableExperiments": false,
};
/** The untrusted run's: trust on, and no prompt that would trust the folder (or wait for a click). */
const UNTRUSTED_SETTINGS = {
  ...QUIET_SETTINGS,
  "security.workspace.trust.enabled": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.banner": "never",
};

const checks = new Checks(PART);
const started = Date.now();
const runner = new SuiteRunner(checks, PART, RUN_TIMEOUT_MS);

/** A fresh profile (user data with `settings`, an empty extensions folder) in the runner's temp folder. */
function profile(label, settings) {
  const userDataDir = join(runner.scratch, `${label}-user-data`);
  const extensionsDir = join(runner.scratch, `${label}-extensions`);
  mkdirSync(join(userDataDir, "User"), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, "User", "settings.json"), JSON.stringify(settings, null, 2));
  return { userDataDir, extensionsDir };
}

async function downloadVSCode() {
  const cachePath = join(CACHE, "vscode-desktop");
  log(PART, `VS Code ${VERSION} (cached in ${cachePath})`);
  try {
    return await testElectron.downloadAndUnzipVSCode({ version: VERSION, cachePath, reporter: new testElectron.SilentReporter(), timeout: 30_000 });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|Timeout/i.test(`${message} ${e?.code ?? ""}`);
    throw new Error(offline
      ? `VS Code ${VERSION} cannot be downloaded here (${message}): this machine cannot reach Microsoft's update servers. ` +
        "Run npm run test:vscode where it can; node test/e2e/vscode/run.mjs runs the same suite in VS Code for the Web offline."
      : `downloading VS Code ${VERSION} failed: ${message}`);
  }
}

async function main() {
  let workspace;
  let bundles;
  let profiles;
  try {
    for (const f of ["dist/extension.js", "dist/server.js", "dist/cli.js"]) {
      if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
    }
    workspace = freshWorkspace(PART);
    const expectations = await computeExpectations(workspace);
    bundles = {
      trusted: await bundleSuite("node", "trusted", expectations, { trust: "trusted" }),
      untrusted: await bundleSuite("node", "untrusted", expectations, { trust: "untrusted" }),
    };
    profiles = { trusted: profile("trusted", QUIET_SETTINGS), untrusted: profile("untrusted", UNTRUSTED_SETTINGS) };
  } catch (e) {
    checks.fail("compute the expected results and bundle the suite", e instanceof Error ? e.stack ?? e.message : e);
    return;
  }

  let executable;
  try {
    executable = await downloadVSCode();
  } catch (e) {
    checks.fail(`download VS Code ${VERSION}`, e instanceof Error ? e.message : e);
    return;
  }

  let wrapper = [];
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    try {
      ensureApt(["xvfb", "xauth"]);
    } catch (e) {
      checks.fail("install a virtual display (xvfb)", e instanceof Error ? e.message : e);
      return;
    }
    wrapper = ["xvfb-run", "-a"];
  }

  for (const label of ["trusted", "untrusted"]) {
    const t0 = Date.now();
    const state = await runner.run(label, [join(HERE, "electron-run.mjs"), JSON.stringify({
      trusted: label === "trusted", executable, workspace, ...profiles[label],
      extensionDevelopmentPath: ROOT, extensionTestsPath: bundles[label],
    })], { wrapper });
    log(PART, `${label} run: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await runner.record(label, state);
  }
}

await runner.runMain(main, started);
