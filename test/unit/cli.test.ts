// `lwir validate`: the pure parts (arguments, decoding, formatters) with hand-made reports, then the
// built dist/cli.js end to end on test/fixtures/cli (run `npm run build` first; `npm test` does).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "../../server/src/cli/args";
import { decodeSource, formatOfBytes, formatOf, isLwirFileName, joinDisplay, sniffFormat } from "../../server/src/cli/files";
import { formatJson } from "../../server/src/cli/format-json";
import { formatText, oneLine, shouldColor, snippet, SourceLines } from "../../server/src/cli/format-text";
import type { FileReport, Range } from "../../server/src/cli/report";

const CLI = resolve("dist/cli.js");
const FIX = "test/fixtures/cli";
const TREE = `${FIX}/tree`;
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const ESC = "\x1b";

// ---- pure parts --------------------------------------------------------------------------------

describe("arguments", () => {
  test("validate with options anywhere, --format=X, and -- before paths", () => {
    assert.deepEqual(parseArgs(["validate", "a", "--format", "json", "b", "--exit-zero"]), { kind: "validate", format: "json", exitZero: true, paths: ["a", "b"] });
    assert.deepEqual(parseArgs(["validate", "--format=sarif", "a"]), { kind: "validate", format: "sarif", exitZero: false, paths: ["a"] });
    assert.deepEqual(parseArgs(["validate", "--", "--odd-name.lwir.json"]), { kind: "validate", format: "text", exitZero: false, paths: ["--odd-name.lwir.json"] });
  });
  test("help and version", () => {
    assert.deepEqual(parseArgs(["--help"]), { kind: "help" });
    assert.deepEqual(parseArgs(["validate", "-h"]), { kind: "help" });
    assert.deepEqual(parseArgs(["--version"]), { kind: "version" });
  });
  test("usage errors", () => {
    const kinds = [[], ["check", "a"], ["validate"], ["validate", "--format", "xml", "a"], ["validate", "a", "--format"], ["validate", "--bogus", "a"], ["--bogus"], ["validate", "--exit-zero"]]
      .map((argv) => parseArgs(argv));
    for (const k of kinds) assert.equal(k.kind, "usage-error", JSON.stringify(k));
    assert.deepEqual(parseArgs(["check"]), { kind: "usage-error", message: "unknown command check" });
    assert.deepEqual(parseArgs(["validate", "--format", "xml", "a"]), { kind: "usage-error", message: "unknown format xml (expected text, json or sarif)" });
  });
});

describe("files and decoding", () => {
  test("folder scans pick LWIR names only", () => {
    assert.ok(isLwirFileName("a.lwir.json") && isLwirFileName("a.lwir.yaml") && isLwirFileName("a.lwir.yml"));
    assert.ok(!isLwirFileName("notes.json") && !isLwirFileName("a.lwir.json.bak") && !isLwirFileName("a.yaml"));
  });
  test("format by extension, else sniffed", () => {
    assert.equal(formatOf("x.json"), "json");
    assert.equal(formatOf("x.YML"), "yaml");
    assert.equal(formatOf("x.txt"), undefined);
    assert.equal(sniffFormat("  \n\t{}"), "json");
    assert.equal(sniffFormat("[1]"), "json");
    assert.equal(sniffFormat("apiVersion: x"), "yaml");
    assert.equal(sniffFormat(""), "yaml");
    assert.equal(formatOfBytes("f", Buffer.from("\n {\u0000")), "json");
    assert.equal(formatOfBytes("f.yaml", Buffer.from("{")), "yaml");
  });
  test("decode: BOM skipped once, binary and non-UTF-8 refused", () => {
    assert.deepEqual(decodeSource(Buffer.from("\ufeffa: 1", "utf8")), { ok: true, text: "a: 1" });
    assert.deepEqual(decodeSource(Buffer.from("\ufeff\ufeffa", "utf8")), { ok: true, text: "\ufeffa" });
    assert.deepEqual(decodeSource(Buffer.from([0x7b, 0x00, 0x7d])), { ok: false, reason: "binary file" });
    assert.deepEqual(decodeSource(Buffer.from([0x61, 0x3a, 0x20, 0xe9])), { ok: false, reason: "not UTF-8 text" });
    assert.deepEqual(decodeSource(Buffer.from([0xed, 0xa0, 0x80])), { ok: false, reason: "not UTF-8 text" }); // encoded surrogate
    const utf16 = decodeSource(Buffer.from([0xff, 0xfe, 0x61, 0x00]));
    assert.equal(utf16.ok, false);
    assert.match((utf16 as { reason: string }).reason, /^not UTF-8 text/);
    assert.deepEqual(decodeSource(Buffer.from("é😀", "utf8")), { ok: true, text: "é😀" });
  });
  test("display paths keep the folder as written", () => {
    assert.equal(joinDisplay("./a", "b"), "./a/b");
    assert.equal(joinDisplay("a/", "b"), "a/b");
  });
});

