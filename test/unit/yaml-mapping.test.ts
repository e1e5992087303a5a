// The YAML side of the document layer: values exactly as YAML.parse reads them, parse errors with ranges,
// and the ranges findings are shown at (findingRange), pinned line by line.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import * as YAML from "yaml";
import { parseDocument } from "../../server/src/document/document";
import type { LwirDocument, Range } from "../../server/src/document/types";
import type { PathSegment } from "../../server/src/lwir/types";
import { allPaths, corpusFiles, rangeProblem, REALWORLD } from "./document-helpers";
import { SYNTAX } from "../corpus";

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const yaml = (text: string) => parseDocument(text, "yaml");
const covered = (doc: LwirDocument, range: Range) => doc.text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
/** YAML.parse as the runtime calls it, without its console warnings. */
const runtimeParse = (text: string): unknown => YAML.parse(text, { logLevel: "error" });

const TEXT = [
  "apiVersion: littleworkflow.dev/v0.1",
  "metadata:",
  '  name: "quoted name"',
  "  count: 42",
  "defaults: &defaults",
  "  model: gpt",
  "  tags: [a, b]",
  "steps:",
  "  - id: first",
  "    with: *defaults",
  "    prompt: |",
  "      Hello {{ input.x }}",
  "      second line",
  "    note: >-",
  "      folded",
  "  - [x, {k: v}]",
  "  - plain",
  "empty:",
  "",
].join("\n");

describe("yaml findingRange", () => {
  const doc = yaml(TEXT);
  test("the fixture parses", () => {
    assert.deepEqual(doc.parseErrors, []);
    const v = doc.value as { steps: { with: unknown; prompt: string; note: string }[]; defaults: unknown };
    assert.equal(v.steps[0].with, v.defaults); // an alias is the same object
    assert.equal(v.steps[0].prompt, "Hello {{ input.x }}\nsecond line\n");
    assert.equal(v.steps[0].note, "folded");
  });
  const cases: [string, PathSegment[], Range, string][] = [
    ["root: its first line", [], r(0, 0, 0, 35), "apiVersion: littleworkflow.dev/v0.1"],
    ["plain scalar value", ["apiVersion"], r(0, 12, 0, 35), "littleworkflow.dev/v0.1"],
    ["map with a key: the key", ["metadata"], r(1, 0, 1, 8), "metadata"],
    ["double-quoted scalar, with its quotes", ["metadata", "name"], r(2, 8, 2, 21), '"quoted name"'],
    ["number", ["metadata", "count"], r(3, 9, 3, 11), "42"],
    ["anchored map: the key", ["defaults"], r(4, 0, 4, 8), "defaults"],
    ["flow sequence with a key: the key", ["defaults", "tags"], r(6, 2, 6, 6), "tags"],
    ["flow sequence item", ["defaults", "tags", 1], r(6, 12, 6, 13), "b"],
    ["sequence with a key: the key", ["steps"], r(7, 0, 7, 5), "steps"],
    ["block map as a sequence item: its first line", ["steps", 0], r(8, 4, 8, 13), "id: first"],
    ["an alias with a key: the key", ["steps", 0, "with"], r(9, 4, 9, 8), "with"],
    ["through an alias: the anchored node (what check.mjs accepts)", ["steps", 0, "with", "model"], r(5, 9, 5, 12), "gpt"],
    ["missing below an alias: the alias's key", ["steps", 0, "with", "missing"], r(9, 4, 9, 8), "with"],
    ["literal block scalar: header through its first line", ["steps", 0, "prompt"], r(10, 12, 11, 25), "|\n      Hello {{ input.x }}"],
    ["folded block scalar with chomping", ["steps", 0, "note"], r(13, 10, 14, 12), ">-\n      folded"],
    ["flow sequence as an item: its first line", ["steps", 1], r(15, 4, 15, 15), "[x, {k: v}]"],
    ["flow map inside it", ["steps", 1, 1], r(15, 8, 15, 14), "{k: v}"],
    ["a value in a flow map", ["steps", 1, 1, "k"], r(15, 12, 15, 13), "v"],
    ["scalar item", ["steps", 2], r(16, 4, 16, 9), "plain"],
    ["an empty value: its key", ["empty"], r(17, 0, 17, 5), "empty"],
    ["missing member: the nearest ancestor's key", ["metadata", "version"], r(1, 0, 1, 8), "metadata"],
    ["missing index: the sequence's key", ["steps", 9], r(7, 0, 7, 5), "steps"],
    ["missing top-level key: the root's first line", ["nope", "x"], r(0, 0, 0, 35), "apiVersion: littleworkflow.dev/v0.1"],
    ["below a scalar: the scalar", ["steps", 2, "x"], r(16, 4, 16, 9), "plain"],
  ];
  for (const [name, segments, range, text] of cases) {
    test(name, () => {
      const got = doc.findingRange(segments);
      assert.deepEqual(got, range);
      assert.equal(covered(doc, got), text);
      assert.equal(rangeProblem("yaml", TEXT, segments, got), undefined);
    });
  }

  test("locate: a path ending at an alias is where the alias is used", () => {
    const use = TEXT.indexOf("*defaults");
    const key = TEXT.indexOf("with:");
    assert.deepEqual(doc.locate(["steps", 0, "with"]), { keyStart: key, keyEnd: key + 4, valueStart: use, valueEnd: use + 9 });
    const gpt = TEXT.indexOf("gpt");
    assert.deepEqual(doc.locate(["steps", 0, "with", "model"]), { keyStart: gpt - 7, keyEnd: gpt - 2, valueStart: gpt, valueEnd: gpt + 3 });
    assert.equal(doc.locate(["steps", 0, "with", "missing"]), undefined);
    const empty = TEXT.indexOf("empty:");
    assert.deepEqual(doc.locate(["empty"]), { keyStart: empty, keyEnd: empty + 5, valueStart: empty + 6, valueEnd: empty + 6 });
  });

  test("a sequence item that is an alias: the alias use", () => {
    const text = "base: &b {x: 1}\nlist:\n  - *b\n  - *b\n";
    const d = yaml(text);
    assert.deepEqual(d.findingRange(["list", 1]), r(3, 4, 3, 6));
    assert.deepEqual(d.findingRange(["list", 1, "x"]), r(0, 13, 0, 14));
    assert.equal(rangeProblem("yaml", text, ["list", 1], d.findingRange(["list", 1])), undefined);
  });
});

