// The CLI under abuse: one folder tree with thousands of workflows mixed with everything that can go wrong on
// disk (unreadable files and folders, binary and undecodable files, a FIFO, symbolic link loops and dangling
// links, deep folders, names with control characters). Every output format: each readable file is checked and
// reported, each unreadable path gets one clear line on stderr, the exit status is the documented 2, and
// the run takes seconds, not minutes. (test/unit/cli.test.ts pins the individual messages on small trees.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXAMPLES, cliReports, mb, reportFigures, runCli, type CliRun } from "./support";

/** How many ordinary workflows the tree holds (half valid, half with findings). */
const WORKFLOWS = 3000;
/** Run as this unprivileged user when the tests run as root (root reads any file: no real permission denial). */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

const figures = { files: 0, unreadablePaths: 0, runs: 0, slowestRunMs: 0, peakRssMB: "", crashes: 0, hangs: 0 };

describe("the CLI on a hostile folder tree", { timeout: 300_000 }, () => {
  let root: string;
  let tree: string;
  /** Files that must be reported, by path as the CLI shows them, with their expected validity. */
  const expected = new Map<string, { valid: boolean; parse?: RegExp; notice?: string }>();
  /** Paths that must be reported as unreadable, with the reason. */
  const unreadable = new Map<string, RegExp>();

  before(() => {
    root = mkdtempSync(join(tmpdir(), "lwir-cli-abuse-"));
    chmodSync(root, 0o755);
    tree = join(root, "tree");
    mkdirSync(tree);
    const valid = readFileSync(join(EXAMPLES, "release-notes.lwir.json"));
    const broken = readFileSync(join(EXAMPLES, "broken-review.lwir.yaml"));
    const add = (relative: string, content: Buffer | string, outcome: { valid: boolean; parse?: RegExp; notice?: string }) => {
      writeFileSync(join(tree, relative), content);
      expected.set(join(tree, relative), outcome);
    };
    for (let i = 0; i < WORKFLOWS; i++) {
      const folder = `batch-${String(i % 30).padStart(2, "0")}`;
      mkdirSync(join(tree, folder), { recursive: true });
      if (i % 2 === 0) add(`${folder}/ok-${i}.lwir.json`, valid, { valid: true });
      else add(`${folder}/broken-${i}.lwir.yaml`, broken, { valid: false });
    }
    // files that are read but are not workflows
    add("binary.lwir.json", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), { valid: false, parse: /binary file/ });
    // not UTF-8 is not binary: read as the runtime reads it (two U+FFFD; no apiVersion, so findings), with a warning
    add("invalid-utf8.lwir.yaml", Buffer.from([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a]), { valid: false, notice: "lwir.invalid_utf8" });
    add("utf16.lwir.json", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("{}", "utf16le")]), { valid: false, parse: /UTF-16/ });
    add("empty.lwir.json", "", { valid: false });
    add("empty.lwir.yaml", "", { valid: false });
    add("new\nline.lwir.json", valid, { valid: true });
    add("\u001b[31mred\u001b[0m.lwir.json", valid, { valid: true });
    add("ünï😀.lwir.yaml", broken, { valid: false });
    mkdirSync(join(tree, "folder.lwir.json"));
    add("folder.lwir.json/inside.lwir.json", valid, { valid: true });
    let deep = tree;
    for (let i = 0; i < 100; i++) deep = join(deep, "d");
    mkdirSync(deep, { recursive: true });
    add(join(deep.slice(tree.length + 1), "bottom.lwir.json"), valid, { valid: true });
    mkdirSync(join(tree, "node_modules", "pkg"), { recursive: true });
    writeFileSync(join(tree, "node_modules", "pkg", "never.lwir.json"), "{"); // never searched

    // paths that cannot be read
    writeFileSync(join(tree, "denied.lwir.json"), valid);
    chmodSync(join(tree, "denied.lwir.json"), 0);
    unreadable.set(join(tree, "denied.lwir.json"), /permission denied/);
    mkdirSync(join(tree, "locked"));
    writeFileSync(join(tree, "locked", "hidden.lwir.json"), valid);
    chmodSync(join(tree, "locked"), 0);
    unreadable.set(join(tree, "locked"), /permission denied/);
    execFileSync("mkfifo", [join(tree, "pipe.lwir.json")]);
    unreadable.set(join(tree, "pipe.lwir.json"), /not a regular file/);
    symlinkSync(".", join(tree, "loop"));
    unreadable.set(join(tree, "loop"), /symbolic link loop/);
    symlinkSync("..", join(tree, "batch-00", "up"));
    unreadable.set(join(tree, "batch-00", "up"), /symbolic link loop/);
    symlinkSync("ping.lwir.json", join(tree, "pong.lwir.json"));
    symlinkSync("pong.lwir.json", join(tree, "ping.lwir.json"));
    unreadable.set(join(tree, "ping.lwir.json"), /symbolic link loop/);
    unreadable.set(join(tree, "pong.lwir.json"), /symbolic link loop/);
    symlinkSync("nowhere.lwir.json", join(tree, "dangling.lwir.yaml"));
    unreadable.set(join(tree, "dangling.lwir.yaml"), /dangling symbolic link/);
  });

  after(() => {
    chmodSync(join(tree, "locked"), 0o755);
    rmSync(root, { recursive: true, force: true });
    reportFigures("cli", figures);
  });

  function run(args: string[]): CliRun {
    const result = runCli(args, { cwd: root, timeout: 120_000, ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) });
    figures.runs++;
    figures.slowestRunMs = Math.max(figures.slowestRunMs, result.ms);
    figures.peakRssMB = String(Math.max(Number(figures.peakRssMB || 0), Number(mb(result.peakRss))));
    if (result.timedOut) figures.hangs++;
    if (result.signal !== null) figures.crashes++;
    assert.equal(result.timedOut, false, "the CLI finished in time");
    assert.equal(result.signal, null, `the CLI was not killed: ${result.stderr.slice(-2000)}`);
    return result;
  }

  /** stderr: exactly one line per unreadable path, with its reason; nothing else. */
  function checkStderr(stderr: string): void {
    const lines = stderr.trimEnd().split(/\n(?=lwir: )/);
    for (const [path, reason] of unreadable) {
      // links that loop or lead nowhere are skipped with a notice; the rest cannot be read
      const link = /symbolic link/.test(reason.source);
      const line = lines.find((l) => l.startsWith(link ? `lwir: notice: ${path}: skipped, ` : `lwir: cannot read ${path}: `));
      assert.ok(line, `stderr names ${path}:\n${stderr.slice(0, 3000)}`);
      assert.match(line, reason);
    }
    assert.equal(lines.length, unreadable.size, `only the unreadable paths are on stderr:\n${stderr.slice(0, 3000)}`);
  }

  test(`--format json: all ${WORKFLOWS} workflows and the odd files are reported, the unreadable paths named, exit 2`, () => {
    const result = run(["validate", "--format", "json", tree]);
    assert.equal(result.status, 2, result.stderr.slice(0, 2000));
    checkStderr(result.stderr);
    const reports = cliReports(result);
    for (const [file, outcome] of expected) {
      const report = reports.get(file);
      assert.ok(report, `${JSON.stringify(file)} is reported`);
      assert.equal(report.valid, outcome.valid, file);
      if (outcome.parse) assert.match(report.parseErrors.map((p) => p.message).join("\n"), outcome.parse, file);
      if (outcome.notice) assert.ok(report.parseErrors.length === 0 && report.notices?.some((n) => n.code === outcome.notice), file);
    }
    assert.equal(reports.size, expected.size, "nothing else is reported (node_modules is skipped, the locked folder is not entered)");
    figures.files = reports.size;
    figures.unreadablePaths = unreadable.size;
  });

  test("--format text: one line per problem or file, control characters escaped, the summary counts everything", () => {
    const result = run(["validate", tree]);
    assert.equal(result.status, 2);
    checkStderr(result.stderr);
    assert.doesNotMatch(result.stdout, /\u001b/, "no escape sequence reaches the terminal from a file name");
    const summary = result.stdout.trimEnd().split("\n").at(-1)!;
    const invalid = [...expected.values()].filter((o) => !o.valid).length;
    // links that loop or lead nowhere are notices, not paths that could not be checked; a file of bytes the
    // runtime reads as U+FFFD is a warning
    const cannotRead = [...unreadable.values()].filter((reason) => !/symbolic link/.test(reason.source)).length;
    assert.match(summary, new RegExp(`in ${invalid} of ${expected.size} files(, \\d+ warnings?)?; ${cannotRead} paths could not be checked$`), summary);
  });

  test("--format sarif: valid JSON with a result per finding, and --exit-zero still exits 2 when paths could not be read", () => {
    const result = run(["validate", "--format", "sarif", "--exit-zero", tree]);
    assert.equal(result.status, 2);
    checkStderr(result.stderr);
    const sarif = JSON.parse(result.stdout) as { runs: Array<{ results: unknown[] }> };
    assert.ok(sarif.runs[0].results.length >= (WORKFLOWS / 2) * 4, `${sarif.runs[0].results.length} results`);
  });

  test("only the readable files, given explicitly: exit 1 (problems in files), nothing on stderr", () => {
    const files = [...expected.keys()].filter((f) => !f.includes("\n")).slice(-40);
    const result = run(["validate", "--format", "json", ...files]);
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stderr, "");
    assert.equal(cliReports(result).size, files.length);
  });
});