describe("colour choice", () => {
  test("TTY only, NO_COLOR and TERM=dumb turn it off, FORCE_COLOR wins", () => {
    assert.equal(shouldColor({}, true), true);
    assert.equal(shouldColor({}, false), false);
    assert.equal(shouldColor({ NO_COLOR: "1" }, true), false);
    assert.equal(shouldColor({ NO_COLOR: "" }, true), true);
    assert.equal(shouldColor({ TERM: "dumb" }, true), false);
    assert.equal(shouldColor({ FORCE_COLOR: "1" }, false), true);
    assert.equal(shouldColor({ FORCE_COLOR: "", NO_COLOR: "1" }, false), true);
    assert.equal(shouldColor({ FORCE_COLOR: "0" }, true), false);
  });
});

describe("source snippet", () => {
  const show = (text: string, range: Range) => snippet(new SourceLines(text), range);
  test("caret under the range; at least one column wide", () => {
    assert.deepEqual(show("ab\n  model: x\n", r(1, 9, 1, 10)), { source: "  model: x", caret: "         ^" });
    assert.deepEqual(show("abcdef", r(0, 1, 0, 4)), { source: "abcdef", caret: " ^~~" });
    assert.deepEqual(show("abcdef", r(0, 2, 0, 2)), { source: "abcdef", caret: "  ^" });
  });
  test("a range over several lines is underlined to the end of its first line", () => {
    assert.deepEqual(show("x: {\n  a: 1\n}", r(0, 3, 2, 1)), { source: "x: {", caret: "   ^" });
    assert.deepEqual(show("steps: [\n  1]", r(0, 0, 1, 4)), { source: "steps: [", caret: "^~~~~~~~" });
  });
  test("CRLF and lone CR end lines; positions past the end are clamped", () => {
    assert.deepEqual(show("a\r\nbc\rd", r(1, 1, 1, 2)), { source: "bc", caret: " ^" });
    assert.deepEqual(show("a\r\nbc\rd", r(2, 0, 2, 1)), { source: "d", caret: "^" });
    assert.deepEqual(show("ab", r(0, 9, 0, 12)), { source: "ab", caret: "  ^" });
    assert.equal(show("ab", r(3, 0, 3, 1)), undefined);
    assert.equal(show("ab\n", r(1, 0, 1, 0)), undefined); // the empty last line: nothing to show
  });
  test("tabs are kept in the caret line; astral characters are one column; controls are neutralised", () => {
    assert.deepEqual(show("\tkey:\tv", r(0, 6, 0, 7)), { source: "\tkey:\tv", caret: "\t    \t^" });
    assert.deepEqual(show("😀 x", r(0, 3, 0, 4)), { source: "😀 x", caret: "  ^" });
    assert.deepEqual(show(`a${ESC}[31mb`, r(0, 6, 0, 7)), { source: "a\ufffd[31mb", caret: "      ^" });
    assert.deepEqual(show("a\u202eb", r(0, 2, 0, 3)), { source: "a\ufffdb", caret: "  ^" });
  });
  test("long lines are cut to a window around the range", () => {
    const line = "x".repeat(500) + "TARGET" + "y".repeat(500);
    const s = show(line, r(0, 500, 0, 506))!;
    assert.ok(s.source.startsWith("…") && s.source.endsWith("…"));
    assert.ok(s.source.length <= 162);
    const at = s.caret.indexOf("^");
    assert.equal(s.source.slice(at, at + 6), "TARGET");
    assert.equal(s.caret.slice(at), "^~~~~~");
  });
});

const yamlText = [
  "apiVersion: littleworkflow.dev/v0.1", // 0
  "steps:", // 1
  "  - id: draft", // 2
  "    with:", // 3
  "      model: gpt-4o", // 4
  "      prompt: \"Polish {{ steps.x.output }}\"", // 5
].join("\n") + "\n";

