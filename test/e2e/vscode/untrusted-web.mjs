// The untrusted run of the suite in VS Code for the Web (started by run.mjs, one JSON argument).
//
// test-web cannot open an untrusted workspace: its workbench page never sets the workbench option
// `enableWorkspaceTrust`, without which VS Code for the Web disables workspace trust whatever the setting
// `security.workspace.trust.enabled` says (BrowserWorkbenchEnvironmentService.disableWorkspaceTrust), and it
// mounts the folder as vscode-test-web://mount, a virtual file system, which VS Code trusts regardless
// (WorkspaceTrustManagementService: any virtual resource but vscode-vfs is trusted). Nor has it an option
// for either. So this script does what test-web's runTests does (its server, Playwright's chromium, the two
// functions through which the workbench reports the tests' console and exit code), with the page's
// workbench options changed on the way: `enableWorkspaceTrust: true`, trust settings as defaults (on, no
// startup prompt), and the workspace folder `vscode-vfs://…`, which nothing trusts yet. Exits with the
// suite's exit code; run.mjs kills the process group on its timeout.
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "../lib.mjs";

const options = JSON.parse(process.argv[2]);
const testWebRequire = createRequire(join(ROOT, "node_modules", "@vscode", "test-web", "package.json"));
const { runServer } = testWebRequire("./out/server/main.js");
const { chromium } = testWebRequire("playwright");

const TRUST_DEFAULTS = {
  "security.workspace.trust.enabled": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.banner": "never",
};

/** The workbench options are JSON in an HTML attribute (`"` written as `&quot;`, as test-web writes it). */
function changeWorkbenchOptions(html) {
  const attribute = /(<meta id="vscode-workbench-web-configuration" data-settings=")([^"]*)(")/;
  const m = attribute.exec(html);
  if (!m) throw new Error("the workbench page has no vscode-workbench-web-configuration");
  const config = JSON.parse(m[2].replace(/&quot;/g, '"'));
  config.enableWorkspaceTrust = true;
  config.configurationDefaults = { ...config.configurationDefaults, ...TRUST_DEFAULTS };
  if (config.folderUri?.scheme !== "vscode-vfs") throw new Error(`unexpected folder ${JSON.stringify(config.folderUri)}`);
  return html.replace(attribute, (_, a, _value, c) => `${a}${JSON.stringify(config).replace(/"/g, "&quot;")}${c}`);
}

const server = await runServer(options.host, options.port, {
  extensionDevelopmentPath: options.extensionDevelopmentPath,
  extensionTestsPath: options.extensionTestsPath,
  build: { type: "static", location: options.build },
  folderUri: options.folderUri,
  printServerLog: false,
  coi: false,
});
const endpoint = `http://${options.host}:${options.port}`;
let browser;
const exit = async (code) => {
  await browser?.close().catch(() => undefined);
  server.close();
  process.exit(code);
};

try {
  browser = await chromium.launch({ headless: true, args: ["--no-sandbox", ...options.browserArgs] });
  const context = await browser.newContext({ viewport: null });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: endpoint });
  const page = await context.newPage();
  await page.exposeFunction("codeAutomationLog", (type, args) => {
    (console[type] ?? console.log)(...args);
  });
  await page.exposeFunction("codeAutomationExit", (code) => void exit(code === 0 ? 0 : 1));
  page.on("crash", () => { console.error("the page crashed"); void exit(1); });
  await page.route((url) => url.origin === endpoint && url.pathname === "/", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: changeWorkbenchOptions(await response.text()) });
  });
  console.log(`Opening ${endpoint} (workspace trust enabled, folder ${options.folderUri})`);
  await page.goto(endpoint);
} catch (e) {
  console.error(`untrusted run: ${e instanceof Error ? e.stack ?? e.message : e}`);
  await exit(1);
}
