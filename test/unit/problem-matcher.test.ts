// The `$lwir` problem matcher (package.json contributes.problemMatchers): VS Code applies its regexp to each
// line a task prints (colours removed) and fills the Problems panel from the groups. Applied here to the real
// `lwir validate` text output over corpus files, it must find exactly the problems `--format json` reports,
// with the same file, line, column, severity, code and message, and nothing else (no source or caret line).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const CLI = resolve("dist/cli.js");
const DIR = "test/corpus/conformance";

interface Matcher {
  name: string;
  owner: string;
  source?: string;
  fileLocation: string[];
  pattern: { regexp: string; file: number; line: number; column: number; severity: number; code: number; message: number };
}
interface Problem { file: string; line: number; column: number; severity: string; code: string; message: string }
interface JsonReport {
  files: {
    file: string;
    parseErrors: { message: string; range: Range }[];
    findings: { code: string; message: string; severity: string; range: Range }[];
    notices: { code: string; message: string; severity: string; range: Range }[];
  }[];
}
interface Range { start: { line: number; character: number } }

const matchers = (JSON.parse(readFileSync("package.json", "utf8")) as { contributes: { problemMatchers: Matcher[] } }).contributes.problemMatchers;
const matcher = matchers.find((m) => m.name === "lwir")!;

/** Several kinds of documents: findings in JSON and YAML, unparsable files, valid files, a file with many findings. */
function corpusFiles(): string[] {
  const all = readdirSync(DIR).filter((f) => /\.lwir\.(json|yaml)$/.test(f)).sort();
  const syntax = readdirSync(join(DIR, "syntax")).filter((f) => /\.lwir\.(json|yaml)$/.test(f)).sort();
  assert.ok(all.length > 100 && syntax.length > 5, "the corpus is missing");
  const pick = (list: string[], step: number) => list.filter((_, i) => i % step === 0);
  return [...pick(all, 9).map((f) => join(DIR, f)), ...pick(syntax, 3).map((f) => join(DIR, "syntax", f))];
}

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

function applyMatcher(output: string): Problem[] {
  const re = new RegExp(matcher.pattern.regexp);
  const p = matcher.pattern;
  return output.split(/\r?\n/).flatMap((line) => {
    const m = re.exec(line);
    return m ? [{ file: m[p.file], line: Number(m[p.line]), column: Number(m[p.column]), severity: m[p.severity], code: m[p.code], message: m[p.message] }] : [];
  });
}

function fromJson(files: string[]): Problem[] {
  const r = spawnSync(process.execPath, [CLI, "validate", "--format", "json", ...files], { encoding: "utf8", maxBuffer: 64 << 20 });
  const report = JSON.parse(r.stdout) as JsonReport;
  return report.files.flatMap((f) => [
    // The text output shows a parse error's first paragraph on one line (its code frame becomes the snippet).
    ...f.parseErrors.map((e) => ({ severity: "error", code: "parse", message: e.message.split(/\r?\n[ \t]*\r?\n/)[0].trim().replace(/\r\n|\r|\n/g, " "), range: e.range })),
    ...f.findings,
    // LWIR Tools' own warnings and hints (e.g. lwir.inherited_function_name) are lines of the text output too.
    ...f.notices,
  ].map((x) => ({ file: f.file, line: x.range.start.line + 1, column: x.range.start.character + 1, severity: x.severity, code: x.code, message: x.message })));
}

const key = (p: Problem) => JSON.stringify([p.file, p.line, p.column, p.code, p.severity, p.message]);
const sorted = (ps: Problem[]) => [...ps].sort((a, b) => key(a).localeCompare(key(b)));

test("$lwir is declared the way VS Code reads it", () => {
  assert.ok(matcher, "no problem matcher named lwir");
  // Not the language client's diagnostic owner ("lwir"): a task run must not replace the live diagnostics.
  assert.notEqual(matcher.owner, "lwir");
  assert.deepEqual(matcher.fileLocation, ["autoDetect", "${workspaceFolder}"]);
  for (const group of ["file", "line", "column", "severity", "code", "message"] as const) assert.equal(typeof matcher.pattern[group], "number", group);
});

for (const colour of ["NO_COLOR", "FORCE_COLOR"]) {
  test(`the matcher finds exactly the problems --format json reports (text output, ${colour})`, () => {
    const files = corpusFiles();
    const env = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, [colour]: "1" };
    const text = spawnSync(process.execPath, [CLI, "validate", ...files], { encoding: "utf8", env, maxBuffer: 64 << 20 });
    assert.equal(text.status, 1, text.stderr);
    if (colour === "FORCE_COLOR") assert.match(text.stdout, /\x1b\[/, "colours are on, as in a task's terminal");
    const expected = fromJson(files);
    assert.ok(expected.length > 30, `only ${expected.length} problems in the chosen files`);
    assert.ok(expected.some((p) => p.code === "parse") && expected.some((p) => p.file.endsWith(".yaml") && p.code !== "parse"));
    assert.deepEqual(sorted(applyMatcher(stripAnsi(text.stdout))), sorted(expected));
  });
}

test("a file name with spaces and colons still splits at the position", () => {
  const [p] = applyMatcher("my flows/a:b.lwir.yaml:12:5  error  step.invalid_id  Step id \"a.b\": dots are not allowed.");
  assert.deepEqual(p, { file: "my flows/a:b.lwir.yaml", line: 12, column: 5, severity: "error", code: "step.invalid_id", message: "Step id \"a.b\": dots are not allowed." });
  assert.deepEqual(applyMatcher("    model: gpt-4o\n             ^~~~~~\nok  a.lwir.json  wfver_0123\n3 problems in 1 of 2 files"), []);
});