function handMade(): FileReport[] {
  return [
    {
      file: "flows/review.lwir.yaml", format: "yaml", text: yamlText, valid: false, workflowVersion: null, parseErrors: [],
      findings: [
        { code: "step.undeclared_dependency", path: "$.steps[0].with.prompt", message: "Step \"draft\" reads steps.x but does not list it in needs.", severity: "error", range: r(5, 14, 5, 43) },
        { code: "model.disallowed", path: "$.steps[0].with.model", message: "Model \"gpt-4o\" is not listed\nin permissions.models.", severity: "error", range: r(4, 13, 4, 19) },
        { code: "step.missing_dependency", path: "$.steps[0].with.prompt", message: "Step \"x\" does not exist.", severity: "error", range: r(5, 14, 5, 43) },
      ],
    },
    {
      file: "data.lwir.json", format: "json", text: "", valid: false, workflowVersion: null, findings: [],
      parseErrors: [{ message: "binary file", range: r(0, 0, 0, 0) }],
    },
    {
      file: "bad.lwir.json", format: "json", text: "{\n  \"a\": 1,\n}", valid: false, workflowVersion: null, findings: [],
      parseErrors: [{ message: "Trailing comma", range: r(1, 8, 1, 9) }],
    },
    { file: "ok.lwir.json", format: "json", text: "", valid: true, workflowVersion: { id: "wfver_0123456789abcdef", hash: "sha256:" + "ab".repeat(32) }, findings: [], parseErrors: [] },
  ];
}

describe("text formatter", () => {
  test("exact lines: problems in source order, caret, parse errors, ok lines, summary", () => {
    const out = formatText(handMade(), { color: false });
    assert.equal(out, [
      "flows/review.lwir.yaml:5:14  error  model.disallowed  Model \"gpt-4o\" is not listed in permissions.models.",
      "          model: gpt-4o",
      "                 ^~~~~~",
      "flows/review.lwir.yaml:6:15  error  step.missing_dependency  Step \"x\" does not exist.",
      "          prompt: \"Polish {{ steps.x.output }}\"",
      "                  ^" + "~".repeat(28),
      "flows/review.lwir.yaml:6:15  error  step.undeclared_dependency  Step \"draft\" reads steps.x but does not list it in needs.",
      "          prompt: \"Polish {{ steps.x.output }}\"",
      "                  ^" + "~".repeat(28),
      "data.lwir.json:1:1  error  parse  binary file",
      "bad.lwir.json:2:9  error  parse  Trailing comma",
      "      \"a\": 1,",
      "            ^",
      "ok  ok.lwir.json  wfver_0123456789abcdef",
      "",
      "5 problems in 3 of 4 files",
      "",
    ].join("\n"));
  });
  test("summaries: clean, singular, failures counted", () => {
    const ok = handMade()[3];
    assert.equal(formatText([ok], { color: false }), "ok  ok.lwir.json  wfver_0123456789abcdef\n\n1 file checked, no problems\n");
    assert.equal(formatText([], { color: false }), "0 files checked, no problems\n");
    assert.equal(formatText([handMade()[1]], { color: false }).split("\n").at(-2), "1 problem in 1 of 1 file");
    const failures = [{ path: "x", reason: "no such file or folder", kind: "unreadable" as const }];
    assert.equal(formatText([ok, ok], { color: false, failures }).split("\n").at(-2), "2 files checked, no problems; 1 path could not be checked");
  });
  test("colour adds ANSI codes only; stripping them gives the plain text", () => {
    const plain = formatText(handMade(), { color: false });
    const colored = formatText(handMade(), { color: true });
    assert.ok(!plain.includes(ESC));
    assert.ok(colored.includes(`${ESC}[31merror${ESC}[39m`));
    assert.equal(colored.replace(/\x1b\[\d+m/g, ""), plain);
  });
  test("messages: one line, a parser's code frame after a blank line dropped", () => {
    assert.equal(oneLine("Unexpected end at line 6, column 1:\n\n  { id: a\n^\n"), "Unexpected end at line 6, column 1:");
    assert.equal(oneLine("first\nsecond "), "first second");
  });

  test("control characters in names and messages are escaped", () => {
    const f = { ...handMade()[1], file: `evil${ESC}[2J.lwir.json`, parseErrors: [{ message: `bad${ESC}]0;title\u0007`, range: r(0, 0, 0, 0) }] };
    const out = formatText([f], { color: false });
    assert.ok(!out.includes(ESC) && !out.includes("\u0007"), out);
    assert.ok(out.startsWith("evil\\u001b[2J.lwir.json:1:1  error  parse  bad\\u001b]0;title\\u0007\n"));
  });
});

describe("json formatter", () => {
  test("fixed keys, findings sorted by path then code then range, parse errors by range, no internal fields", () => {
    const files = handMade();
    files[2].parseErrors.push({ message: "Earlier", range: r(0, 0, 0, 1) });
    (files[0].findings[0] as unknown as { segments: unknown }).segments = ["steps", 0];
    const out = JSON.parse(formatJson(files)) as { files: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(out), ["files"]);
    for (const f of out.files) assert.deepEqual(Object.keys(f), ["file", "format", "parseErrors", "findings", "valid", "workflowVersion"]);
    const first = out.files[0] as { findings: Record<string, unknown>[] };
    assert.deepEqual(first.findings.map((x) => [x.path, x.code]), [
      ["$.steps[0].with.model", "model.disallowed"],
      ["$.steps[0].with.prompt", "step.missing_dependency"],
      ["$.steps[0].with.prompt", "step.undeclared_dependency"],
    ]);
    for (const x of first.findings) assert.deepEqual(Object.keys(x), ["code", "path", "message", "severity", "range"]);
    assert.deepEqual(first.findings[0].range, { start: { line: 4, character: 13 }, end: { line: 4, character: 19 } });
    assert.deepEqual((out.files[2] as { parseErrors: { message: string }[] }).parseErrors.map((p) => p.message), ["Earlier", "Trailing comma"]);
    assert.deepEqual(out.files[3].workflowVersion, { id: "wfver_0123456789abcdef", hash: "sha256:" + "ab".repeat(32) });
    assert.equal(out.files[0].workflowVersion, null);
  });
  test("sorting is by code units (JS <), not locale", () => {
    const f: FileReport = { ...handMade()[1], parseErrors: [], findings: [
      { code: "b", path: "$.steps[0].é", message: "", severity: "error", range: r(0, 0, 0, 1) },
      { code: "a", path: "$.steps[0].Z", message: "", severity: "error", range: r(0, 0, 0, 1) },
      { code: "a", path: "$.steps[0].a", message: "", severity: "error", range: r(2, 0, 2, 1) },
      { code: "a", path: "$.steps[0].a", message: "", severity: "error", range: r(1, 0, 1, 1) },
      { code: "a", path: "$.steps", message: "", severity: "error", range: r(0, 0, 0, 1) },
    ] };
    const out = JSON.parse(formatJson([f])) as { files: { findings: { path: string; range: Range }[] }[] };
    assert.deepEqual(out.files[0].findings.map((x) => `${x.path}@${x.range.start.line}`), ["$.steps@0", "$.steps[0].Z@0", "$.steps[0].a@1", "$.steps[0].a@2", "$.steps[0].é@0"]);
  });
});

// ---- the built CLI -------------------------------------------------------------------------------

interface Run { status: number | null; stdout: string; stderr: string }

function lwir(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Run {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  const res = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...env, ...options.env }, cwd: options.cwd ?? process.cwd(), maxBuffer: 1 << 28 });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

