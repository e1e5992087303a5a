// The JSON side of the document layer: values exactly as JSON.parse reads them, parse errors with ranges,
// and the ranges findings are shown at (findingRange), pinned line by line.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { formatOf, parseDocument } from "../../server/src/document/document";
import type { LwirDocument, Range } from "../../server/src/document/types";
import type { PathSegment } from "../../server/src/lwir/types";
import { allPaths, corpusFiles, rangeProblem, REALWORLD } from "./document-helpers";
import { SYNTAX } from "../corpus";

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const json = (text: string) => parseDocument(text, "json");
const covered = (doc: LwirDocument, range: Range) => doc.text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));

const TEXT = [
  "{",
  '  "apiVersion": "littleworkflow.dev/v0.1",',
  '  "n": -12.5e3,',
  '  "steps": [',
  '    { "id": "a", "needs": [] },',
  '    "x",',
  "    [1, 2]",
  "  ],",
  '  "metadata": {',
  '    "name": "n"',
  "  }",
  "}",
].join("\n");

describe("json findingRange", () => {
  const doc = json(TEXT);
  const cases: [string, PathSegment[], Range, string][] = [
    ["root: its first line", [], r(0, 0, 0, 1), "{"],
    ["string value, with its quotes", ["apiVersion"], r(1, 16, 1, 41), '"littleworkflow.dev/v0.1"'],
    ["number value", ["n"], r(2, 7, 2, 14), "-12.5e3"],
    ["array with a key: the key", ["steps"], r(3, 2, 3, 9), '"steps"'],
    ["object element: its first line", ["steps", 0], r(4, 4, 4, 30), '{ "id": "a", "needs": [] }'],
    ["scalar inside an element", ["steps", 0, "id"], r(4, 12, 4, 15), '"a"'],
    ["empty array with a key: the key", ["steps", 0, "needs"], r(4, 17, 4, 24), '"needs"'],
    ["string element", ["steps", 1], r(5, 4, 5, 7), '"x"'],
    ["array element", ["steps", 2], r(6, 4, 6, 10), "[1, 2]"],
    ["number in a nested array", ["steps", 2, 1], r(6, 8, 6, 9), "2"],
    ["object with a key: the key", ["metadata"], r(8, 2, 8, 12), '"metadata"'],
    ["nested string", ["metadata", "name"], r(9, 12, 9, 15), '"n"'],
    ["missing member: the nearest ancestor's key", ["metadata", "version"], r(8, 2, 8, 12), '"metadata"'],
    ["missing index: the array's key", ["steps", 7], r(3, 2, 3, 9), '"steps"'],
    ["missing below an element: the element's first line", ["steps", 0, "with", "model"], r(4, 4, 4, 30), '{ "id": "a", "needs": [] }'],
    ["missing top-level key: the root", ["nope"], r(0, 0, 0, 1), "{"],
    ["a key below a scalar: the scalar", ["n", "x"], r(2, 7, 2, 14), "-12.5e3"],
    ["an index into an object: absent", ["metadata", 0], r(8, 2, 8, 12), '"metadata"'],
  ];
  for (const [name, segments, range, text] of cases) {
    test(name, () => {
      const got = doc.findingRange(segments);
      assert.deepEqual(got, range);
      assert.equal(covered(doc, got), text);
      assert.equal(rangeProblem("json", TEXT, segments, got), undefined);
    });
  }

  test("locate gives key and value offsets, and undefined for absent members", () => {
    const keyStart = TEXT.indexOf('"name"');
    assert.deepEqual(doc.locate(["metadata", "name"]), { keyStart, keyEnd: keyStart + 6, valueStart: keyStart + 8, valueEnd: keyStart + 11 });
    const el = TEXT.indexOf('"x"');
    assert.deepEqual(doc.locate(["steps", 1]), { valueStart: el, valueEnd: el + 3 });
    assert.deepEqual(doc.locate([]), { valueStart: 0, valueEnd: TEXT.length });
    assert.equal(doc.locate(["metadata", "version"]), undefined);
    assert.equal(doc.locate(["steps", 3]), undefined);
    assert.equal(doc.locate(["steps", -1]), undefined);
    assert.equal(doc.locate(["steps", "0"]), undefined);
  });

  test("root value on a later line, after whitespace", () => {
    const d = json("\n\n  [1,\n 2]\n");
    assert.deepEqual(d.findingRange([]), r(2, 2, 2, 5));
    assert.deepEqual(d.findingRange([1]), r(3, 1, 3, 2));
  });

  test("a scalar root", () => {
    const d = json('  "just a string"  ');
    assert.equal(d.value, "just a string");
    assert.deepEqual(d.findingRange([]), r(0, 2, 0, 17));
    assert.deepEqual(d.findingRange(["x"]), r(0, 2, 0, 17));
  });
});

