// Nesting limits (findings catalog 11): deep JSON is reported, not parsed recursively; deep YAML is a parse
// error found before the yaml package's recursive composer (which can abort the process) sees it.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../server/src/document/document";
import { MAX_JSON_DEPTH, MAX_YAML_DEPTH, scanJsonDepth } from "../../server/src/document/depth";
import type { LwirDocument } from "../../server/src/document/types";

const R = (s: string, n: number) => s.repeat(n);
const arrays = (n: number) => R("[", n) + R("]", n);
const objects = (n: number) => R('{"a":', n) + "1" + R("}", n);

function timed(text: string, format: "json" | "yaml"): { doc: LwirDocument; ms: number } {
  const started = performance.now();
  const doc = parseDocument(text, format);
  return { doc, ms: performance.now() - started };
}

describe("JSON depth", () => {
  test("the limit is 5,000 levels", () => assert.equal(MAX_JSON_DEPTH, 5000));

  for (const [name, make] of [["arrays", arrays], ["objects", objects]] as const) {
    test(`${name} nested 5,000 levels parse as usual`, () => {
      const { doc } = timed(make(5000), "json");
      assert.equal(doc.tooDeep, undefined);
      assert.deepEqual(doc.parseErrors, []);
      assert.notEqual(doc.value, undefined);
      // paths still map, without recursion
      const deepest = Array.from({ length: 4999 }, () => (name === "arrays" ? 0 : "a"));
      assert.ok(doc.locate(deepest));
    });

    for (const n of [5001, 100_000]) {
      test(`${name} nested ${n.toLocaleString("en")} levels: tooDeep, no value, no parse errors, quickly`, () => {
        const { doc, ms } = timed(make(n), "json");
        assert.deepEqual(doc.tooDeep, { depth: n, limit: 5000 });
        assert.equal(doc.value, undefined);
        assert.deepEqual(doc.parseErrors, []);
        assert.ok(ms < 2000, `${ms} ms`);
        const root = doc.findingRange([]);
        assert.deepEqual(root.start, { line: 0, character: 0 });
        assert.ok(root.end.character > 0);
      });
    }
  }

  test("paths and cursor positions still map in a document too deep to validate, in linear time", () => {
    const text = arrays(100_000);
    const doc = parseDocument(text, "json");
    const started = performance.now();
    const at = doc.pathAt(100_000);
    assert.equal(at?.segments.length, 99_999);
    assert.deepEqual(doc.locate(Array(99_999).fill(0)), { valueStart: 99_999, valueEnd: 100_001 });
    assert.ok(performance.now() - started < 2000);
  });

  test("deep text that is not valid JSON is a parse error instead (what JSON.parse says)", () => {
    const { doc, ms } = timed(R("[", 100_000) + "1,]" + R("]", 99_999), "json");
    assert.equal(doc.tooDeep, undefined);
    assert.equal(doc.value, undefined);
    assert.equal(doc.parseErrors.length, 1);
    assert.deepEqual(doc.parseErrors[0].range, { start: { line: 0, character: 100_001 }, end: { line: 0, character: 100_002 } });
    assert.ok(ms < 2000, `${ms} ms`);
    const open = parseDocument(R("[", 100_000), "json");
    assert.equal(open.parseErrors.length, 1);
  });

  test("brackets inside strings and comments do not count", () => {
    assert.deepEqual(scanJsonDepth('{"a": "' + R("[", 10_000) + '"}'), { depth: 1, overAt: -1 });
    assert.equal(scanJsonDepth('["\\"[[[", "\\\\", [1]]').depth, 2);
    assert.equal(scanJsonDepth("// [[[[\n[ /* {{{{ */ 1]").depth, 1);
    // an unterminated string ends at its line, as jsonc-parser's scanner reads it
    assert.equal(scanJsonDepth('["abc\n[[1]]]').depth, 3);
    const doc = parseDocument('{"a": "' + R("{", 20_000) + '"}', "json");
    assert.equal(doc.tooDeep, undefined);
    assert.equal((doc.value as { a: string }).a.length, 20_000);
  });

  test("overAt points at the first bracket past the limit", () => {
    assert.deepEqual(scanJsonDepth(" " + arrays(6), 5), { depth: 6, overAt: 6 });
  });
});