interface JsonFile {
  file: string;
  format: string;
  parseErrors: { message: string; range: Range }[];
  findings: { code: string; path: string; message: string; severity: string; range: Range }[];
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
}
function jsonOf(run: Run): JsonFile[] {
  return (JSON.parse(run.stdout) as { files: JsonFile[] }).files;
}

const TREE_FILES = [
  `${TREE}/binary.lwir.json`,
  `${TREE}/findings.lwir.json`,
  `${TREE}/latin1.lwir.yaml`,
  `${TREE}/nested/deeper/pipeline.lwir.yml`,
  `${TREE}/unparsable.lwir.yaml`,
  `${TREE}/valid.lwir.json`,
  `${TREE}/valid.lwir.yaml`,
];

function assertVersion(v: JsonFile["workflowVersion"]): void {
  assert.ok(v);
  assert.match(v.hash, /^sha256:[0-9a-f]{64}$/);
  assert.equal(v.id, "wfver_" + v.hash.slice(7, 23));
}

describe("lwir validate --format json", () => {
  let files: JsonFile[];
  let run: Run;
  before(() => {
    run = lwir(["validate", "--format", "json", TREE]);
    files = jsonOf(run);
  });

  test("finds the LWIR files recursively, in sorted order; notes.json and readme.txt are skipped", () => {
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stderr, "");
    assert.deepEqual(files.map((f) => f.file), TREE_FILES);
  });

  test("contract shape", () => {
    for (const f of files) {
      assert.deepEqual(Object.keys(f), ["file", "format", "parseErrors", "findings", "valid", "workflowVersion"]);
      assert.ok(f.format === "json" || f.format === "yaml");
      for (const p of f.parseErrors) assert.deepEqual(Object.keys(p), ["message", "range"]);
      for (const x of f.findings) {
        assert.deepEqual(Object.keys(x), ["code", "path", "message", "severity", "range"]);
        assert.equal(x.severity, "error");
        assert.deepEqual(Object.keys(x.range), ["start", "end"]);
        assert.deepEqual(Object.keys(x.range.start), ["line", "character"]);
      }
      assert.equal(f.valid, f.parseErrors.length === 0 && f.findings.length === 0);
      if (f.valid) assertVersion(f.workflowVersion);
      else assert.equal(f.workflowVersion, null);
    }
    assert.deepEqual(files.map((f) => f.format), ["json", "json", "yaml", "yaml", "yaml", "json", "yaml"]);
    assert.deepEqual(files.map((f) => f.valid), [false, false, false, true, false, true, true]);
  });

  test("findings are the validator's, sorted by path then code", () => {
    const f = files[1];
    assert.deepEqual(f.parseErrors, []);
    assert.deepEqual(f.findings.map((x) => [x.path, x.code]), [
      ["$.steps", "terminal.ambiguous"],
      ["$.steps[0].with.model", "model.disallowed"],
      ["$.steps[1].with.prompt", "lwir.output_ambiguous_for_multi_visit"],
      ["$.steps[1].with.prompt", "step.undeclared_dependency"],
    ]);
    for (const file of files) {
      for (let i = 1; i < file.findings.length; i++) {
        const a = file.findings[i - 1], b = file.findings[i];
        assert.ok(a.path < b.path || (a.path === b.path && a.code <= b.code), `${a.path} ${a.code} / ${b.path} ${b.code}`);
      }
    }
  });

  test("binary, non-UTF-8 and unparsable files are parse errors at 1:1 with no findings", () => {
    assert.deepEqual(files[0].parseErrors, [{ message: "binary file", range: r(0, 0, 0, 0) }]);
    assert.deepEqual(files[2].parseErrors, [{ message: "not UTF-8 text", range: r(0, 0, 0, 0) }]);
    assert.ok(files[4].parseErrors.length > 0);
    for (const i of [0, 2, 4]) assert.deepEqual(files[i].findings, []);
  });

  test("a file given explicitly is checked whatever its name; format by extension or sniffed", () => {
    const res = lwir(["validate", "--format", "json", `${TREE}/notes.json`, `${FIX}/single/workflow.txt`, `${FIX}/single/workflow`, `${TREE}/valid.lwir.yaml`]);
    assert.equal(res.status, 0, res.stderr);
    const out = jsonOf(res);
    assert.deepEqual(out.map((f) => [f.file, f.format, f.valid]), [
      [`${TREE}/notes.json`, "json", true],
      [`${FIX}/single/workflow.txt`, "json", true],
      [`${FIX}/single/workflow`, "yaml", true],
      [`${TREE}/valid.lwir.yaml`, "yaml", true],
    ]);
    // Same documents, same WorkflowVersion, whatever the file is called.
    assert.equal(out[1].workflowVersion!.id, files[5].workflowVersion!.id);
    assert.equal(out[2].workflowVersion!.id, out[3].workflowVersion!.id);
  });

  test("paths are shown as given: ./prefix, trailing slash, absolute; the same file is listed once", () => {
    const dotted = jsonOf(lwir(["validate", "--format", "json", `./${TREE}/nested`]));
    assert.deepEqual(dotted.map((f) => f.file), [`./${TREE}/nested/deeper/pipeline.lwir.yml`]);
    const slash = jsonOf(lwir(["validate", "--format", "json", `${TREE}/nested/`, `${TREE}/nested/deeper/pipeline.lwir.yml`]));
    assert.deepEqual(slash.map((f) => f.file), [`${TREE}/nested/deeper/pipeline.lwir.yml`]);
    const abs = jsonOf(lwir(["validate", "--format", "json", resolve(TREE, "nested")]));
    assert.deepEqual(abs.map((f) => f.file), [resolve(TREE, "nested/deeper/pipeline.lwir.yml")]);
  });
});

