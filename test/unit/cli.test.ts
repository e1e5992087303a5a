// `lwir validate`: the pure parts (arguments, decoding, formatters) with hand-made reports, then the
// built dist/cli.js end to end on test/fixtures/cli (run `npm run build` first; `npm test` does).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "../../server/src/cli/args";
import { decodeUtf8 } from "../../server/src/document/decode";
import { decodeSource, formatOfBytes, formatOf, isLwirFileName, joinDisplay, sniffFormat } from "../../server/src/cli/files";
import { formatJson } from "../../server/src/cli/format-json";
import { formatText, oneLine, shouldColor, snippet, SourceLines } from "../../server/src/cli/format-text";
import type { FileReport, Range } from "../../server/src/cli/report";
import { JSON_BOM_MESSAGE } from "../../server/src/document/json";

const CLI = resolve("dist/cli.js");
const FIX = "test/fixtures/cli";
const TREE = `${FIX}/tree`;
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const ESC = "\x1b";

// ---- pure parts --------------------------------------------------------------------------------

describe("arguments", () => {
  const DEFAULTS = { kind: "validate", format: "text", exitZero: false, quiet: false, rules: {}, errorOnUnmatched: true } as const;
  test("validate with options anywhere, --format=X, and -- before paths", () => {
    assert.deepEqual(parseArgs(["validate", "a", "--format", "json", "b", "--exit-zero"]), { ...DEFAULTS, format: "json", exitZero: true, paths: ["a", "b"] });
    assert.deepEqual(parseArgs(["validate", "--format=sarif", "a"]), { ...DEFAULTS, format: "sarif", paths: ["a"] });
    assert.deepEqual(parseArgs(["validate", "--", "--odd-name.lwir.json"]), { ...DEFAULTS, paths: ["--odd-name.lwir.json"] });
  });
  test("--quiet, --rule (repeatable, last wins), --max-warnings, --stdin-filename, --no-error-on-unmatched-pattern", () => {
    assert.deepEqual(parseArgs([
      "validate", "--quiet", "--rule", "lwir.yaml_unquoted_template=off", "--rule=lwir.parse_warning=hint", "--rule", "lwir.yaml_unquoted_template=error",
      "--max-warnings", "3", "--stdin-filename=flow.lwir.yaml", "--no-error-on-unmatched-pattern", "-", "a",
    ]), {
      ...DEFAULTS, quiet: true, rules: { "lwir.yaml_unquoted_template": "error", "lwir.parse_warning": "hint" }, maxWarnings: 3,
      stdinFilename: "flow.lwir.yaml", errorOnUnmatched: false, paths: ["-", "a"],
    });
    assert.deepEqual(parseArgs(["validate", "--max-warnings=0", "-"]), { ...DEFAULTS, maxWarnings: 0, paths: ["-"] });
  });
  test("--rule, --max-warnings and stdin mistakes are usage errors that say what is wrong", () => {
    const message = (argv: string[]) => {
      const c = parseArgs(argv);
      assert.equal(c.kind, "usage-error", JSON.stringify(argv));
      return (c as { message: string }).message;
    };
    assert.match(message(["validate", "--rule", "model.disallowed=off", "a"]), /^model\.disallowed is a problem the runtime refuses and is always an error; --rule sets only .*lwir\.yaml_unquoted_template/);
    assert.match(message(["validate", "--rule", "parse=warning", "a"]), /^parse is a problem the runtime refuses/);
    assert.match(message(["validate", "--rule", "no.such_rule=off", "a"]), /^unknown rule no\.such_rule for --rule \(rules that can be set: lwir\.invalid_utf8, lwir\.nul_byte, lwir\.parse_warning, lwir\.yaml_unquoted_template, lwir\.inherited_function_name, lwir\.unknown_key, lwir\.unknown_property, lwir\.property_of_scalar_output, lwir\.impossible_comparison, lwir\.items_not_array, lwir\.needs_decision_step, lwir\.needs_unchosen_target, lwir\.body_terminal_ambiguous, lwir\.terminal_output_type, lwir\.loop_read_before_run, lwir\.body_reads_multi_visit_step, lwir\.item_key_not_string, lwir\.function_argument_type, lwir\.unsafe_input_key, lwir\.when_always_true, lwir\.scenario_invalid, lwir\.scenario_no_workflow, lwir\.scenario_unknown_step, lwir\.scenario_unknown_target, lwir\.scenario_output_mismatch, lwir\.scenario_input_mismatch, lwir\.empty_document, lwir\.file_too_large\)$/);
    assert.equal(message(["validate", "--rule", "lwir.parse_warning=loud", "a"]), 'unknown level "loud" for --rule lwir.parse_warning (expected off, hint, info, warning or error)');
    assert.match(message(["validate", "--rule", "lwir.parse_warning", "a"]), /^--rule needs CODE=LEVEL/);
    assert.match(message(["validate", "a", "--rule"]), /^--rule needs CODE=LEVEL/);
    for (const n of ["-1", "x", "1.5", ""]) assert.match(message(["validate", `--max-warnings=${n}`, "a"]), /^--max-warnings needs a whole number/);
    assert.match(message(["validate", "a", "--max-warnings"]), /^--max-warnings needs a whole number/);
    assert.equal(message(["validate", "-", "-"]), "- (standard input) can be given only once");
    assert.equal(message(["validate", "--stdin-filename", "x.lwir.json", "a"]), "--stdin-filename names standard input: give - among the paths");
    assert.equal(message(["validate", "-", "--stdin-filename"]), "--stdin-filename needs a file name");
  });
  test("help and version", () => {
    assert.deepEqual(parseArgs(["--help"]), { kind: "help" });
    assert.deepEqual(parseArgs(["validate", "-h"]), { kind: "help" });
    assert.deepEqual(parseArgs(["--version"]), { kind: "version" });
  });
  test("usage errors", () => {
    assert.deepEqual(parseArgs([]), { kind: "short-usage" });
    const kinds = [["check", "a"], ["validate"], ["validate", "--format", "xml", "a"], ["validate", "a", "--format"], ["validate", "--bogus", "a"], ["--bogus"], ["validate", "--exit-zero"]]
      .map((argv) => parseArgs(argv));
    for (const k of kinds) assert.equal(k.kind, "usage-error", JSON.stringify(k));
    assert.deepEqual(parseArgs(["check"]), { kind: "usage-error", message: "unknown command check" });
    assert.deepEqual(parseArgs(["validate", "--format", "xml", "a"]), { kind: "usage-error", message: "unknown format xml (expected text, json, sarif or github)" });
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
  test("decode: as the runtime reads a file (every BOM kept, bad bytes as U+FFFD, listed); binary skipped only in folder scans", () => {
    assert.deepEqual(decodeSource(Buffer.from("\ufeffa: 1", "utf8")), { ok: true, text: "\ufeffa: 1", invalidUtf8: [] });
    assert.deepEqual(decodeSource(Buffer.from("\ufeff\ufeffa", "utf8")), { ok: true, text: "\ufeff\ufeffa", invalidUtf8: [] });
    assert.deepEqual(decodeSource(Buffer.from([0x7b, 0x00, 0x7d])), { ok: false, reason: "binary file" });
    assert.deepEqual(decodeSource(Buffer.from([0x7b, 0x00, 0x7d]), "read"), { ok: true, text: "{\0}", invalidUtf8: [] });
    // Not UTF-8 is not binary: read as Node's "utf8" reads it (so the runtime), the bytes listed.
    assert.deepEqual(decodeSource(Buffer.from([0x61, 0x3a, 0x20, 0xe9])), { ok: true, text: "a: \ufffd", invalidUtf8: [{ offset: 3, bytes: [0xe9] }] });
    // an encoded surrogate: three U+FFFD, as Buffer#toString gives
    const surrogate = Buffer.from([0xed, 0xa0, 0x80]);
    assert.deepEqual(decodeSource(surrogate), { ok: true, text: surrogate.toString("utf8"), invalidUtf8: [0, 1, 2].map((i) => ({ offset: i, bytes: [surrogate[i]] })) });
    // a sequence cut short is one U+FFFD for its bytes; the byte that cut it is read again
    assert.deepEqual(decodeUtf8(Buffer.from([0xf0, 0x9f, 0x98, 0x41, 0xf0, 0x9f, 0x98, 0x80])), {
      text: "\ufffdA😀", invalidUtf8: [{ offset: 0, bytes: [0xf0, 0x9f, 0x98] }],
    });
    const utf16 = decodeSource(Buffer.from([0xff, 0xfe, 0x61, 0x00]));
    assert.equal(utf16.ok, false);
    assert.match((utf16 as { reason: string }).reason, /^not UTF-8 text/);
    assert.deepEqual(decodeSource(Buffer.from("é😀\ufffd", "utf8")), { ok: true, text: "é😀\ufffd", invalidUtf8: [] });
  });
  test("decode: the same text as Buffer#toString (the runtime's reading), and every listed offset is a U+FFFD", () => {
    const samples = [0xc0, 0xc3, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0x80, 0xbf, 0xa0, 0x9f, 0x90, 0xbb, 0xbd, 0xff, 0x41, 0x0a];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let k = 0; k < 5000; k++) {
      const bytes = Buffer.from(Array.from({ length: 1 + (next() % 10) }, () => (next() % 3 === 0 ? next() % 256 : samples[next() % samples.length])));
      const decoded = decodeUtf8(bytes);
      assert.equal(decoded.text, bytes.toString("utf8"), bytes.toString("hex"));
      for (const i of decoded.invalidUtf8) assert.equal(decoded.text[i.offset], "\ufffd", bytes.toString("hex"));
      const literal = bytes.toString("hex").match(/efbfbd/g)?.length ?? 0;
      assert.equal((decoded.text.match(/\ufffd/g) ?? []).length, decoded.invalidUtf8.length + literal, bytes.toString("hex"));
    }
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
    // Never "no problems" when a path could not be checked.
    assert.equal(formatText([ok, ok], { color: false, failures }).split("\n").at(-2), "2 files checked; 1 path could not be checked");
    const unmatched = [{ path: "e", reason: "no LWIR file", kind: "unmatched" as const }, { path: "f", reason: "no LWIR file", kind: "unmatched" as const }];
    assert.equal(formatText([], { color: false, failures: unmatched }), "0 files checked; 2 folders hold no LWIR file\n");
    assert.equal(formatText([handMade()[1]], { color: false, failures: [...failures, ...unmatched] }).split("\n").at(-2),
      "1 problem in 1 of 1 file; 1 path could not be checked; 2 folders hold no LWIR file");
  });
  test("notices: their own severity, in source order with the problems; counted apart; a valid file is still ok", () => {
    const ok: FileReport = { ...handMade()[3], text: "a: 1\nb: {{ x }}\n", notices: [
      { code: "lwir.yaml_unquoted_template", path: "$.b", message: "Quote it.", severity: "warning", range: r(1, 3, 1, 10) },
      { code: "lwir.parse_warning", path: "$", message: "Odd tag.", severity: "hint", range: r(0, 0, 0, 1) },
      { code: "lwir.parse_warning", path: "$", message: "Other.", severity: "info", range: r(0, 3, 0, 4) },
    ] };
    assert.equal(formatText([ok], { color: false }), [
      "ok.lwir.json:1:1  hint  lwir.parse_warning  Odd tag.",
      "    a: 1",
      "    ^",
      "ok.lwir.json:1:4  info  lwir.parse_warning  Other.",
      "    a: 1",
      "       ^",
      "ok.lwir.json:2:4  warning  lwir.yaml_unquoted_template  Quote it.",
      "    b: {{ x }}",
      "       ^~~~~~~",
      "ok  ok.lwir.json  wfver_0123456789abcdef",
      "",
      "1 file checked, no problems, 1 warning, 1 info, 1 hint",
      "",
    ].join("\n"));
    // An own rule raised to error is a problem: counted, and the file is no longer ok.
    const raised: FileReport = { ...ok, notices: [{ ...ok.notices![0], severity: "error" }] };
    const out = formatText([raised], { color: false }).split("\n");
    assert.equal(out[0], "ok.lwir.json:2:4  error  lwir.yaml_unquoted_template  Quote it.");
    assert.ok(!out.some((l) => l.startsWith("ok  ")));
    assert.equal(out.at(-2), "1 problem in 1 of 1 file");
    assert.ok(formatText([ok], { color: true }).includes(`${ESC}[33mwarning${ESC}[39m`));
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
    assert.deepEqual(Object.keys(out), ["files", "errors"]);
    for (const f of out.files) assert.deepEqual(Object.keys(f), ["file", "format", "parseErrors", "findings", "valid", "workflowVersion", "notices"]);
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
  test("notices sorted by range with fixed keys; failures become errors [{path, message}]", () => {
    const f: FileReport = { ...handMade()[3], notices: [
      { code: "lwir.yaml_unquoted_template", path: "$.b", message: "B", severity: "warning", range: r(3, 0, 3, 1) },
      { code: "lwir.parse_warning", path: "$", message: "A", severity: "hint", range: r(1, 0, 1, 1) },
    ] };
    const failures = [
      { path: "gone.lwir.json", reason: "no such file or folder", kind: "unreadable" as const },
      { path: "empty", reason: "no *.lwir.json, *.lwir.yaml or *.lwir.yml file in this folder", kind: "unmatched" as const },
      { path: "odd.lwir.json", reason: "boom", kind: "internal" as const },
    ];
    const out = JSON.parse(formatJson([f], failures)) as { files: JsonFile[]; errors: unknown[] };
    assert.deepEqual(out.files[0].notices.map((n) => [n.message, n.severity]), [["A", "hint"], ["B", "warning"]]);
    for (const n of out.files[0].notices) assert.deepEqual(Object.keys(n), ["code", "path", "message", "severity", "range"]);
    assert.equal(out.files[0].valid, true);
    assert.deepEqual(out.errors, [
      { path: "gone.lwir.json", message: "no such file or folder" },
      { path: "empty", message: "no *.lwir.json, *.lwir.yaml or *.lwir.yml file in this folder" },
      { path: "odd.lwir.json", message: "internal error while checking it: boom" },
    ]);
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

function lwir(args: string[], options: { env?: Record<string, string>; cwd?: string; input?: string | Buffer } = {}): Run {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  const res = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...env, ...options.env }, cwd: options.cwd ?? process.cwd(), maxBuffer: 1 << 28, input: options.input ?? "" });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

interface JsonFile {
  file: string;
  format: string;
  parseErrors: { message: string; range: Range }[];
  findings: { code: string; path: string; message: string; severity: string; range: Range }[];
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
  notices: { code: string; path: string; message: string; severity: string; range: Range }[];
}
function jsonOf(run: Run): JsonFile[] {
  return (JSON.parse(run.stdout) as { files: JsonFile[] }).files;
}
function jsonErrorsOf(run: Run): { path: string; message: string }[] {
  return (JSON.parse(run.stdout) as { errors: { path: string; message: string }[] }).errors;
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
      // The original contract's keys first and unchanged; `notices` only after them.
      assert.deepEqual(Object.keys(f), ["file", "format", "parseErrors", "findings", "valid", "workflowVersion", "notices"]);
      // Latin-1 bytes are read as the runtime reads them, and warned about.
      assert.deepEqual(f.notices.map((n) => n.code), f.file.endsWith("latin1.lwir.yaml") ? ["lwir.invalid_utf8", "lwir.invalid_utf8"] : [], f.file);
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
    assert.deepEqual(files.map((f) => f.valid), [false, false, true, true, false, true, true]);
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

  test("in a folder, binary files are skipped (a parse error at 1:1), unparsable ones parse errors; no findings", () => {
    assert.deepEqual(files[0].parseErrors, [{ message: "binary file", range: r(0, 0, 0, 0) }]);
    assert.ok(files[4].parseErrors.length > 0);
    for (const i of [0, 4]) assert.deepEqual(files[i].findings, []);
  });

  test("not UTF-8 is not binary: read as the runtime reads it (U+FFFD), valid, a warning at each byte", () => {
    const latin1 = files[2];
    assert.deepEqual([latin1.parseErrors, latin1.findings, latin1.valid], [[], [], true]);
    assert.deepEqual(latin1.notices.map((n) => [n.code, n.severity, n.path, n.range]), [
      ["lwir.invalid_utf8", "warning", "$", r(3, 11, 3, 12)],
      ["lwir.invalid_utf8", "warning", "$", r(15, 40, 15, 41)],
    ]);
    assert.match(latin1.notices[0].message, /^Byte 0xE9 is not UTF-8: the runtime reads the file as UTF-8 and sees U\+FFFD/);
    // --rule turns it off like our other warnings
    const off = jsonOf(lwir(["validate", "--format", "json", "--rule", "lwir.invalid_utf8=off", `${TREE}/latin1.lwir.yaml`]));
    assert.deepEqual(off[0].notices, []);
  });

  test("a file named on the command line is read whatever its bytes: a binary file gets the runtime's parse error and warnings", () => {
    const res = lwir(["validate", "--format", "json", `${TREE}/binary.lwir.json`]);
    assert.equal(res.status, 1, res.stderr);
    const [bin] = jsonOf(res);
    assert.ok(bin.parseErrors.length > 0 && bin.parseErrors.every((p) => p.message !== "binary file"));
    assert.deepEqual([...new Set(bin.notices.map((n) => n.code))], ["lwir.invalid_utf8", "lwir.nul_byte"]);
    assert.deepEqual(bin.notices[0].range, r(0, 0, 0, 1)); // the PNG signature's 0x89
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
    assert.ok(lines.includes(`${TREE}/latin1.lwir.yaml:4:12  warning  lwir.invalid_utf8  Byte 0xE9 is not UTF-8: the runtime reads the file as UTF-8 and sees U+FFFD (\ufffd) here. Save the file as UTF-8.`));
    const unparsable = files.find((f) => f.file.endsWith("unparsable.lwir.yaml"))!;
    for (const p of unparsable.parseErrors) {
      assert.ok(lines.includes(`${TREE}/unparsable.lwir.yaml:${p.range.start.line + 1}:${p.range.start.character + 1}  error  parse  ${oneLine(p.message)}`), p.message);
    }
  });

  test("ok lines with the WorkflowVersion id, then the summary; no colour when piped", () => {
    const lines = run.stdout.trimEnd().split("\n");
    for (const f of files.filter((x) => x.valid)) assert.ok(lines.includes(`ok  ${f.file}  ${f.workflowVersion!.id}`), f.file);
    const problems = files.reduce((n, f) => n + f.findings.length + f.parseErrors.length, 0);
    assert.equal(lines.at(-1), `${problems} problems in 3 of 7 files, 2 warnings`);
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
    ["non-UTF-8 (a warning)", [`${TREE}/latin1.lwir.yaml`], 0, 0],
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
    for (const argv of [["check", clean], ["validate"], ["validate", "--exit-zero"], ["validate", "--format", "xml", clean], ["validate", "--bogus", clean], ["validate", "--exit-zero", "--format", clean]]) {
      const res = lwir(argv);
      assert.equal(res.status, 2, JSON.stringify(argv));
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /^lwir: .+\n\nUsage: lwir validate/);
    }
    assert.match(lwir(["validate", "--bogus", clean]).stderr, /^lwir: unknown option --bogus\n/);
    assert.match(lwir(["frobnicate"]).stderr, /^lwir: unknown command frobnicate\n/);
    // The usage after a mistake is the short one, which says where the rest is.
    assert.match(lwir(["validate"]).stderr, /Run lwir --help for every option\.\n$/);
  });

  test("lwir with no arguments prints the short usage (exit 2); --help the full one", () => {
    const bare = lwir([]);
    assert.equal(bare.status, 2);
    assert.equal(bare.stdout, "");
    // one line per command, then the pointer to --help
    assert.match(bare.stderr, /^Usage: lwir validate \[options\] PATH\.\.\. .*\n(?: {7}lwir \w+ .*\n)+Run lwir --help for every option\.\n$/);
    for (const command of ["graph", "schema", "eval", "run --dry", "test", "mcp"]) assert.match(bare.stderr, new RegExp(`^ {7}lwir ${command} `, "m"));
    assert.ok(bare.stderr.split("\n").length < 10, "short");
    const help = lwir(["--help"]).stdout;
    assert.ok(help.length > 4 * bare.stderr.length, "--help is the full usage");
  });

  test("--help and --version exit 0", () => {
    const help = lwir(["--help"]);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: lwir validate \[--format text\|json\|sarif\|github\] \[--exit-zero\] \[--quiet\] \[--rule CODE=LEVEL\]\.\.\./);
    // Every option the parser accepts is documented.
    for (const option of ["--format", "--exit-zero", "--quiet", "--rule", "--max-warnings", "--stdin-filename", "--no-error-on-unmatched-pattern", "--fix", "--fix-dry-run", "--fix-type",
      "--ignore-pattern", "-o, --output-file", "--color", "--no-color", "--help", "--version"]) {
      assert.ok(help.stdout.includes(option), option);
    }
    assert.match(help.stdout, /starts with \{ or \[\s+\(after white space\) is JSON, anything else YAML/);
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

  test("folder links: loops and dangling links are skipped with a notice, everything else is checked; node_modules is skipped", () => {
    const res = lwir(["validate", "--format", "json", tmp]);
    // Not a failure of the run: the tree's workflows were all checked.
    assert.equal(res.status, 0, res.stderr);
    assert.deepEqual(jsonOf(res).map((f) => [f.file, f.valid]), [
      [`${tmp}/a.lwir.json`, true],
      [`${tmp}/link.lwir.json`, true],
      [`${tmp}/sub/b.lwir.yaml`, true],
    ]);
    assert.deepEqual(res.stderr.trimEnd().split("\n").sort(), [
      `lwir: notice: ${tmp}/gone.lwir.yaml: skipped, dangling symbolic link`,
      `lwir: notice: ${tmp}/loop: skipped, symbolic link loop (it leads back to a folder that contains it)`,
      `lwir: notice: ${tmp}/self.lwir.json: skipped, symbolic link loop`,
      `lwir: notice: ${tmp}/sub/back: skipped, symbolic link loop (it leads back to a folder that contains it)`,
    ]);
    assert.deepEqual(jsonErrorsOf(res), [], "no errors in the report");
  });

  test("text output lists the good files; the skipped links are on stderr only", () => {
    const res = lwir(["validate", tmp]);
    assert.equal(res.status, 0);
    assert.equal(res.stdout.trimEnd().split("\n").at(-1), "3 files checked, no problems");
    assert.equal(res.stderr.split("\n").filter((l) => l.startsWith("lwir: notice: ")).length, 4);
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

  test("a folder with no LWIR file is an error (exit 2) in every format, unless --no-error-on-unmatched-pattern", () => {
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    writeFileSync(join(empty, "notes.json"), "{}"); // not an LWIR name: still nothing to check
    const MSG = "no *.lwir.json, *.lwir.yaml or *.lwir.yml file in this folder";
    const text = lwir(["validate", empty]);
    assert.equal(text.status, 2);
    assert.equal(text.stdout, "0 files checked; 1 folder holds no LWIR file\n");
    assert.equal(text.stderr, `lwir: ${empty}: ${MSG} (--no-error-on-unmatched-pattern allows it)\n`);
    // With a good file beside it: the file is reported, the summary never says "no problems".
    const mixed = lwir(["validate", join(tmp, "a.lwir.json"), empty]);
    assert.equal(mixed.status, 2);
    assert.equal(mixed.stdout.trimEnd().split("\n").at(-1), "1 file checked; 1 folder holds no LWIR file");
    const json = lwir(["validate", "--format", "json", "--exit-zero", empty]);
    assert.equal(json.status, 2); // the tool could not do what was asked: --exit-zero does not hide it
    assert.deepEqual(JSON.parse(json.stdout), { files: [], errors: [{ path: empty, message: MSG }] });
    const sarif = lwir(["validate", "--format", "sarif", empty]);
    assert.equal(sarif.status, 2);
    const invocation = (JSON.parse(sarif.stdout) as { runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[] }[] }).runs[0].invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.deepEqual(invocation.toolExecutionNotifications.map((n) => n.message.text), [`${empty}: ${MSG}`]);
    const allowed = lwir(["validate", "--no-error-on-unmatched-pattern", empty]);
    assert.equal(allowed.status, 0);
    assert.equal(allowed.stdout, "0 files checked, no problems\n");
    assert.equal(allowed.stderr, `lwir: warning: ${empty}: ${MSG}\n`);
    const allowedJson = lwir(["validate", "--format", "json", "--no-error-on-unmatched-pattern", empty, join(tmp, "a.lwir.json")]);
    assert.equal(allowedJson.status, 0);
    assert.deepEqual(jsonErrorsOf(allowedJson), []);
  });

  test("a UTF-8 BOM: a parse error in JSON (JSON.parse, and so the runtime, refuses it), allowed in YAML", () => {
    const withBom = readFileSync(`${FIX}/single/bom.lwir.json`);
    assert.deepEqual([...withBom.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
    writeFileSync(join(tmp, "valid-bom.lwir.json"), Buffer.concat([BOM, readFileSync(`${TREE}/valid.lwir.json`)]));
    writeFileSync(join(tmp, "valid-bom.lwir.yaml"), Buffer.concat([BOM, readFileSync(`${TREE}/valid.lwir.yaml`)]));
    const run = lwir(["validate", "--format", "json", `${FIX}/single/bom.lwir.json`, join(tmp, "valid-bom.lwir.json"), join(tmp, "valid-bom.lwir.yaml"), `${TREE}/valid.lwir.yaml`]);
    assert.equal(run.status, 1);
    const out = jsonOf(run);
    for (const f of out.slice(0, 2)) {
      assert.equal(f.valid, false);
      assert.equal(f.workflowVersion, null);
      assert.deepEqual(f.findings, []);
      assert.deepEqual(f.parseErrors, [{ message: JSON_BOM_MESSAGE, range: r(0, 0, 0, 1) }]);
    }
    assert.match(JSON_BOM_MESSAGE, /remove the byte-order mark/);
    // YAML: valid, and the same WorkflowVersion as without the BOM.
    assert.equal(out[2].valid, true);
    assert.equal(out[2].workflowVersion!.id, out[3].workflowVersion!.id);
    // Text: the invisible BOM is shown as a replacement character, with the caret under it.
    const text = lwir(["validate", join(tmp, "valid-bom.lwir.json")]);
    assert.equal(text.status, 1);
    const lines = text.stdout.split("\n");
    assert.equal(lines[0], `${join(tmp, "valid-bom.lwir.json")}:1:1  error  parse  ${JSON_BOM_MESSAGE}`);
    assert.equal(lines[1], "    \ufffd{");
    assert.equal(lines[2], "    ^");
    assert.equal(lwir(["validate", join(tmp, "valid-bom.lwir.yaml")]).status, 0);
  });

  test("--fix leaves a file with bytes that are not UTF-8 untouched (writing it back would replace them)", () => {
    const file = join(tmp, "latin1-fixable.lwir.yaml");
    const bytes = Buffer.concat([readFileSync(`${TREE}/latin1.lwir.yaml`), Buffer.from("      # {{ steps.write.output }}\n")]);
    // a fixable problem besides the byte: an unquoted template
    const fixable = Buffer.from(bytes.toString("latin1").replace('prompt: "Write the menu of the caf\u00e9"', "prompt: {{ input.topic }}"), "latin1");
    writeFileSync(file, fixable);
    const res = lwir(["validate", "--fix", "--format", "json", file]);
    assert.deepEqual(readFileSync(file), fixable);
    const [report] = jsonOf(res);
    assert.ok(report.notices.some((n) => n.code === "lwir.invalid_utf8") && report.notices.some((n) => n.code === "lwir.yaml_unquoted_template"));
  });

  test("two BOMs: YAML drops one and reads the other into the first key (schema.invalid at $.apiVersion); JSON refuses", () => {
    const BOMS = Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]);
    writeFileSync(join(tmp, "two-boms.lwir.yaml"), Buffer.concat([BOMS, readFileSync(`${TREE}/valid.lwir.yaml`)]));
    writeFileSync(join(tmp, "two-boms.lwir.json"), Buffer.concat([BOMS, readFileSync(`${TREE}/valid.lwir.json`)]));
    const run = lwir(["validate", "--format", "json", join(tmp, "two-boms.lwir.yaml"), join(tmp, "two-boms.lwir.json")]);
    assert.equal(run.status, 1);
    const [yaml, json] = jsonOf(run);
    assert.deepEqual(yaml.parseErrors, []);
    assert.deepEqual(yaml.findings.map((f) => [f.code, f.path, f.range.start]), [["schema.invalid", "$.apiVersion", { line: 0, character: 0 }]]);
    assert.equal(yaml.valid, false);
    assert.deepEqual(json.findings, []);
    assert.equal(json.parseErrors[0].message, JSON_BOM_MESSAGE);
    assert.equal(json.valid, false);
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

// ---- own notices, rule levels, --quiet, --max-warnings ---------------------------------------------

interface SarifRun {
  tool: { driver: { rules: { id: string; defaultConfiguration: { level: string } }[] } };
  results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; properties?: { path?: string; severity?: string } }[];
}
function sarifOf(run: Run): SarifRun {
  return (JSON.parse(run.stdout) as { runs: SarifRun[] }).runs[0];
}

describe("own notices: warnings of LWIR Tools, never the runtime's findings", () => {
  // Valid for the runtime (YAML reads `{{ input.topic }}` as a mapping), with an unquoted-template notice.
  const UNQUOTED = `${FIX}/notices/unquoted.lwir.yaml`;
  // Findings, an unquoted template and an unresolved tag (a parser warning).
  const MIXED = `${FIX}/notices/mixed.lwir.yaml`;
  const TEMPLATE_MESSAGE = 'YAML reads the unquoted {{ input.topic }} as a mapping, not as a template string; write "{{ input.topic }}".';

  test("text: the warning with its own severity and a caret; the file is still ok; exit 0", () => {
    const res = lwir(["validate", UNQUOTED]);
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stdout.replace(/wfver_[0-9a-f]{16}/, "wfver_X"), [
      `${UNQUOTED}:10:30  warning  lwir.yaml_unquoted_template  ${TEMPLATE_MESSAGE}`,
      "        with: {model: m, prompt: {{ input.topic }}}",
      "                                 ^~~~~~~~~~~~~~~~~",
      `ok  ${UNQUOTED}  wfver_X`,
      "",
      "1 file checked, no problems, 1 warning",
      "",
    ].join("\n"));
  });

  test("json: notices beside the unchanged findings; valid and the WorkflowVersion untouched", () => {
    const res = lwir(["validate", "--format", "json", UNQUOTED, MIXED]);
    assert.equal(res.status, 1, res.stderr); // MIXED has findings
    const [unquoted, mixed] = jsonOf(res);
    assert.equal(unquoted.valid, true);
    assertVersion(unquoted.workflowVersion);
    assert.deepEqual(unquoted.findings, []);
    assert.deepEqual(unquoted.notices, [{ code: "lwir.yaml_unquoted_template", path: "$.steps[0].with.prompt", message: TEMPLATE_MESSAGE, severity: "warning", range: r(9, 29, 9, 46) }]);
    assert.deepEqual(mixed.notices.map((n) => [n.code, n.severity, n.range.start.line]), [["lwir.parse_warning", "warning", 4], ["lwir.yaml_unquoted_template", "warning", 11]]);
    assert.ok(mixed.findings.length > 0);
    assert.ok(mixed.findings.every((f) => !f.code.startsWith("lwir.yaml") && f.code !== "lwir.parse_warning"));
  });

  test("sarif: warning results with their rule (defaults: warning); the runtime's rules keep their indexes", () => {
    const run = sarifOf(lwir(["validate", "--format", "sarif", UNQUOTED, MIXED]));
    const rules = run.tool.driver.rules;
    assert.deepEqual(rules.slice(-28).map((x) => [x.id, x.defaultConfiguration.level]),
      [["lwir.invalid_utf8", "warning"], ["lwir.nul_byte", "warning"], ["lwir.parse_warning", "warning"], ["lwir.yaml_unquoted_template", "warning"],
        ["lwir.inherited_function_name", "warning"], ["lwir.unknown_key", "warning"], ["lwir.unknown_property", "warning"], ["lwir.property_of_scalar_output", "warning"], ["lwir.impossible_comparison", "warning"], ["lwir.items_not_array", "warning"],
        ["lwir.needs_decision_step", "warning"], ["lwir.needs_unchosen_target", "warning"], ["lwir.body_terminal_ambiguous", "warning"], ["lwir.terminal_output_type", "warning"], ["lwir.loop_read_before_run", "warning"], ["lwir.body_reads_multi_visit_step", "warning"], ["lwir.item_key_not_string", "warning"], ["lwir.function_argument_type", "warning"], ["lwir.unsafe_input_key", "warning"], ["lwir.when_always_true", "warning"],
        ["lwir.scenario_invalid", "warning"], ["lwir.scenario_no_workflow", "warning"], ["lwir.scenario_unknown_step", "warning"], ["lwir.scenario_unknown_target", "warning"], ["lwir.scenario_output_mismatch", "warning"], ["lwir.scenario_input_mismatch", "warning"],
        ["lwir.empty_document", "note"], ["lwir.file_too_large", "warning"]]);
    assert.equal(rules[0].id, "parse");
    const notices = run.results.filter((x) => x.ruleId === "lwir.yaml_unquoted_template" || x.ruleId === "lwir.parse_warning");
    assert.equal(notices.length, 3);
    for (const x of notices) {
      assert.equal(x.level, "warning");
      assert.equal(rules[x.ruleIndex].id, x.ruleId);
    }
    for (const x of run.results.filter((y) => !notices.includes(y))) assert.equal(x.level, "error");
  });

  test("--rule sets levels in every format: off drops, info/hint are SARIF notes, error fails the run", () => {
    const info = lwir(["validate", "--format", "sarif", "--rule", "lwir.yaml_unquoted_template=info", UNQUOTED]);
    assert.equal(info.status, 0);
    assert.deepEqual(sarifOf(info).results.map((x) => [x.ruleId, x.level, x.properties?.severity]), [["lwir.yaml_unquoted_template", "note", "info"]]);
    const hint = lwir(["validate", "--format", "json", "--rule=lwir.yaml_unquoted_template=hint", UNQUOTED]);
    assert.deepEqual(jsonOf(hint)[0].notices.map((n) => n.severity), ["hint"]);
    assert.match(lwir(["validate", "--rule", "lwir.yaml_unquoted_template=hint", UNQUOTED]).stdout, /:10:30 {2}hint {2}lwir\.yaml_unquoted_template /);
    for (const format of ["text", "json", "sarif"]) {
      const off = lwir(["validate", "--format", format, "--rule", "lwir.yaml_unquoted_template=off", UNQUOTED]);
      assert.equal(off.status, 0);
      if (format === "json") assert.deepEqual(jsonOf(off)[0].notices, []);
      if (format === "sarif") assert.deepEqual(sarifOf(off).results, []);
      if (format === "text") assert.ok(!off.stdout.includes("lwir.yaml_unquoted_template") && off.stdout.endsWith("1 file checked, no problems\n"), off.stdout);
      // Raised to error (ESLint's meaning): exit 1, though the runtime accepts the file (valid stays true).
      const error = lwir(["validate", "--format", format, "--rule", "lwir.yaml_unquoted_template=error", UNQUOTED]);
      assert.equal(error.status, 1, format);
      if (format === "json") {
        const [f] = jsonOf(error);
        assert.equal(f.valid, true);
        assert.deepEqual(f.notices.map((n) => n.severity), ["error"]);
      }
      if (format === "sarif") assert.deepEqual(sarifOf(error).results.map((x) => x.level), ["error"]);
      if (format === "text") assert.equal(error.stdout.trimEnd().split("\n").at(-1), "1 problem in 1 of 1 file");
      assert.equal(lwir(["validate", "--format", format, "--exit-zero", "--rule", "lwir.yaml_unquoted_template=error", UNQUOTED]).status, 0);
    }
  });

  test("a runtime finding code or an unknown code or level in --rule: exit 2 with the reason", () => {
    for (const [arg, pattern] of [
      ["step.undeclared_dependency=off", /^lwir: step\.undeclared_dependency is a problem the runtime refuses and is always an error/],
      ["lwir.non_hashable=warning", /^lwir: lwir\.non_hashable is a problem the runtime refuses/],
      ["lwir.made_up=off", /^lwir: unknown rule lwir\.made_up for --rule/],
      ["lwir.parse_warning=silent", /^lwir: unknown level "silent" for --rule lwir\.parse_warning/],
    ] as const) {
      const res = lwir(["validate", "--rule", arg, UNQUOTED]);
      assert.equal(res.status, 2, arg);
      assert.equal(res.stdout, "");
      assert.match(res.stderr, pattern);
    }
  });

  test("--quiet reports errors only, in every format; exit status unchanged", () => {
    for (const format of ["text", "json", "sarif"]) {
      const loud = lwir(["validate", "--format", format, MIXED]);
      const quiet = lwir(["validate", "--format", format, "--quiet", MIXED]);
      assert.equal(quiet.status, loud.status);
      assert.equal(quiet.status, 1);
      if (format === "text") {
        assert.ok(loud.stdout.includes("  warning  lwir.parse_warning  "));
        assert.ok(!quiet.stdout.includes("warning"), quiet.stdout);
        assert.equal(quiet.stdout.trimEnd().split("\n").at(-1), "1 problem in 1 of 1 file");
      }
      if (format === "json") {
        assert.equal(jsonOf(loud)[0].notices.length, 2);
        assert.deepEqual(jsonOf(quiet)[0].notices, []);
        assert.deepEqual(jsonOf(quiet)[0].findings, jsonOf(loud)[0].findings);
      }
      if (format === "sarif") {
        assert.equal(sarifOf(loud).results.filter((x) => x.level === "warning").length, 2);
        assert.ok(sarifOf(quiet).results.length > 0 && sarifOf(quiet).results.every((x) => x.level === "error"));
      }
    }
    const quietOk = lwir(["validate", "--quiet", UNQUOTED]);
    assert.equal(quietOk.status, 0);
    assert.equal(quietOk.stdout.replace(/wfver_[0-9a-f]{16}/, "wfver_X"), `ok  ${UNQUOTED}  wfver_X\n\n1 file checked, no problems\n`);
    // An own rule raised to error is an error: --quiet keeps it.
    const raised = lwir(["validate", "--format", "json", "--quiet", "--rule", "lwir.yaml_unquoted_template=error", UNQUOTED]);
    assert.equal(raised.status, 1);
    assert.deepEqual(jsonOf(raised)[0].notices.map((n) => n.code), ["lwir.yaml_unquoted_template"]);
  });

  test("--max-warnings N: exit 1 when more than N warnings, counted even under --quiet; infos and hints do not count", () => {
    assert.equal(lwir(["validate", "--max-warnings", "1", UNQUOTED]).status, 0);
    const over = lwir(["validate", "--max-warnings", "0", UNQUOTED]);
    assert.equal(over.status, 1);
    assert.equal(over.stderr, "lwir: 1 warning, more than --max-warnings 0 allows\n");
    assert.equal(lwir(["validate", "--quiet", "--max-warnings=0", UNQUOTED]).status, 1);
    assert.equal(lwir(["validate", "--max-warnings=0", "--rule", "lwir.yaml_unquoted_template=info", UNQUOTED]).status, 0);
    assert.equal(lwir(["validate", "--max-warnings=0", "--exit-zero", UNQUOTED]).status, 0);
  });
});

// ---- standard input ------------------------------------------------------------------------------

describe("lwir validate - (standard input)", () => {
  const validJson = readFileSync(`${TREE}/valid.lwir.json`, "utf8");
  const validYaml = readFileSync(`${TREE}/valid.lwir.yaml`, "utf8");
  const findings = readFileSync(`${TREE}/findings.lwir.json`, "utf8");

  test("one document in every format, shown as <stdin>; the same result as the file", () => {
    const fromFile = jsonOf(lwir(["validate", "--format", "json", `${TREE}/findings.lwir.json`]))[0];
    const json = lwir(["validate", "--format", "json", "-"], { input: findings });
    assert.equal(json.status, 1, json.stderr);
    const [f] = jsonOf(json);
    assert.equal(f.file, "<stdin>");
    assert.equal(f.format, "json");
    assert.deepEqual(f.findings, fromFile.findings);
    const text = lwir(["validate", "-"], { input: findings });
    assert.equal(text.status, 1);
    assert.match(text.stdout, /^<stdin>:\d+:\d+ {2}error {2}/);
    const sarif = lwir(["validate", "--format", "sarif", "-"], { input: findings });
    assert.equal(sarif.status, 1);
    assert.equal(sarifOf(sarif).results.length, fromFile.findings.length);
    const ok = lwir(["validate", "-"], { input: validYaml });
    assert.equal(ok.status, 0);
    assert.match(ok.stdout, /^ok {2}<stdin> {2}wfver_[0-9a-f]{16}\n/);
  });

  test("without --stdin-filename the format is sniffed: { or [ after white space is JSON, else YAML", () => {
    assert.equal(jsonOf(lwir(["validate", "--format", "json", "-"], { input: "\n  " + validJson }))[0].format, "json");
    assert.equal(jsonOf(lwir(["validate", "--format", "json", "-"], { input: validYaml }))[0].format, "yaml");
    // Flow-style YAML starting with { is read as JSON, and so does not parse: the name decides.
    const flow = "{apiVersion: littleworkflow.dev/v0.1}";
    const sniffed = jsonOf(lwir(["validate", "--format", "json", "-"], { input: flow }))[0];
    assert.equal(sniffed.format, "json");
    assert.ok(sniffed.parseErrors.length > 0);
    const named = jsonOf(lwir(["validate", "--format", "json", "--stdin-filename", "flow.lwir.yaml", "-"], { input: flow }))[0];
    assert.deepEqual([named.file, named.format, named.parseErrors], ["flow.lwir.yaml", "yaml", []]);
  });

  test("--stdin-filename gives the name (also to SARIF) and the format by extension", () => {
    const yml = jsonOf(lwir(["validate", "--format", "json", "--stdin-filename", "ci/flow.lwir.yml", "-"], { input: validYaml }))[0];
    assert.deepEqual([yml.file, yml.format, yml.valid], ["ci/flow.lwir.yml", "yaml", true]);
    // A JSON text named .yaml is read as YAML (JSON is YAML): still valid, same WorkflowVersion.
    const asYaml = jsonOf(lwir(["validate", "--format", "json", "--stdin-filename", "x.lwir.yaml", "-"], { input: validJson }))[0];
    const asJson = jsonOf(lwir(["validate", "--format", "json", "--stdin-filename", "x.lwir.json", "-"], { input: validJson }))[0];
    assert.deepEqual([asYaml.format, asJson.format], ["yaml", "json"]);
    assert.equal(asYaml.workflowVersion!.id, asJson.workflowVersion!.id);
    // YAML named .json is JSON, and does not parse.
    assert.equal(lwir(["validate", "--stdin-filename", "x.lwir.json", "-"], { input: validYaml }).status, 1);
    const sarif = sarifOf(lwir(["validate", "--format", "sarif", "--stdin-filename", "ci/flow.lwir.json", "-"], { input: findings }));
    const uri = (sarif.results[0] as unknown as { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }).locations[0].physicalLocation.artifactLocation.uri;
    assert.equal(uri, "ci/flow.lwir.json");
  });

  test("stdin beside files, in command-line order; empty input and a BOM behave as in files", () => {
    const res = lwir(["validate", "--format", "json", `${TREE}/valid.lwir.yaml`, "-", `${TREE}/valid.lwir.json`], { input: validJson });
    assert.deepEqual(jsonOf(res).map((f) => f.file), [`${TREE}/valid.lwir.yaml`, "<stdin>", `${TREE}/valid.lwir.json`]);
    assert.equal(res.status, 0);
    const empty = jsonOf(lwir(["validate", "--format", "json", "--stdin-filename", "e.lwir.json", "-"], { input: "" }))[0];
    assert.equal(empty.valid, false);
    assert.ok(empty.parseErrors.length > 0);
    const bomJson = lwir(["validate", "--format", "json", "-"], { input: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(validJson)]) });
    assert.equal(bomJson.status, 1);
    assert.deepEqual(jsonOf(bomJson)[0].parseErrors, [{ message: JSON_BOM_MESSAGE, range: r(0, 0, 0, 1) }]);
    const bomYaml = lwir(["validate", "-"], { input: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(validYaml)]) });
    assert.equal(bomYaml.status, 0);
  });
});