describe("yaml keys", () => {
  test("non-string scalar keys are matched as the converted object's keys", () => {
    const d = yaml("1: one\ntrue: t\n0x10: hex\n.inf: i\n~: nothing\n");
    assert.deepEqual(d.value, runtimeParse(d.text));
    assert.deepEqual(d.findingRange(["1"]), r(0, 3, 0, 6));
    assert.deepEqual(d.findingRange(["true"]), r(1, 6, 1, 7));
    assert.deepEqual(d.findingRange(["16"]), r(2, 6, 2, 9));
    assert.deepEqual(d.findingRange(["Infinity"]), r(3, 6, 3, 7));
    assert.deepEqual(d.findingRange([""]), r(4, 3, 4, 10));
  });

  test("collection keys (an unquoted {{ }}) are matched through the converted value", () => {
    const text = "when: {{ steps.a.output }}\n? [a, b]\n: v\n";
    const d = yaml(text);
    const v = d.value as Record<string, unknown>;
    assert.deepEqual(v, runtimeParse(text));
    assert.deepEqual(Object.keys(v), ["when", "[ a, b ]"]);
    // the inner braces are a flow map used as a key, with no value: shown at that key
    assert.deepEqual(d.findingRange(["when", "{ steps.a.output }"]), r(0, 7, 0, 25));
    assert.equal(covered(d, d.findingRange(["when"])), "when");
    assert.deepEqual(d.findingRange(["[ a, b ]"]), r(2, 2, 2, 3));
    assert.equal(d.locate(["when", "{ steps.a.output }"])?.keyStart, 7);
  });

  test("`<<` is an ordinary key and __proto__ an own one", () => {
    const d = yaml("<<: {a: 1}\n__proto__: {polluted: true}\n");
    const v = d.value as Record<string, unknown>;
    assert.deepEqual(Object.keys(v), ["<<", "__proto__"]);
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(d.findingRange(["<<", "a"]), r(0, 8, 0, 9));
    assert.deepEqual(d.findingRange(["__proto__", "polluted"]), r(1, 22, 1, 26));
  });
});