describe("lwir validate (text)", () => {
  let run: Run;
  let files: JsonFile[];
  before(() => {
    run = lwir(["validate", TREE]);
    files = jsonOf(lwir(["validate", "--format", "json", TREE]));
  });

  test("one line per problem with 1-based line:col, the source line and a caret under the range", () => {
    assert.equal(run.status, 1, run.stderr);
    const lines = run.stdout.split("\n");
    const file = `${TREE}/findings.lwir.json`;
    const source = readFileSync(file, "utf8").split("\n");
    const found = files.find((f) => f.file === file)!;
    for (const x of found.findings) {
      const { start, end } = x.range;
      const header = `${file}:${start.line + 1}:${start.character + 1}  error  ${x.code}  ${x.message}`;
      const at = lines.indexOf(header);
      assert.ok(at >= 0, `missing ${header}`);
      assert.equal(lines[at + 1], "    " + source[start.line]);
      const width = end.line === start.line ? Math.max(1, end.character - start.character) : source[start.line].length - start.character;
      assert.equal(lines[at + 2], "    " + " ".repeat(start.character) + "^" + "~".repeat(width - 1));
    }
    // The model finding is on the line that names the model, at its key or its value.
    const model = found.findings.find((x) => x.code === "model.disallowed")!;
    const modelLine = source.findIndex((l) => l.includes(`"model": "gpt-4o"`));
    assert.equal(model.range.start.line, modelLine);
    const keyAt = source[modelLine].indexOf(`"model"`);
    const valueAt = source[modelLine].indexOf(`"gpt-4o"`);
    assert.ok([keyAt, keyAt + 1, valueAt, valueAt + 1].includes(model.range.start.character), String(model.range.start.character));
  });

  test("parse errors print as `parse`; undecodable files show no source line", () => {
    const lines = run.stdout.split("\n");
    const bin = lines.indexOf(`${TREE}/binary.lwir.json:1:1  error  parse  binary file`);
    assert.ok(bin >= 0);
    assert.ok(!lines[bin + 1].startsWith("    "));
    assert.ok(lines.includes(`${TREE}/latin1.lwir.yaml:1:1  error  parse  not UTF-8 text`));
    const unparsable = files.find((f) => f.file.endsWith("unparsable.lwir.yaml"))!;
    for (const p of unparsable.parseErrors) {
      assert.ok(lines.includes(`${TREE}/unparsable.lwir.yaml:${p.range.start.line + 1}:${p.range.start.character + 1}  error  parse  ${oneLine(p.message)}`), p.message);
    }
  });

  test("ok lines with the WorkflowVersion id, then the summary; no colour when piped", () => {
    const lines = run.stdout.trimEnd().split("\n");
    for (const f of files.filter((x) => x.valid)) assert.ok(lines.includes(`ok  ${f.file}  ${f.workflowVersion!.id}`), f.file);
    const problems = files.reduce((n, f) => n + f.findings.length + f.parseErrors.length, 0);
    assert.equal(lines.at(-1), `${problems} problems in 4 of 7 files`);
    assert.equal(lines.at(-2), "");
    assert.ok(!run.stdout.includes(ESC));
  });

  test("colours: FORCE_COLOR forces them, FORCE_COLOR=0 and NO_COLOR keep them off", () => {
    assert.ok(lwir(["validate", TREE], { env: { FORCE_COLOR: "1" } }).stdout.includes(`${ESC}[`));
    assert.ok(!lwir(["validate", TREE], { env: { FORCE_COLOR: "0" } }).stdout.includes(ESC));
    assert.ok(!lwir(["validate", TREE], { env: { NO_COLOR: "1" } }).stdout.includes(ESC));
  });

  test("a clean run", () => {
    const res = lwir(["validate", `${TREE}/valid.lwir.json`, `${TREE}/nested`]);
    assert.equal(res.status, 0, res.stderr);
    const lines = res.stdout.trimEnd().split("\n");
    assert.match(lines[0], new RegExp(`^ok  ${TREE}/valid\\.lwir\\.json  wfver_[0-9a-f]{16}$`));
    assert.match(lines[1], new RegExp(`^ok  ${TREE}/nested/deeper/pipeline\\.lwir\\.yml  wfver_[0-9a-f]{16}$`));
    assert.equal(lines.at(-1), "2 files checked, no problems");
  });
});

