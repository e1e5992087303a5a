// `lwir eval`: arguments, then the built dist/cli.js end to end (run `npm run build` first; `npm test`
// does): exit codes, the value as JSON, errors, context files in JSON and YAML, --jsonl order and bad
// lines, and date() read as UTC whatever the machine's time zone.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "../../server/src/cli/args";
import { evalLines, printValue } from "../../server/src/cli/eval";

const CLI = resolve("dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "lwir-eval-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function lwir(args: string[], input?: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: "utf8", env, cwd: dir });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const context = {
  input: { name: "Ada", tags: ["a", "b"], n: 3 },
  steps: { draft: { output: { title: "T", score: 7 } }, loop: { output: 2, visits: [1, 2] } },
  step: { id: "current" },
  workflow: { metadata: { name: "wf" } },
};
const contextFile = join(dir, "context.json");
writeFileSync(contextFile, JSON.stringify(context));
const yamlFile = join(dir, "context.yaml");
writeFileSync(yamlFile, "input:\n  name: Ada\n  tags: [a, b]\nsteps:\n  draft:\n    output: {title: T}\nitem:\n  id: c1\n");

describe("lwir eval: arguments", () => {
  test("a template, --context, --jsonl", () => {
    assert.deepEqual(parseArgs(["eval", "{{ input.x }}", "--context", "c.json"]), { kind: "eval", jsonl: false, context: "c.json", template: "{{ input.x }}" });
    assert.deepEqual(parseArgs(["eval", "--context=c.yaml", "x"]), { kind: "eval", jsonl: false, context: "c.yaml", template: "x" });
    assert.deepEqual(parseArgs(["eval", "--jsonl"]), { kind: "eval", jsonl: true });
    assert.deepEqual(parseArgs(["eval", "--", "-3"]), { kind: "eval", jsonl: false, template: "-3" });
  });
  test("mistakes are usage errors", () => {
    for (const argv of [["eval"], ["eval", "a", "b"], ["eval", "--jsonl", "a"], ["eval", "--jsonl", "--context", "c.json"], ["eval", "a", "--context"], ["eval", "a", "--format", "json"]]) {
      assert.equal(parseArgs(argv).kind, "usage-error", JSON.stringify(argv));
    }
  });
  test("printValue: JSON, and words for what JSON cannot say", () => {
    assert.equal(printValue(undefined), "undefined");
    assert.equal(printValue(Infinity), "Infinity");
    assert.equal(printValue("a"), '"a"');
    assert.equal(printValue({ b: 1, a: 2 }), '{\n  "b": 1,\n  "a": 2\n}');
  });
});