describe("YAML depth", () => {
  test("the limit is half of where the yaml package overflows (about 800 levels)", () => assert.equal(MAX_YAML_DEPTH, 400));

  let block = "";
  for (let i = 0; i < 2000; i++) block += R(" ", i) + "a:\n";
  const deep: Record<string, string> = {
    "flow sequences": arrays(100_000),
    "unclosed flow sequences": R("[", 100_000),
    "flow maps": R("{a: ", 100_000) + "1" + R("}", 100_000),
    "anchored flow sequences": R("&a [", 100_000) + R("]", 100_000),
    "flow sequences over lines": R("[\n", 100_000) + R("]\n", 100_000),
    "flow sequences and maps": R("[{a: ", 100_000),
    "compact block sequences (- - -)": R("- ", 100_000) + "1\n",
    "explicit keys (? ? ?)": R("? ", 100_000) + "1\n",
    "indented block maps (2,000 levels)": block + R(" ", 2000) + "1\n",
  };
  for (const [name, text] of Object.entries(deep)) {
    test(`${name}: a parse error with a range, quickly, without crashing`, () => {
      const { doc, ms } = timed(text, "yaml");
      assert.equal(doc.value, undefined);
      assert.equal(doc.parseErrors.length, 1);
      const [error] = doc.parseErrors;
      assert.equal(error.code, "NESTING_TOO_DEEP");
      assert.match(error.message, /400 levels/);
      assert.ok(error.range.end.line > error.range.start.line || error.range.end.character > error.range.start.character);
      assert.ok(ms < 2000, `${ms} ms`);
    });
  }

  test("up to the limit parses; one more level is refused", () => {
    const ok = parseDocument(arrays(400), "yaml");
    assert.deepEqual(ok.parseErrors, []);
    assert.ok(Array.isArray(ok.value));
    const over = parseDocument(arrays(401), "yaml");
    assert.equal(over.parseErrors[0]?.code, "NESTING_TOO_DEEP");
    assert.deepEqual(over.parseErrors[0].range, { start: { line: 0, character: 400 }, end: { line: 0, character: 401 } });
    // 399 block maps and the scalar inside the last one: 400 levels
    let nested = "";
    for (let i = 0; i < 399; i++) nested += R(" ", i) + "a:\n";
    assert.deepEqual(parseDocument(nested + R(" ", 399) + "1\n", "yaml").parseErrors, []);
    assert.equal(parseDocument(nested + R(" ", 399) + "a:\n" + R(" ", 400) + "1\n", "yaml").parseErrors[0]?.code, "NESTING_TOO_DEEP");
  });

  test("the check runs before composing: the yaml package reports no overflow of its own", () => {
    for (const text of [arrays(400), R("{a: ", 399) + "1" + R("}", 399), R("&a [", 400) + R("]", 400), R("- ", 399) + "1\n"]) {
      const doc = parseDocument(text, "yaml");
      assert.deepEqual(doc.parseErrors, []);
    }
  });

  test("brackets in quoted scalars, block scalars and comments do not count", () => {
    const text = `a: "${R("[", 10_000)}"\nb: '${R("{", 10_000)}'\nc: |\n  ${R("[", 10_000)}\n# ${R("[", 10_000)}\nd: x${R("[", 10_000)}\n`;
    const doc = parseDocument(text, "yaml");
    assert.deepEqual(doc.parseErrors, []);
    assert.equal((doc.value as { c: string }).c.length, 10_001);
  });
});

describe("YAML conversion limits (the package's toJS is super-linear on crafted input)", () => {
  test("collection keys nested more than 32 deep are refused; 32 are fine", () => {
    const ok = parseDocument(R("? ", 33) + "1\n", "yaml");
    assert.deepEqual(ok.parseErrors, []);
    const { doc, ms } = timed(R("? ", 300) + "1\n", "yaml");
    assert.equal(doc.parseErrors[0]?.code, "KEY_NESTING_TOO_DEEP");
    assert.equal(doc.value, undefined);
    assert.ok(ms < 2000, `${ms} ms`);
  });

  test("aliases whose resolution would take the package too long are refused", () => {
    // an anchored list of empty lists: its expansion stays 0, so every use re-walks it (no budget applies)
    const text = "e: &e [" + Array(3000).fill("[]").join(", ") + "]\nf: [" + Array(3000).fill("*e").join(", ") + "]\n";
    const { doc, ms } = timed(text, "yaml");
    assert.equal(doc.parseErrors[0]?.code, "ALIAS_WORK");
    assert.ok(ms < 3000, `${ms} ms`);
    // a few hundred uses are fine
    const fine = parseDocument("e: &e [" + Array(300).fill("[]").join(", ") + "]\nf: [" + Array(300).fill("*e").join(", ") + "]\n", "yaml");
    assert.deepEqual(fine.parseErrors, []);
  });
});
