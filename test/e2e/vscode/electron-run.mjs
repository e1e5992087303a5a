// One run of the suite in VS Code desktop (started by electron.mjs with one JSON argument, in its own
// process group so that electron.mjs can kill a hung VS Code whole). Exits with VS Code's exit status.
//   trusted    @vscode/test-electron's runTests (it always adds --disable-workspace-trust);
//   untrusted  the same command line without --disable-workspace-trust: runTests offers no way to drop it.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "../lib.mjs";

const o = JSON.parse(process.argv[2]);
const { runTests } = createRequire(join(ROOT, "package.json"))("@vscode/test-electron");
const profile = [`--user-data-dir=${o.userDataDir}`, `--extensions-dir=${o.extensionsDir}`, "--disable-extensions"];

if (o.trusted) {
  try {
    await runTests({
      vscodeExecutablePath: o.executable,
      extensionDevelopmentPath: o.extensionDevelopmentPath,
      extensionTestsPath: o.extensionTestsPath,
      launchArgs: [o.workspace, ...profile],
    });
    process.exit(0);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
} else {
  // runTests' arguments (@vscode/test-electron 2.5 runTest.js), less --disable-workspace-trust
  const args = [
    o.workspace, ...profile,
    "--no-sandbox", "--disable-gpu-sandbox", "--disable-updates", "--skip-welcome", "--skip-release-notes",
    `--extensionTestsPath=${o.extensionTestsPath}`, `--extensionDevelopmentPath=${o.extensionDevelopmentPath}`,
  ];
  const child = spawn(o.executable, args, { stdio: "inherit" });
  child.on("error", (e) => { console.error(`cannot start ${o.executable}: ${e.message}`); process.exit(1); });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
