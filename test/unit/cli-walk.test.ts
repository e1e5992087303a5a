// The CLI's paths and output options (run `npm run build` first): quoted globs, --ignore-pattern,
// -o/--output-file, --color/--no-color with NO_COLOR/FORCE_COLOR, `lwir graph -`, an unreadable folder
// reported once; and the arguments as parsed.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "../../server/src/cli/args";
import { collectFiles } from "../../server/src/cli/files";

const CLI = resolve("dist/cli.js");
const TREE = "test/fixtures/cli/tree";
const ESC = "\x1b[";

interface Run { status: number | null; stdout: string; stderr: string }
function lwir(args: string[], cwd: string, env: Record<string, string> = {}, input = ""): Run {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const base: Record<string, string | undefined> = { ...process.env };
  delete base.FORCE_COLOR;
  delete base.NO_COLOR;
  const res = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...base, ...env }, input });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe("arguments of the new options", () => {
  const base = { kind: "validate", format: "text", exitZero: false, quiet: false, rules: {}, errorOnUnmatched: true } as const;
  test("--ignore-pattern (repeatable), -o / --output-file, --color / --no-color (the last wins)", () => {
    assert.deepEqual(parseArgs(["validate", "--ignore-pattern", "gen/**", "--ignore-pattern=old/*", "-o", "r.txt", "--no-color", "a"]),
      { ...base, ignorePatterns: ["gen/**", "old/*"], outputFile: "r.txt", color: false, paths: ["a"] });
    assert.deepEqual(parseArgs(["validate", "--output-file=r.json", "--no-color", "--color", "a"]), { ...base, outputFile: "r.json", color: true, paths: ["a"] });
    assert.deepEqual(parseArgs(["graph", "-", "--stdin-filename", "x.lwir.json", "--output-file", "g.svg"]), { kind: "graph", file: "-", stdinFilename: "x.lwir.json", output: "g.svg" });
  });
  test("their mistakes are usage errors that say what is wrong", () => {
    const message = (argv: string[]) => (parseArgs(argv) as { message?: string }).message;
    assert.equal(message(["validate", "a", "-o"]), "-o needs a file name");
    assert.equal(message(["validate", "a", "--ignore-pattern"]), "--ignore-pattern needs a glob, e.g. 'generated/**'");
    assert.equal(message(["validate", "--quiet=yes", "a"]), "--quiet takes no value");
    assert.equal(message(["validate", "--ignore", "x", "a"]), "unknown option --ignore");
    assert.equal(message(["graph", "a", "--ignore-pattern", "x"]), "unknown option --ignore-pattern");
    assert.equal(message(["graph", "a.lwir.json", "--stdin-filename", "x.lwir.json"]), "--stdin-filename names standard input: give - as the FILE");
  });
});

describe("paths: globs, ignore patterns, links, unreadable folders", () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), "lwir-walk-"));
    mkdirSync(join(tmp, "flows", "deep", "er"), { recursive: true });
    mkdirSync(join(tmp, "gen"), { recursive: true });
    copyFileSync(`${TREE}/valid.lwir.yaml`, join(tmp, "flows", "a.lwir.yaml"));
    copyFileSync(`${TREE}/valid.lwir.yaml`, join(tmp, "flows", "deep", "er", "b.lwir.yaml"));
    copyFileSync(`${TREE}/valid.lwir.json`, join(tmp, "flows", "deep", "c.lwir.json"));
    copyFileSync(`${TREE}/findings.lwir.json`, join(tmp, "gen", "bad.lwir.json"));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test("a quoted glob checks the files it matches, in name order, and nothing else", () => {
    const res = lwir(["validate", "--format", "json", "flows/**/*.lwir.yaml"], tmp);
    assert.equal(res.status, 0, res.stderr);
    assert.deepEqual((JSON.parse(res.stdout) as { files: { file: string }[] }).files.map((f) => f.file), ["flows/a.lwir.yaml", "flows/deep/er/b.lwir.yaml"]);
    const json = lwir(["validate", "--format", "json", "*/deep/*.json"], tmp);
    assert.deepEqual((JSON.parse(json.stdout) as { files: { file: string }[] }).files.map((f) => f.file), ["flows/deep/c.lwir.json"]);
  });

  test("a glob that matches nothing is exit 2, like an empty folder, unless --no-error-on-unmatched-pattern", () => {
    const res = lwir(["validate", "flows/**/*.txt"], tmp);
    assert.equal(res.status, 2);
    assert.equal(res.stderr, "lwir: flows/**/*.txt: no file matches this pattern (--no-error-on-unmatched-pattern allows it)\n");
    const missingBase = lwir(["validate", "nowhere/**/*.yaml"], tmp);
    assert.equal(missingBase.stderr, "lwir: nowhere/**/*.yaml: no file matches this pattern (--no-error-on-unmatched-pattern allows it)\n", "said once");
    const allowed = lwir(["validate", "--no-error-on-unmatched-pattern", "flows/**/*.txt", "flows/a.lwir.yaml"], tmp);
    assert.equal(allowed.status, 0);
    assert.equal(allowed.stderr, "lwir: warning: flows/**/*.txt: no file matches this pattern\n");
  });

  test("--ignore-pattern leaves folders and files out (relative to the working folder)", () => {
    assert.equal(lwir(["validate", "."], tmp).status, 1, "gen/bad.lwir.json has findings");
    const res = lwir(["validate", "--format", "json", "--ignore-pattern", "gen/**", "--ignore-pattern", "**/er", "."], tmp);
    assert.equal(res.status, 0, res.stdout);
    assert.deepEqual((JSON.parse(res.stdout) as { files: { file: string }[] }).files.map((f) => f.file), ["./flows/a.lwir.yaml", "./flows/deep/c.lwir.json"]);
    const named = lwir(["validate", "--ignore-pattern", "gen/*", "gen/bad.lwir.json", "flows/a.lwir.yaml"], tmp);
    assert.equal(named.status, 0);
    assert.equal(named.stderr, "lwir: notice: gen/bad.lwir.json: ignored (an ignore pattern matches it)\n");
  });

  test("collectFiles: the same decisions without a process", () => {
    const collected = collectFiles(["flows/**/*.lwir.yaml", "gen", "-"], { cwd: tmp, ignorePatterns: ["**/er/**"] });
    assert.deepEqual(collected.files, ["flows/a.lwir.yaml", "gen/bad.lwir.json"]);
    assert.equal(collected.stdinIndex, 2);
    assert.deepEqual([collected.failures, collected.emptyFolders, collected.notices], [[], [], []]);
  });

  test("an unreadable folder is reported once (not also as empty); one inside a tree fails the run, the rest is checked", () => {
    const denied = join(tmp, "denied");
    mkdirSync(denied);
    copyFileSync(`${TREE}/valid.lwir.json`, join(denied, "x.lwir.json"));
    chmodSync(denied, 0);
    try {
      const asUser = (args: string[]): Run => {
        if (process.getuid?.() !== 0) return lwir(args, tmp);
        // root reads any folder: run as the unprivileged user "nobody" so the denial is real.
        chmodSync(tmp, 0o755);
        const run = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, CLI, ...args], { encoding: "utf8", cwd: tmp });
        return { status: run.status, stdout: run.stdout, stderr: run.stderr };
      };
      const alone = asUser(["validate", "denied"]);
      assert.equal(alone.status, 2);
      assert.equal(alone.stderr, "lwir: cannot read denied: permission denied\n");
      const inTree = asUser(["validate", "--format", "json", "."]);
      assert.equal(inTree.status, 2);
      assert.equal(inTree.stderr, "lwir: cannot read ./denied: permission denied\n");
      assert.ok((JSON.parse(inTree.stdout) as { files: unknown[] }).files.length >= 3, "the readable files were checked");
    } finally {
      chmodSync(denied, 0o755);
      rmSync(denied, { recursive: true });
    }
  });
});