describe("lwir eval: the built CLI", () => {
  test("the value as JSON, exit 0", () => {
    const r = lwir(["eval", "{{ steps.draft.output }}", "--context", contextFile]);
    assert.deepEqual([r.code, JSON.parse(r.stdout), r.stderr], [0, { title: "T", score: 7 }, ""]);
    const text = lwir(["eval", "Dear {{ input.name }}, {{ input.tags }} / {{ steps.loop.lastOutput }}", "--context", contextFile]);
    assert.deepEqual([text.code, JSON.parse(text.stdout)], [0, 'Dear Ada, ["a","b"] / 2']);
  });

  test("steps, step and workflow are read in the runtime's key order (canonical), input as written", () => {
    const r = lwir(["eval", "{{ steps.draft.output }}|{{ input }}", "--context", contextFile]);
    assert.deepEqual([r.code, JSON.parse(r.stdout)], [0, '{"score":7,"title":"T"}|{"name":"Ada","tags":["a","b"],"n":3}']);
    const line = JSON.stringify({ template: "{{ workflow }} {{ input }}", context: { input: { z: 1, a: 2 }, workflow: { z: 1, a: { y: 1, b: 2 } } } });
    assert.deepEqual(JSON.parse(evalLines(line)), { value: '{"a":{"b":2,"y":1},"z":1} {"z":1,"a":2}' });
  });

  test("undefined is the word undefined, exit 0", () => {
    const r = lwir(["eval", "{{ coalesce(input.missing, input.other) }}", "--context", contextFile]);
    assert.deepEqual([r.code, r.stdout], [0, "undefined\n"]);
  });

  test("no --context: an empty context (no input, no step has run)", () => {
    assert.deepEqual(lwir(["eval", "{{ upper('x') }}"]).stdout, '"X"\n');
    const r = lwir(["eval", "{{ steps.a.output }}"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Expression references incomplete step 'a'\./);
  });

  test("the error, the expression and the runtime's error on standard error, exit 1", () => {
    const r = lwir(["eval", "Hi {{ input.nmae }}", "--context", contextFile]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      'lwir: Cannot read input.nmae: input has no property "nmae" (it has "name", "tags", "n").\n' +
        "  expression: {{ input.nmae }}\n" +
        "  the runtime's error: Expression 'input.nmae' could not be resolved at 'nmae'.\n",
    );
  });

  test("a YAML context file; item present means inside a parallel branch", () => {
    assert.deepEqual(JSON.parse(lwir(["eval", "{{ item.id }}-{{ input.tags[1] }}", "--context", yamlFile]).stdout), "c1-b");
    const outside = lwir(["eval", "{{ item.id }}", "--context", contextFile]);
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /outside a parallel branch/);
  });

  test("--context - reads standard input", () => {
    const r = lwir(["eval", "{{ input.name }}", "--context", "-"], JSON.stringify({ input: { name: "Bo" } }));
    assert.deepEqual([r.code, r.stdout], [0, '"Bo"\n']);
  });

  test("a context that cannot be used is exit 2 with the reason", () => {
    const bad = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      const r = lwir(["eval", "{{ input }}", "--context", name]);
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      return r.stderr;
    };
    assert.match(bad("broken.json", "{"), /^lwir: broken\.json does not parse/);
    assert.match(bad("typo.json", '{"inputs": {}}'), /unknown key "inputs"/);
    assert.match(bad("steps.json", '{"steps": {"a": "text"}}'), /steps\.a must be an object/);
    assert.match(bad("visits.json", '{"steps": {"a": {"output": 1, "visits": 2}}}'), /steps\.a\.visits must be an array/);
    assert.match(bad("array.json", "[]"), /must be an object/);
    const missing = lwir(["eval", "x", "--context", "nope.json"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^lwir: nope\.json: /);
  });

  test("usage errors exit 2 with the usage", () => {
    const r = lwir(["eval"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /lwir eval needs a TEMPLATE/);
    assert.match(r.stderr, /Usage: /);
  });

  test("--help describes lwir eval", () => {
    const help = lwir(["--help"]).stdout;
    assert.match(help, /lwir eval TEMPLATE \[--context FILE\]/);
    assert.match(help, /--jsonl/);
  });

  test("date() reads a date-time without an offset as UTC, whatever TZ says", () => {
    for (const TZ of ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]) {
      const lines = ["2024-03-05 10:00", "2024-03-05T10:20:30", "2024-03-05", "2024-03-05T10:00:00+02:00", "March 7, 2024", "Tue Mar 05 2024 10:00:00 GMT+0100"]
        .map((d) => JSON.stringify({ template: "{{ date(input.d) }}", context: { input: { d } } }))
        .join("\n");
      const r = lwir(["eval", "--jsonl"], lines, { ...process.env, TZ });
      assert.deepEqual(r.stdout.trim().split("\n").map((l) => JSON.parse(l)), [
        { value: "2024-03-05T10:00:00.000Z" },
        { value: "2024-03-05T10:20:30.000Z" },
        { value: "2024-03-05T00:00:00.000Z" },
        { value: "2024-03-05T08:00:00.000Z" },
        { value: "2024-03-07T00:00:00.000Z" },
        { value: "2024-03-05T09:00:00.000Z" },
      ], TZ);
    }
  });
});

describe("lwir eval --jsonl", () => {
  const lines = [
    JSON.stringify({ template: "{{ input.a }}", context: { input: { a: [1] } } }),
    "not json",
    "",
    JSON.stringify({ template: "{{ coalesce(input.x, input.y) }}" }),
    JSON.stringify([1]),
    JSON.stringify({ template: 3 }),
    JSON.stringify({ template: "{{ x", extra: 1 }),
    JSON.stringify({ template: "{{ len(input) }}", context: { input: 3 } }),
    JSON.stringify({ template: "{{ item }}", context: { item: null } }),
    JSON.stringify({ template: "{{ input }}", context: { inputs: 1 } }),
    JSON.stringify({ template: `{{ ${"len(".repeat(400)}1${")".repeat(400)} }}` }),
  ].join("\r\n");

  test("one line per non-empty line, in order; malformed lines get an error line", () => {
    const out = evalLines(lines).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(out.length, 10);
    assert.deepEqual(out[0], { value: [1] });
    assert.match(out[1].error as string, /^The line is not JSON: .*\.$/);
    assert.deepEqual(out[2], { undefined: true });
    assert.match(out[3].error as string, /must be an object/);
    assert.match(out[4].error as string, /needs a template/);
    assert.match(out[5].error as string, /unknown key "extra"/);
    assert.deepEqual(out[6], { error: "The value given to len() must be a text, an array or an object, not the number 3.", runtime: "len() supports strings, arrays, and objects.", expression: "len(input)" });
    assert.deepEqual(out[7], { value: null });
    assert.match(out[8].error as string, /unknown key "inputs"/);
    assert.deepEqual(Object.keys(out[9]), ["error", "limit", "expression"]);
  });

  test("the built CLI writes the same lines and exits 0", () => {
    const r = lwir(["eval", "--jsonl"], lines);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, evalLines(lines));
  });

  test("many lines keep their order", () => {
    const many = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ template: `{{ input.v }}`, context: { input: { v: i } } })).join("\n");
    const r = lwir(["eval", "--jsonl"], many);
    assert.deepEqual(r.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { value: number }).value), Array.from({ length: 2000 }, (_, i) => i));
  });
});