describe("exit codes", () => {
  const clean = `${TREE}/valid.lwir.json`;
  const dirty = `${TREE}/findings.lwir.json`;
  const missing = `${FIX}/no-such-file.lwir.json`;
  const cases: [string, string[], number, number][] = [
    // name, paths, exit, exit with --exit-zero
    ["clean", [clean], 0, 0],
    ["findings", [dirty], 1, 0],
    ["parse error", [`${TREE}/unparsable.lwir.yaml`], 1, 0],
    ["binary", [`${TREE}/binary.lwir.json`], 1, 0],
    ["non-UTF-8", [`${TREE}/latin1.lwir.yaml`], 1, 0],
    ["unreadable + clean", [missing, clean], 2, 2],
    ["unreadable + findings", [dirty, missing], 2, 2],
    ["unreadable only", [missing], 2, 2],
  ];
  for (const format of ["text", "json", "sarif"]) {
    for (const [name, paths, code, zeroCode] of cases) {
      test(`${format}: ${name} → ${code}, --exit-zero → ${zeroCode}`, () => {
        const a = lwir(["validate", "--format", format, ...paths]);
        const b = lwir(["validate", "--exit-zero", "--format", format, ...paths]);
        assert.equal(a.status, code, a.stderr);
        assert.equal(b.status, zeroCode, b.stderr);
        assert.equal(a.stdout, b.stdout); // --exit-zero changes the status only
      });
    }
  }

  test("usage errors exit 2 with the usage on stderr and nothing on stdout, --exit-zero or not", () => {
    for (const argv of [[], ["check", clean], ["validate"], ["validate", "--exit-zero"], ["validate", "--format", "xml", clean], ["validate", "--bogus", clean], ["validate", "--exit-zero", "--format", clean]]) {
      const res = lwir(argv);
      assert.equal(res.status, 2, JSON.stringify(argv));
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /^lwir: .+\n\nUsage: lwir validate/);
    }
    assert.match(lwir(["validate", "--bogus", clean]).stderr, /^lwir: unknown option --bogus\n/);
    assert.match(lwir(["frobnicate"]).stderr, /^lwir: unknown command frobnicate\n/);
  });

  test("--help and --version exit 0", () => {
    const help = lwir(["--help"]);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: lwir validate \[--format text\|json\|sarif\] \[--exit-zero\] PATH\.\.\./);
    assert.equal(lwir(["validate", "-h"]).status, 0);
    const version = lwir(["--version"]);
    assert.equal(version.status, 0);
    assert.equal(version.stdout, `${pkg.version}\n`);
  });
});

