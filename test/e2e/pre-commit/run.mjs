// The real pre-commit (the current release from PyPI, in a venv under the e2e cache) installs this repository
// as a `language: node` hook and runs it, as a user's project does: a git repository whose
// .pre-commit-config.yaml names a clone of this repository at a commit, `pre-commit run --all-files` on a valid
// and on an invalid workflow, with a fresh PRE_COMMIT_HOME (nothing installed before). The clone is the working
// tree as it is (committed into a temporary repository), so what is tested is what would be pushed.
// Also here: the CLI without cloning, `npm pack` then `npm install -g ./lwir-tools-*.tgz` on a fresh prefix.
//   node test/e2e/pre-commit/run.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { CACHE, Checks, ROOT, log } from "../lib.mjs";

const PART = "pre-commit";
const PRE_COMMIT = "pre-commit==4.6.*";
const checks = new Checks(PART);
const work = mkdtempSync(join(tmpdir(), "lwir-e2e-pre-commit-"));

function sh(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", ...options });
  if (r.error) throw r.error;
  return r;
}
function must(command, args, options) {
  const r = sh(command, args, options);
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r;
}
const git = (cwd, ...args) => must("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@localhost", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd });

/** pre-commit from the Python registry, in a venv of its own (kept in the cache between runs). */
function installPreCommit() {
  const venv = join(CACHE, "pre-commit", "venv");
  const bin = join(venv, "bin", "pre-commit");
  if (!existsSync(bin)) {
    log(PART, `pip install ${PRE_COMMIT}`);
    rmSync(venv, { recursive: true, force: true });
    must("python3", ["-m", "venv", venv]);
    must(join(venv, "bin", "pip"), ["install", "--quiet", PRE_COMMIT]);
  }
  return bin;
}

/** The working tree as a fresh clone would have it (no installs, builds or caches), committed in a repository of its own. */
function hookRepository() {
  const dest = join(work, "lwir-tools");
  const skip = new Set(["node_modules", ".git", "out", "dist", ".e2e-cache", "test-results"]);
  cpSync(ROOT, dest, {
    recursive: true,
    filter: (src) => {
      const rel = relative(ROOT, src);
      return !skip.has(rel.split(/[\\/]/)[0]) && !rel.endsWith(".vsix") && !rel.startsWith(join("bench", "tmp"));
    },
  });
  git(dest, "init", "-q");
  git(dest, "add", "-A");
  git(dest, "commit", "-q", "-m", "the working tree");
  return { path: dest, rev: git(dest, "rev-parse", "HEAD").stdout.trim() };
}

const VALID = readFileSync(join(ROOT, "examples", "release-notes.lwir.json"), "utf8");
const INVALID = readFileSync(join(ROOT, "examples", "broken-review.lwir.yaml"), "utf8");

let preCommit;
let hook;
try {
  preCommit = installPreCommit();
  hook = hookRepository();
} catch (error) {
  checks.fail("install pre-commit and make the hook repository", error);
}

