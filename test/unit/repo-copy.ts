// Helpers for the tests of the ready-made integrations (GitHub Action, pre-commit hook): a throwaway copy of
// the repository as a fresh checkout would look (no node_modules, dist, out), and an `npm` stand-in that
// replaces only the network part of an install (`npm ci` / `npm install`) with a link to the
// node_modules this checkout already has, and hands every other command to the real npm.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { spawnSync } from "node:child_process";

/** What a clone does not have: installed and built files, caches, packages. */
const NOT_IN_A_CHECKOUT = new Set(["node_modules", ".git", "out", "dist", ".e2e-cache", "test-results", ".vscode-test"]);

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Copies the repository at `root` (default: the working folder) into a new temporary folder. */
export function copyCheckout(root = process.cwd()): string {
  const dest = join(tempDir("lwir-checkout-"), "lwir-tools");
  cpSync(root, dest, {
    recursive: true,
    filter: (src) => {
      const rel = resolve(src).slice(resolve(root).length + 1);
      const top = rel.split(/[\\/]/)[0];
      return !NOT_IN_A_CHECKOUT.has(top) && !basename(src).endsWith(".vsix") && !rel.startsWith(join("bench", "tmp"));
    },
  });
  return dest;
}

function realNpm(): string {
  const r = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" });
  const found = r.stdout.trim();
  if (r.status !== 0 || found === "") throw new Error("npm is not on PATH");
  return found;
}

export interface NpmStandIn {
  /** Folder to put first on PATH. */
  bin: string;
  /** Each `npm ci` / `npm install` it stood in for: the folder it ran in and its arguments. */
  installs(): { cwd: string; args: string[] }[];
}

/** An `npm` whose installs link `nodeModules` (this checkout's own) instead of downloading. */
export function npmStandIn(nodeModules = resolve("node_modules")): NpmStandIn {
  const dir = tempDir("lwir-npm-");
  const log = join(dir, "installs.log");
  writeFileSync(log, "");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  // Only an install of the folder's own dependencies (no package named) is replaced.
  const script = `#!/bin/sh
case "$1" in
  ci|install|i)
    own=yes
    for a in "$@"; do case "$a" in ci|install|i|-*) ;; *) own=no ;; esac; done
    if [ "$own" = yes ]; then
      printf '%s\\t%s\\n' "$PWD" "$*" >> '${log}'
      [ -e node_modules ] || ln -s '${nodeModules}' node_modules
      exit 0
    fi ;;
esac
exec '${realNpm()}' "$@"
`;
  writeFileSync(join(bin, "npm"), script);
  chmodSync(join(bin, "npm"), 0o755);
  return {
    bin,
    installs: () => readFileSync(log, "utf8").split("\n").filter(Boolean)
      .map((l) => { const [cwd, args] = l.split("\t"); return { cwd, args: args.split(" ") }; }),
  };
}