describe("yaml positions", () => {
  test("CRLF line endings, astral and multi-byte characters", () => {
    const text = '"a😀": x\r\nb:\r\n  c: "é😀"\r\n  d: |\r\n    line\r\n';
    const d = yaml(text);
    assert.deepEqual(d.value, runtimeParse(text));
    assert.deepEqual(d.findingRange(["a😀"]), r(0, 7, 0, 8));
    assert.deepEqual(d.findingRange(["b"]), r(1, 0, 1, 1));
    assert.deepEqual(d.findingRange(["b", "c"]), r(2, 5, 2, 10));
    assert.deepEqual(d.findingRange(["b", "d"]), r(3, 5, 4, 8));
    assert.equal(covered(d, d.findingRange(["b", "d"])), "|\r\n    line");
  });

  test("a multi-line plain or quoted scalar: its first line", () => {
    const d = yaml('a: first\n  second\nb: "one\n  two"\n');
    assert.deepEqual(d.findingRange(["a"]), r(0, 3, 0, 8));
    assert.deepEqual(d.findingRange(["b"]), r(2, 3, 2, 7));
  });

  test("a block scalar whose header has a comment and blank first lines", () => {
    const d = yaml("a: |2- # note\n\n   text\n");
    assert.equal(covered(d, d.findingRange(["a"])), "|2- # note\n\n   text");
  });
});

describe("yaml values: exactly YAML.parse", () => {
  test("an empty file and a comment-only file are null, without errors", () => {
    for (const text of ["", "# nothing here\n", "\n\n"]) {
      const d = yaml(text);
      assert.equal(d.value, null);
      assert.deepEqual(d.parseErrors, []);
      assert.deepEqual(d.findingRange([]), r(0, 0, 0, 0));
      assert.deepEqual(d.findingRange(["steps"]), r(0, 0, 0, 0));
      assert.deepEqual(d.pathAt(0), { segments: [], inKey: true, between: true });
    }
  });

  test("core schema scalars, !!binary / !!set / !!omap, recursive aliases", () => {
    const text = [
      "yes: yes", "t: True", "hex: 0x10", "oct: 0o17", "plus: +4", "under: 1_000", "inf: -.inf", "nan: .nan", "null: ~",
      "bin: !!binary aGVsbG8=", "set: !!set {a, b}", "omap: !!omap [a: 1]", "cycle: &c [*c]", "",
    ].join("\n");
    const d = yaml(text);
    assert.deepEqual(d.parseErrors, []);
    const v = d.value as Record<string, unknown>;
    assert.deepStrictEqual(v, runtimeParse(text));
    assert.equal(v.yes, "yes");
    assert.equal(v.t, true);
    assert.equal(v.hex, 16);
    assert.equal(v.under, "1_000");
    assert.ok(Number.isNaN(v.nan));
    assert.ok(v.bin instanceof Uint8Array);
    assert.ok(v.set instanceof Set);
    assert.ok(v.omap instanceof Map);
    const cycle = v.cycle as unknown[];
    assert.equal(cycle[0], cycle);
    assert.deepEqual(d.findingRange(["cycle", 0]), r(12, 11, 12, 13));
  });

  test("an unknown tag is a warning the runtime accepts, not an error", () => {
    const d = yaml("a: !foo x\n");
    assert.deepEqual(d.parseErrors, []);
    assert.equal(d.parseWarnings.length, 1);
    assert.equal(d.parseWarnings[0].code, "TAG_RESOLVE_FAILED");
    assert.deepEqual(d.parseWarnings[0].range, r(0, 3, 0, 7));
    assert.deepEqual(d.value, { a: "x" });
  });

  const files = [...corpusFiles(), ...corpusFiles(REALWORLD)].filter((c) => c.format === "yaml" && !c.syntax);
  test(`every corpus YAML file (${files.length}) parses without errors to YAML.parse's value`, () => {
    assert.ok(files.length > 90);
    for (const c of files) {
      const text = readFileSync(c.file, "utf8");
      const d = yaml(text);
      assert.deepEqual(d.parseErrors, [], c.name);
      assert.deepStrictEqual(d.value, runtimeParse(text), c.name);
    }
  });

  test("every path of every corpus YAML file gets a range conformance/check.mjs accepts", () => {
    let checked = 0;
    for (const c of files) {
      const text = readFileSync(c.file, "utf8");
      const d = yaml(text);
      for (const p of allPaths(d.value)) {
        const range = d.findingRange(p.segments);
        const problem = rangeProblem("yaml", text, p.segments, range);
        assert.equal(problem, undefined, `${c.name} ${JSON.stringify(p.segments)}: ${problem}`);
        if (p.segments.length > 0) assert.equal(d.locate(p.segments) !== undefined, p.exists, `${c.name} ${JSON.stringify(p.segments)}`);
        checked++;
      }
    }
    assert.ok(checked > 5000);
  });
});

