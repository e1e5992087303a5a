// Starts code-server on a free local port with everything it writes (profile, extensions, config, logs)
// in a state folder, our .vsix installed, and the workspace open; stops its whole process group.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { paths } from "./install.mjs";

/** User settings: a quiet, light workbench that looks good in a README screenshot. */
export const SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "chat.commandCenter.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.colorTheme": "Default Light Modern",
  "workbench.layoutControl.enabled": false,
  // The workspace copy lives inside the project's git checkout: keep the git extension out of it.
  "git.enabled": false,
  "git.openRepositoryInParentFolders": "never",
  "json.schemaDownload.enable": false,
  // Screen-reader detection would ask a question in a notification; never relevant headless.
  "editor.accessibilitySupport": "off",
  "editor.minimap.enabled": false,
  "editor.stickyScroll.enabled": false,
  // Long prompts wrap instead of scrolling the view sideways (screenshots show the whole line).
  "editor.wordWrap": "on",
  // The outline check opens just the nodes it looks at.
  "outline.collapseItems": "alwaysCollapse",
  // Hovers appear after the mouse rests; a short delay keeps the run quick (it still waits on the widget).
  "editor.hover.delay": 150,
  "files.autoSave": "off",
  // No port detection (its count would show in the status bar of every screenshot).
  "remote.autoForwardPorts": false,
  "workbench.editor.enablePreview": false,
  "window.restoreWindows": "none",
  // Quiet typing holds back the squiggle of what is being typed until a pause: a pause far longer than
  // any check, so the quiet-typing check sees the held state for sure, and that moving the cursor away
  // (not the timer) shows it. No other check compares diagnostics right after typing at the cursor.
  "lwir.validation.typingPause": 600000,
};

/** A port nobody listens on right now (the kernel picks it). */
function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

function runNode(args, env, timeoutMs) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(paths.node, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(out);
      else reject(new Error(`code-server ${args.join(" ")} failed (${code ?? signal}):\n${out.trim().split("\n").slice(-30).join("\n")}`));
    });
  });
}

/**
 * Installs the .vsix (and the test-only `testVsixes`) and starts code-server on `workspace`, keeping its files in `stateDir` (which
 * should start empty: a fresh profile every run). Resolves once /healthz answers, with
 * { url, stop() }; `stop` is idempotent and also runs (synchronously, SIGKILL) if this process exits.
 */
export async function startCodeServer({ workspace, vsix, testVsixes = [], stateDir, timeoutMs = 90_000 }) {
  const userData = join(stateDir, "user-data");
  const extensions = join(stateDir, "extensions");
  mkdirSync(join(userData, "User"), { recursive: true });
  mkdirSync(extensions, { recursive: true });
  writeFileSync(join(userData, "User", "settings.json"), JSON.stringify(SETTINGS, null, 2));
  // code-server puts its IPC sockets in TMPDIR; unix socket paths are limited to 107 bytes, so a short
  // folder in the system temp rather than one deep inside the checkout.
  const tmp = mkdtempSync(join(tmpdir(), "lwir-cs-"));
  const port = await freePort();
  const config = join(stateDir, "config.yaml");
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const env = {
    // Run from a VS Code terminal, VSCODE_IPC_HOOK_CLI & co. would send `--install-extension` to that
    // VS Code instead; npm_* come from an outer `npm run`.
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|VSCODE_|ELECTRON_)/i.test(k))),
    PATH: `${paths.nodeBin}:${process.env.PATH}`,
    // keep code-server away from ~/.config/code-server and ~/.local/share/code-server
    XDG_CONFIG_HOME: join(stateDir, "xdg-config"),
    XDG_DATA_HOME: join(stateDir, "xdg-data"),
    TMPDIR: tmp,
  };
  const common = ["--config", config, "--user-data-dir", userData, "--extensions-dir", extensions];

  try {
    // ours, then the test-only extensions the checks drive it with (lm-probe: vscode.lm.invokeTool)
    for (const file of [vsix, ...testVsixes]) {
      const installed = await runNode([paths.entry, ...common, "--install-extension", file, "--force"], env, 60_000);
      if (!/successfully installed/i.test(installed)) throw new Error(`--install-extension ${file} did not report success:\n${installed}`);
    }
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }

  const logFile = join(stateDir, "code-server.log");
  const logFd = openSync(logFile, "w");
  // detached = setsid: code-server, its extension host, file watcher and our language server form one
  // process group whose id is the child's pid, so stopping it leaves nothing behind.
  const child = spawn(
    paths.node,
    [
      paths.entry, ...common,
      "--bind-addr", `127.0.0.1:${port}`, "--auth", "none",
      "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
      "--disable-getting-started-override", "--ignore-last-opened",
      workspace,
    ],
    { env, detached: true, stdio: ["ignore", logFd, logFd] },
  );
  closeSync(logFd);
  const pgid = child.pid;
  let exited = null;
  child.on("exit", (code, signal) => (exited = code ?? signal));
  const killNow = () => {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // gone
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on("exit", killNow);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-pgid, "SIGTERM");
    } catch {
      // gone
    }
    const until = Date.now() + 5000;
    while (Date.now() < until && groupAlive(pgid)) await new Promise((r) => setTimeout(r, 100));
    killNow();
    process.off("exit", killNow);
  };

  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) {
      await stop();
      throw new Error(`code-server exited (${exited}) before answering:\n${tail(logFile)}`);
    }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000) });
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error(`code-server did not answer /healthz within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, port, pgid, logFile, stop };
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function tail(file) {
  try {
    return readFileSync(file, "utf8").trim().split("\n").slice(-30).join("\n");
  } catch {
    return "(no log)";
  }
}