describe("output: -o, colour, lwir graph -", () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), "lwir-out-"));
    copyFileSync(`${TREE}/findings.lwir.json`, join(tmp, "bad.lwir.json"));
    copyFileSync(`${TREE}/valid.lwir.yaml`, join(tmp, "ok.lwir.yaml"));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test("-o writes the report to the file (uncoloured) and nothing to stdout; the exit status is the same", () => {
    const piped = lwir(["validate", "bad.lwir.json"], tmp);
    const res = lwir(["validate", "-o", "report.txt", "bad.lwir.json"], tmp, { FORCE_COLOR: "1" });
    assert.equal(res.status, 1);
    assert.equal(res.stdout, "");
    assert.equal(readFileSync(join(tmp, "report.txt"), "utf8"), piped.stdout);
    const json = lwir(["validate", "--format", "json", "--output-file", "report.json", "ok.lwir.yaml"], tmp);
    assert.equal(json.status, 0);
    assert.equal((JSON.parse(readFileSync(join(tmp, "report.json"), "utf8")) as { files: unknown[] }).files.length, 1);
    const unwritable = lwir(["validate", "-o", join(tmp, "no", "such", "folder.txt"), "ok.lwir.yaml"], tmp);
    assert.equal(unwritable.status, 2);
    assert.match(unwritable.stderr, /^lwir: cannot write the report to .*folder\.txt: /);
  });

  test("colour: none when piped; --color forces it, --no-color and NO_COLOR refuse it, FORCE_COLOR forces it", () => {
    const has = (r: Run) => r.stdout.includes(ESC);
    assert.ok(!has(lwir(["validate", "bad.lwir.json"], tmp)), "not a terminal");
    assert.ok(has(lwir(["validate", "--color", "bad.lwir.json"], tmp)));
    assert.ok(has(lwir(["validate", "bad.lwir.json"], tmp, { FORCE_COLOR: "1" })));
    assert.ok(!has(lwir(["validate", "--no-color", "bad.lwir.json"], tmp, { FORCE_COLOR: "1" })), "the flag beats the environment");
    assert.ok(has(lwir(["validate", "--color", "bad.lwir.json"], tmp, { NO_COLOR: "1" })), "the flag beats the environment");
    assert.ok(!has(lwir(["validate", "bad.lwir.json"], tmp, { NO_COLOR: "1" })));
  });

  test("lwir graph - draws standard input, as validate reads it", () => {
    const text = readFileSync(join(tmp, "ok.lwir.yaml"), "utf8");
    const fromFile = lwir(["graph", "ok.lwir.yaml"], tmp);
    const fromStdin = lwir(["graph", "-"], tmp, {}, text);
    assert.equal(fromStdin.status, 0, fromStdin.stderr);
    assert.equal(fromStdin.stdout, fromFile.stdout);
    const dot = lwir(["graph", "-", "--format", "dot", "--stdin-filename", "x.lwir.yaml"], tmp, {}, text);
    assert.match(dot.stdout, /^digraph workflow \{/);
    const bad = lwir(["graph", "-", "--stdin-filename", "b.lwir.json"], tmp, {}, readFileSync(join(tmp, "bad.lwir.json"), "utf8"));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /^lwir: b\.lwir\.json: \d+ findings?; drawn as far as it goes \(lwir validate - lists them\)\n$/);
    const broken = lwir(["graph", "-"], tmp, {}, "{ not json");
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /^<stdin>:1:\d+  error  parse  /);
  });
});