describe("yaml parse errors", () => {
  const syntaxDir = SYNTAX;
  const pinned: Record<string, [string, Range, string]> = {
    "yaml--alias-expansion-bomb.lwir.yaml": ["ALIAS_BUDGET", r(5, 7, 5, 9), "*c"],
    "yaml--bad-indentation.lwir.yaml": ["BAD_INDENT", r(3, 0, 3, 1), " "],
    // (our own ranges, document/yamlErrors.ts: the whole value, the quote that is never closed)
    "yaml--compact-nested-mapping.lwir.yaml": ["BLOCK_AS_IMPLICIT_KEY", r(2, 10, 2, 17), "name: x"],
    "yaml--duplicate-key.lwir.yaml": ["DUPLICATE_KEY", r(2, 0, 2, 1), "k"],
    "yaml--multiple-documents.lwir.yaml": ["MULTIPLE_DOCS", r(2, 0, 2, 3), "---"],
    "yaml--unclosed-flow-sequence.lwir.yaml": ["BAD_INDENT", r(3, 27, 3, 28), "}"],
    "yaml--undefined-alias.lwir.yaml": ["UNRESOLVED_ALIAS", r(2, 10, 2, 15), "*meta"],
    "yaml--unterminated-quote.lwir.yaml": ["MISSING_CHAR", r(1, 6, 1, 15), '"Workflow'],
  };
  test("the corpus holds exactly the pinned YAML syntax cases", () => {
    assert.deepEqual(readdirSync(syntaxDir).filter((n) => n.endsWith(".lwir.yaml")).sort(), Object.keys(pinned).sort());
  });
  for (const name of Object.keys(pinned)) {
    test(`syntax/${name}: refused with a ranged error, as YAML.parse refuses it`, () => {
      const text = readFileSync(join(syntaxDir, name), "utf8");
      assert.throws(() => runtimeParse(text));
      // (the alias bomb among them is refused by the alias budget, ALIAS_BUDGET below, not expanded)
      const d = yaml(text);
      assert.equal(d.value, undefined);
      assert.ok(d.parseErrors.length >= 1);
      const [code, range, covers] = pinned[name];
      assert.equal(d.parseErrors[0].code, code);
      assert.deepEqual(d.parseErrors[0].range, range);
      assert.equal(covered(d, range), covers);
    });
  }

  test("an alias used past the budget is refused; one within it is not", () => {
    const within = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [" + Array(9).fill("*a").join(", ") + "]\n";
    assert.deepEqual(yaml(within).parseErrors, []);
    const over = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [" + Array(10).fill("*a").join(", ") + "]\nc: [" + Array(10).fill("*b").join(", ") + "]\n";
    assert.throws(() => runtimeParse(over));
    const d = yaml(over);
    assert.equal(d.parseErrors[0].code, "ALIAS_BUDGET");
    assert.equal(covered(d, d.parseErrors[0].range), "*b");
  });

  test("documents with errors still map what they can", () => {
    const text = "steps:\n  - id: a\n    uses: x\nsteps: 2\n";
    const d = yaml(text);
    assert.equal(d.parseErrors[0].code, "DUPLICATE_KEY");
    assert.equal(d.value, undefined);
    assert.deepEqual(d.pathAt(text.indexOf("uses") + 1), { segments: ["steps", 0, "uses"], inKey: true });
  });
});

describe("yaml pathAt", () => {
  const doc = yaml(TEXT);
  const at = (needle: string, delta = 1) => TEXT.indexOf(needle) + delta;
  test("keys, values, block scalars, aliases, flow collections", () => {
    assert.deepEqual(doc.pathAt(at("id: first")), { segments: ["steps", 0, "id"], inKey: true });
    assert.deepEqual(doc.pathAt(at("first")), { segments: ["steps", 0, "id"], inKey: false });
    assert.deepEqual(doc.pathAt(at("Hello")), { segments: ["steps", 0, "prompt"], inKey: false });
    assert.deepEqual(doc.pathAt(at("*defaults")), { segments: ["steps", 0, "with"], inKey: false });
    assert.deepEqual(doc.pathAt(at("v}]", 0)), { segments: ["steps", 1, 1, "k"], inKey: false });
    assert.deepEqual(doc.pathAt(at("model")), { segments: ["defaults", "model"], inKey: true });
    assert.deepEqual(doc.pathAt(0), { segments: ["apiVersion"], inKey: true });
  });
});