describe("unreadable paths, links and BOMs", () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), "lwir-cli-"));
    copyFileSync(`${TREE}/valid.lwir.json`, join(tmp, "a.lwir.json"));
    mkdirSync(join(tmp, "sub"));
    copyFileSync(`${TREE}/valid.lwir.yaml`, join(tmp, "sub", "b.lwir.yaml"));
    symlinkSync(".", join(tmp, "loop")); // a folder link to itself
    symlinkSync("..", join(tmp, "sub", "back")); // a folder link to its parent
    symlinkSync("sub", join(tmp, "zlink")); // a folder reached a second time: walked once
    symlinkSync("missing.lwir.json", join(tmp, "gone.lwir.yaml")); // dangling
    symlinkSync("missing.txt", join(tmp, "ignored-dangling.txt")); // dangling, but not an LWIR name
    symlinkSync("a.lwir.json", join(tmp, "link.lwir.json")); // a link to a file is followed
    symlinkSync("self.lwir.json", join(tmp, "self.lwir.json")); // a link to itself
    mkdirSync(join(tmp, "node_modules", "pkg"), { recursive: true }); // never searched
    copyFileSync(`${TREE}/findings.lwir.json`, join(tmp, "node_modules", "pkg", "x.lwir.json"));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test("folder links: loops and dangling links are reported, everything else is still checked; node_modules is skipped", () => {
    const res = lwir(["validate", "--format", "json", tmp]);
    assert.equal(res.status, 2);
    assert.deepEqual(jsonOf(res).map((f) => [f.file, f.valid]), [
      [`${tmp}/a.lwir.json`, true],
      [`${tmp}/link.lwir.json`, true],
      [`${tmp}/sub/b.lwir.yaml`, true],
    ]);
    assert.deepEqual(res.stderr.trimEnd().split("\n").sort(), [
      `lwir: cannot read ${tmp}/gone.lwir.yaml: dangling symbolic link`,
      `lwir: cannot read ${tmp}/loop: symbolic link loop (it leads back to a folder that contains it)`,
      `lwir: cannot read ${tmp}/self.lwir.json: symbolic link loop`,
      `lwir: cannot read ${tmp}/sub/back: symbolic link loop (it leads back to a folder that contains it)`,
    ]);
  });

  test("text output still lists the good files and counts what could not be checked", () => {
    const res = lwir(["validate", tmp]);
    assert.equal(res.status, 2);
    assert.equal(res.stdout.trimEnd().split("\n").at(-1), "3 files checked, no problems; 4 paths could not be checked");
  });

  test("explicit paths: missing, dangling link, a link loop; the others are still checked", () => {
    const res = lwir(["validate", "--format", "json", join(tmp, "nope.lwir.json"), join(tmp, "gone.lwir.yaml"), join(tmp, "self.lwir.json"), join(tmp, "a.lwir.json")]);
    assert.equal(res.status, 2);
    assert.deepEqual(jsonOf(res).map((f) => f.file), [join(tmp, "a.lwir.json")]);
    assert.deepEqual(res.stderr.trimEnd().split("\n"), [
      `lwir: cannot read ${join(tmp, "nope.lwir.json")}: no such file or folder`,
      `lwir: cannot read ${join(tmp, "gone.lwir.yaml")}: dangling symbolic link`,
      `lwir: cannot read ${join(tmp, "self.lwir.json")}: symbolic link loop`,
    ]);
  });

  test("permission denied: reported on stderr with exit 2, the other files still checked", () => {
    const file = join(tmp, "denied.lwir.json");
    const ok = join(tmp, "readable.lwir.json");
    copyFileSync(`${TREE}/valid.lwir.json`, file);
    copyFileSync(`${TREE}/valid.lwir.json`, ok);
    chmodSync(file, 0);
    let res: Run;
    if (process.getuid?.() === 0) {
      // root reads any file: run the CLI as the unprivileged user "nobody" so the denial is real.
      chmodSync(tmp, 0o755);
      chmodSync(ok, 0o644);
      const run = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, CLI, "validate", file, ok],
        { encoding: "utf8", cwd: "/" });
      res = { status: run.status, stdout: run.stdout, stderr: run.stderr };
    } else {
      res = lwir(["validate", file, ok]);
    }
    assert.equal(res.status, 2, res.stderr);
    assert.equal(res.stderr, `lwir: cannot read ${file}: permission denied\n`);
    assert.match(res.stdout, /^ok {2}.*readable\.lwir\.json {2}wfver_/m);
  });

  test("an empty folder is not an error but is pointed out", () => {
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    const res = lwir(["validate", empty]);
    assert.equal(res.status, 0);
    assert.equal(res.stdout, "0 files checked, no problems\n");
    assert.match(res.stderr, /^lwir: warning: no \*\.lwir\.json, \*\.lwir\.yaml or \*\.lwir\.yml file under /);
  });

  test("a UTF-8 BOM is skipped: same positions and the same WorkflowVersion as without it", () => {
    const withBom = readFileSync(`${FIX}/single/bom.lwir.json`);
    assert.deepEqual([...withBom.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    writeFileSync(join(tmp, "nobom.lwir.json"), withBom.subarray(3));
    const valid = readFileSync(`${TREE}/valid.lwir.json`);
    writeFileSync(join(tmp, "valid-bom.lwir.json"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), valid]));
    const out = jsonOf(lwir(["validate", "--format", "json", `${FIX}/single/bom.lwir.json`, join(tmp, "nobom.lwir.json"), join(tmp, "valid-bom.lwir.json"), `${TREE}/valid.lwir.json`]));
    assert.deepEqual(out[0].findings.map((x) => [x.path, x.code]), [["$.apiVersion", "schema.invalid"]]);
    assert.deepEqual(out[0].findings, out[1].findings);
    assert.equal(out[0].findings[0].range.start.line, 0);
    assert.ok([1, 2, 15, 16].includes(out[0].findings[0].range.start.character), String(out[0].findings[0].range.start.character));
    assert.equal(out[2].valid, true);
    assert.equal(out[2].workflowVersion!.id, out[3].workflowVersion!.id);
    const text = lwir(["validate", `${FIX}/single/bom.lwir.json`]).stdout.split("\n");
    assert.equal(text[1], `    {"apiVersion": "littleworkflow.dev/v0.2",`); // no BOM in the source line
  });
});

describe("large output", () => {
  test("a reader that stops early (| head) gets no stack trace", () => {
    assert.ok(existsSync(CLI));
    const res = spawnSync("sh", ["-c", `"${process.execPath}" "${CLI}" validate --format json test/corpus/conformance test/corpus/realworld | head -c 100 >/dev/null`], { encoding: "utf8" });
    assert.equal(res.status, 0); // head's status
    assert.equal(res.stderr, "");
  });
});