if (preCommit && hook) {
  const version = sh(preCommit, ["--version"]).stdout.trim();
  log(PART, `${version}; hook repository at ${hook.rev.slice(0, 12)}`);
  const home = join(work, "pre-commit-home"); // a machine where pre-commit never installed anything
  const env = { ...process.env, PRE_COMMIT_HOME: home, NO_COLOR: "1" };
  const project = (name, files) => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    git(dir, "init", "-q");
    writeFileSync(join(dir, ".pre-commit-config.yaml"),
      `repos:\n  - repo: ${hook.path}\n    rev: ${hook.rev}\n    hooks:\n      - id: lwir-validate\n`);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(dir, file, ".."), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    git(dir, "add", "-A");
    return dir;
  };
  const run = (dir) => sh(preCommit, ["run", "--all-files", "--color", "never"], { cwd: dir, env });

  await checks.run(`${version}: installs the hook on a fresh machine, a valid workflow passes (exit 0)`, () => {
    const dir = project("valid", { "flows/release-notes.lwir.json": VALID, "README.md": "not a workflow\n" });
    const started = Date.now();
    const r = run(dir);
    log(PART, `first run (installs the hook): ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^lwir validate\.+Passed$/m);
    assert.doesNotMatch(r.stdout + r.stderr, /Executable .* not found/);
  });

  await checks.run("an invalid workflow fails the hook (exit 1) and prints lwir validate's report", () => {
    const dir = project("invalid", { "flows/broken-review.lwir.yaml": INVALID, "flows/release-notes.lwir.json": VALID });
    const r = run(dir);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^lwir validate\.+Failed$/m);
    assert.match(r.stdout, /^- exit code: 1$/m);
    // The text report (docs/cli.md): path:line:column  severity  code  message, then the summary line.
    assert.match(r.stdout, /^flows\/broken-review\.lwir\.yaml:48:14 {2}error {2}model\.disallowed {2}The model "gpt-4o" is not listed in permissions\.models\.$/m);
    assert.match(r.stdout, /^ok {2}flows\/release-notes\.lwir\.json {2}wfver_[0-9a-f]{16}$/m);
    assert.match(r.stdout, /^4 problems in 1 of 2 files$/m);
  });

  await checks.run("the hook installed the committed bundle: no build, no dependency in its environment", () => {
    const repos = readdirSync(home).filter((d) => d.startsWith("repo"));
    assert.equal(repos.length, 1, `pre-commit repositories: ${repos.join(", ")}`);
    const envs = readdirSync(join(home, repos[0])).filter((d) => d.startsWith("node_env"));
    assert.equal(envs.length, 1);
    const installed = join(home, repos[0], envs[0], "lib", "node_modules", "lwir-tools");
    assert.deepEqual(readdirSync(installed).sort(), ["LICENSE", "README.md", "bundle", "package.json", "schemas"]);
    assert.equal(existsSync(join(installed, "node_modules")), false, "the package installed dependencies");
  });
}

// The CLI without cloning: a packed tarball installed globally on a prefix of its own.
await checks.run("npm pack, then npm install -g ./lwir-tools-*.tgz on a fresh prefix: a working lwir", () => {
  const packs = join(work, "packs");
  mkdirSync(packs);
  must("npm", ["pack", "--silent", "--pack-destination", packs], { cwd: ROOT });
  const tarball = readdirSync(packs).find((f) => /^lwir-tools-.*\.tgz$/.test(f));
  assert.ok(tarball, "npm pack made no lwir-tools-*.tgz");
  const prefix = join(work, "prefix");
  const env = { ...process.env, npm_config_prefix: prefix, NO_COLOR: "1" };
  // Offline: the package has no dependency to fetch.
  must("npm", ["install", "-g", "--offline", "--no-audit", "--no-fund", `./${tarball}`], { cwd: packs, env });
  const lwir = join(prefix, "bin", "lwir");
  const version = must(lwir, ["--version"], { env }).stdout.trim();
  assert.equal(version, JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  const ok = sh(lwir, ["validate", join(ROOT, "examples", "release-notes.lwir.json")], { env, cwd: work });
  assert.equal(ok.status, 0, ok.stderr);
  const bad = sh(lwir, ["validate", join(ROOT, "examples", "broken-review.lwir.yaml")], { env, cwd: work });
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /error {2}model\.disallowed/);
  assert.deepEqual(readdirSync(join(prefix, "lib", "node_modules", "lwir-tools")).sort(), ["LICENSE", "README.md", "bundle", "package.json", "schemas"]);
  // `lwir mcp` loads its own bundle from beside the CLI's (bundle/lwir-mcp.js): installed too, and found
  // through the bin link
  assert.deepEqual(readdirSync(join(prefix, "lib", "node_modules", "lwir-tools", "bundle")).sort(), ["lwir-mcp.js", "lwir.js"]);
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } };
  const mcp = sh(lwir, ["mcp"], { env, cwd: work, timeout: 30_000, input: `${JSON.stringify(init)}\n` });
  assert.equal(mcp.status, 0, mcp.stderr);
  assert.equal(JSON.parse(mcp.stdout.split("\n")[0]).result.serverInfo.name, "lwir");
});

rmSync(work, { recursive: true, force: true });
process.exit(checks.finish());