describe("json keys", () => {
  test("a repeated key: the last one wins, for the value and the ranges", () => {
    const text = '{"a": {"x": 1}, "b": 2, "a": [10, 20]}';
    const d = json(text);
    assert.deepEqual(d.value, { a: [10, 20], b: 2 });
    const second = text.lastIndexOf('"a"');
    assert.deepEqual(d.findingRange(["a"]), r(0, second, 0, second + 3));
    assert.deepEqual(d.findingRange(["a", 1]), r(0, 34, 0, 36));
    assert.equal(d.locate(["a", "x"]), undefined);
    assert.deepEqual(d.findingRange(["a", "x"]), r(0, second, 0, second + 3));
  });

  test("__proto__ is an ordinary own key and never sets the prototype", () => {
    const text = '{"__proto__": {"polluted": true}, "k": 1}';
    const d = json(text);
    const v = d.value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.ok(Object.prototype.hasOwnProperty.call(v, "__proto__"));
    assert.deepEqual(Object.keys(v), ["__proto__", "k"]);
    assert.equal((v as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(d.findingRange(["__proto__"]), r(0, 1, 0, 12));
    assert.deepEqual(d.findingRange(["__proto__", "polluted"]), r(0, 27, 0, 31));
    const twice = json('{"__proto__": 1, "__proto__": [2]}');
    assert.deepEqual(Object.getOwnPropertyDescriptor(twice.value, "__proto__")?.value, [2]);
    assert.deepEqual(twice.findingRange(["__proto__", 0]), r(0, 31, 0, 32));
  });

  test("keys that name Object.prototype members are not found unless written", () => {
    const d = json('{"toString": 1}');
    assert.deepEqual(d.findingRange(["toString"]), r(0, 13, 0, 14));
    assert.equal(d.locate(["hasOwnProperty"]), undefined);
    assert.equal(d.locate(["constructor"]), undefined);
  });

  test("escaped keys match their decoded text", () => {
    const text = '{"a\\u0062": 1, "q\\"": 2, "s\\/": 3}';
    const d = json(text);
    assert.deepEqual(d.value, { ab: 1, 'q"': 2, "s/": 3 });
    assert.equal(covered(d, d.findingRange(["ab"])), "1");
    assert.equal(covered(d, d.findingRange(['q"'])), "2");
    assert.equal(covered(d, d.findingRange(["s/"])), "3");
  });
});

describe("json positions", () => {
  test("multi-byte and astral characters count as UTF-16 code units", () => {
    const text = '{"é😀": "😀😀", "k": 1}';
    const d = json(text);
    assert.deepEqual(d.findingRange(["é😀"]), r(0, 8, 0, 14));
    assert.deepEqual(d.findingRange(["k"]), r(0, 21, 0, 22));
    assert.equal(d.offsetAt({ line: 0, character: 21 }), 21);
  });

  test("CRLF line endings", () => {
    const text = '{\r\n  "a": {\r\n    "b": 1\r\n  },\r\n  "c": [\r\n    {"d": 2}\r\n  ]\r\n}';
    const d = json(text);
    assert.deepEqual(d.value, { a: { b: 1 }, c: [{ d: 2 }] });
    assert.deepEqual(d.findingRange([]), r(0, 0, 0, 1));
    assert.deepEqual(d.findingRange(["a"]), r(1, 2, 1, 5));
    assert.deepEqual(d.findingRange(["a", "b"]), r(2, 9, 2, 10));
    assert.deepEqual(d.findingRange(["c", 0]), r(5, 4, 5, 12));
    assert.deepEqual(d.positionAt(text.indexOf('"b"')), { line: 2, character: 4 });
    assert.equal(d.offsetAt({ line: 2, character: 4 }), text.indexOf('"b"'));
    // past the end of a line: clamped before its line break
    assert.equal(d.offsetAt({ line: 0, character: 10 }), 1);
    assert.equal(d.offsetAt({ line: 99, character: 0 }), text.length);
  });

  test("a lone CR ends a line, as LSP counts lines", () => {
    const d = json('{\r"a": 1}');
    assert.deepEqual(d.lineStarts, [0, 2]);
    assert.deepEqual(d.findingRange(["a"]), r(1, 5, 1, 6));
  });

  test("positionAt and offsetAt round-trip on every offset", () => {
    const d = json('{\n "é": [1,\r\n2],\r"😀": {}\n}');
    for (let i = 0; i <= d.text.length; i++) {
      const p = d.positionAt(i);
      const back = d.offsetAt(p);
      // offsets inside a \r\n pair map to the position before it
      if (d.text[i - 1] === "\r" && d.text[i] === "\n") assert.equal(back, i - 1);
      else assert.equal(back, i);
    }
  });
});

describe("json values: exactly JSON.parse", () => {
  test("edge semantics", () => {
    const d = json('{"big": 1e400, "small": -1e999, "neg": -0, "s": "\\ud800", "rev": "\\udc00\\ud800", "e": 1E2, "f": 1.0}');
    const v = d.value as Record<string, unknown>;
    assert.equal(v.big, Infinity);
    assert.equal(v.small, -Infinity);
    assert.ok(Object.is(v.neg, -0));
    assert.equal(v.s, "\ud800");
    assert.equal((v.s as string).length, 1);
    assert.equal(v.rev, "\udc00\ud800");
    assert.equal(v.e, 100);
    assert.equal(v.f, 1);
    assert.deepEqual(d.parseErrors, []);
  });

  const files = [...corpusFiles(), ...corpusFiles(REALWORLD)].filter((c) => c.format === "json" && !c.syntax);
  test(`every corpus JSON file (${files.length}) parses without errors to JSON.parse's value`, () => {
    assert.ok(files.length > 200);
    for (const c of files) {
      const text = readFileSync(c.file, "utf8");
      const d = json(text);
      assert.deepEqual(d.parseErrors, [], c.name);
      assert.deepStrictEqual(d.value, JSON.parse(text), c.name);
    }
  });

  test("every path of every corpus JSON file gets a range conformance/check.mjs accepts", () => {
    let checked = 0;
    for (const c of files) {
      const text = readFileSync(c.file, "utf8");
      const d = json(text);
      for (const p of allPaths(d.value)) {
        const range = d.findingRange(p.segments);
        const problem = rangeProblem("json", text, p.segments, range);
        assert.equal(problem, undefined, `${c.name} ${JSON.stringify(p.segments)}: ${problem}`);
        assert.equal(d.locate(p.segments) !== undefined, p.exists, `${c.name} ${JSON.stringify(p.segments)}`);
        if (p.exists && p.segments.length > 0) assert.ok(range.start.line < range.end.line || range.start.character < range.end.character);
        checked++;
      }
    }
    assert.ok(checked > 10000);
  });
});

describe("json parse errors", () => {
  const syntaxDir = SYNTAX;
  const pinned: Record<string, [string, Range, string]> = {
    "json--empty-file.lwir.json": ["ValueExpected", r(0, 0, 0, 0), ""],
    "json--hex-number.lwir.json": ["InvalidSymbol", r(58, 11, 58, 15), "0x10"],
    "json--line-comment.lwir.json": ["InvalidCommentToken", r(0, 0, 0, 16), "// planner draft"],
    "json--raw-newline-in-string.lwir.json": ["UnexpectedEndOfString", r(64, 18, 64, 28), '"Summarize'],
    "json--truncated.lwir.json": ["PropertyNameExpected", r(39, 3, 39, 4), ","],
    "json--unquoted-key.lwir.json": ["InvalidSymbol", r(2, 2, 2, 6), "kind"],
  };
  test("the corpus holds exactly the pinned JSON syntax cases", () => {
    assert.deepEqual(readdirSync(syntaxDir).filter((n) => n.endsWith(".lwir.json")).sort(), Object.keys(pinned).sort());
  });
  for (const name of Object.keys(pinned)) {
    test(`syntax/${name}: refused with a ranged error`, () => {
      const d = json(readFileSync(join(syntaxDir, name), "utf8"));
      assert.equal(d.value, undefined);
      assert.equal(d.tooDeep, undefined);
      assert.ok(d.parseErrors.length >= 1);
      const [code, range, text] = pinned[name];
      assert.equal(d.parseErrors[0].code, code);
      assert.deepEqual(d.parseErrors[0].range, range);
      assert.equal(covered(d, range), text);
    });
  }

  const bad: [string, string, string, Range][] = [
    ["a line comment", '{"a": 1 // why\n}', "InvalidCommentToken", r(0, 8, 0, 14)],
    ["a block comment", '/* c */ {"a": 1}', "InvalidCommentToken", r(0, 0, 0, 7)],
    ["a trailing comma in an object", '{"a": 1,}', "TrailingComma", r(0, 7, 0, 8)],
    ["a trailing comma in an array, over lines", '[1, 2,\n]', "TrailingComma", r(0, 5, 0, 6)],
    ["whitespace only", "  \n ", "ValueExpected", r(1, 1, 1, 1)],
    ["two values", '{"a": 1} {}', "EndOfFileExpected", r(0, 9, 0, 10)],
    ["an unterminated string", '{"a": "abc', "UnexpectedEndOfString", r(0, 6, 0, 10)],
    ["a tab inside a string", '{"a": "x\ty"}', "InvalidCharacter", r(0, 6, 0, 11)],
    ["a byte order mark", '\ufeff{"a": 1}', "ByteOrderMark", r(0, 0, 0, 1)],
    ["single quotes", "{'a': 1}", "InvalidSymbol", r(0, 1, 0, 4)],
    ["NaN", "NaN", "InvalidSymbol", r(0, 0, 0, 3)],
    ["a leading zero", "[01]", "CommaExpected", r(0, 2, 0, 3)],
    ["a missing colon", '{"a" 1}', "ColonExpected", r(0, 5, 0, 6)],
    ["a bad escape", '["\\x"]', "InvalidEscapeCharacter", r(0, 1, 0, 5)],
    ["U+2028 outside a string", '{"a": 1}\u2028', "InvalidSymbol", r(0, 8, 0, 9)],
  ];
  for (const [name, text, code, range] of bad) {
    test(`${name} is a parse error`, () => {
      const d = json(text);
      assert.equal(d.value, undefined);
      assert.throws(() => JSON.parse(text));
      assert.ok(d.parseErrors.length >= 1, "has an error");
      assert.equal(d.parseErrors[0].code, code);
      assert.deepEqual(d.parseErrors[0].range, range);
    });
  }

  test("independent comments and trailing commas are each reported; cascades are not", () => {
    const d = json('// a\n{"x": [1,],\n /* b */ "y": 2,}');
    assert.deepEqual(d.parseErrors.map((e) => e.code), ["InvalidCommentToken", "TrailingComma", "InvalidCommentToken", "TrailingComma"]);
    const cascade = json('{"a": "x\ny", "b": 1}');
    assert.equal(cascade.parseErrors.length, 1);
  });

  test("documents with errors still map paths and cursor positions (error-tolerant tree)", () => {
    const text = '{"steps": [{"id": "a", }], "kind": }';
    const d = json(text);
    assert.ok(d.parseErrors.length > 0);
    assert.equal(covered(d, d.findingRange(["steps", 0, "id"])), '"a"');
    assert.deepEqual(d.pathAt(text.indexOf("}]") - 1), { segments: ["steps", 0], inKey: true, between: true });
    assert.deepEqual(d.pathAt(text.indexOf('"kind"') + 2), { segments: ["kind"], inKey: true });
    assert.deepEqual(d.pathAt(text.length - 2), { segments: ["kind"], inKey: false });
  });
});

describe("json pathAt", () => {
  const doc = json(TEXT);
  const at = (needle: string, delta = 1) => TEXT.indexOf(needle) + delta;
  test("on a key, on a value, between members, outside", () => {
    assert.deepEqual(doc.pathAt(at('"id"')), { segments: ["steps", 0, "id"], inKey: true });
    assert.deepEqual(doc.pathAt(at('"a"')), { segments: ["steps", 0, "id"], inKey: false });
    assert.deepEqual(doc.pathAt(at("[1, 2]", 4)), { segments: ["steps", 2, 1], inKey: false });
    assert.deepEqual(doc.pathAt(at('"x"', -2)), { segments: ["steps"], inKey: false, between: true });
    assert.deepEqual(doc.pathAt(at('  "metadata"', 0)), { segments: [], inKey: true, between: true });
    assert.deepEqual(doc.pathAt(at('"name"', -1)), { segments: ["metadata"], inKey: true, between: true });
    assert.deepEqual(doc.pathAt(0), { segments: [], inKey: false });
    assert.equal(json("  {}").pathAt(0), undefined);
  });
});

test("formatOf", () => {
  assert.equal(formatOf("a.lwir.json"), "json");
  assert.equal(formatOf("/x/y/Plan.JSON"), "json");
  assert.equal(formatOf("a.lwir.yaml"), "yaml");
  assert.equal(formatOf("a.lwir.yml"), "yaml");
  assert.equal(formatOf("a.yaml"), "yaml");
  assert.equal(formatOf("a.txt"), undefined);
  assert.equal(formatOf("json"), undefined);
});

test("the document layer imports no Node API and no LSP library (it runs in a web worker)", () => {
  const dir = join(process.cwd(), "server", "src", "document");
  for (const name of readdirSync(dir)) {
    const source = readFileSync(join(dir, name), "utf8");
    for (const m of source.matchAll(/from\s+"([^"]+)"/g)) {
      assert.ok(["yaml", "jsonc-parser"].includes(m[1]) || m[1].startsWith("."), `${name} imports ${m[1]}`);
    }
    assert.doesNotMatch(source, /\brequire\(|\bprocess\.|\bBuffer\b/, name);
  }
});
