// Nesting limits (findings catalog 11): deep JSON is reported, not parsed recursively; deep YAML is a parse
// error found before the yaml package's recursive composer (which can abort the process) sees it.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../server/src/document/document";
import { MAX_JSON_DEPTH, MAX_YAML_DEPTH, scanJsonDepth } from "../../server/src/document/depth";
import type { LwirDocument } from "../../server/src/document/types";
import { assertLinearWork, countStringWork } from "./work-count";

const R = (s: string, n: number) => s.repeat(n);
const arrays = (n: number) => R("[", n) + R("]", n);
const objects = (n: number) => R('{"a":', n) + "1" + R("}", n);

function timed(text: string, format: "json" | "yaml"): { doc: LwirDocument } {
  return { doc: parseDocument(text, format) };
}

/**
 * Parsing texts made by `make` takes work linear in n (characters read, not time: see work-count.ts), and
 * at most `perLevel` characters read per level (the yaml package's lexer searches the rest of a long line for each token up to the depth limit).
 */
function assertLinearParse(what: string, make: (n: number) => string, format: "json" | "yaml", n: number, perLevel = 100): void {
  assertLinearWork(what, (k) => { const text = make(k); return () => parseDocument(text, format); }, n, perLevel);
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
      test(`${name} nested ${n.toLocaleString("en")} levels: tooDeep, no value, no parse errors, in linear work`, () => {
        const { doc } = timed(make(n), "json");
        assert.deepEqual(doc.tooDeep, { depth: n, limit: 5000 });
        assert.equal(doc.value, undefined);
        assert.deepEqual(doc.parseErrors, []);
        assertLinearParse(name, make, "json", n);
        const root = doc.findingRange([]);
        assert.deepEqual(root.start, { line: 0, character: 0 });
        assert.ok(root.end.character > 0);
      });
    }
  }

  test("paths and cursor positions still map in a document too deep to validate, in linear time", () => {
    const text = arrays(100_000);
    const doc = parseDocument(text, "json");
    const at = doc.pathAt(100_000);
    assert.equal(at?.segments.length, 99_999);
    assert.deepEqual(doc.locate(Array(99_999).fill(0)), { valueStart: 99_999, valueEnd: 100_001 });
    assertLinearWork("pathAt and locate", (n) => {
      const deepDoc = parseDocument(arrays(n), "json");
      return () => { deepDoc.pathAt(n); deepDoc.locate(Array(n - 1).fill(0)); };
    }, 50_000, 100);
  });

  test("deep text that is not valid JSON is a parse error instead (what JSON.parse says)", () => {
    const invalid = (n: number) => R("[", n) + "1,]" + R("]", n - 1);
    const { doc } = timed(invalid(100_000), "json");
    assert.equal(doc.tooDeep, undefined);
    assert.equal(doc.value, undefined);
    assert.equal(doc.parseErrors.length, 1);
    assert.deepEqual(doc.parseErrors[0].range, { start: { line: 0, character: 100_001 }, end: { line: 0, character: 100_002 } });
    assertLinearParse("deep invalid JSON", invalid, "json", 50_000);
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

  const blockMaps = (n: number) => {
    let block = "";
    for (let i = 0; i < n; i++) block += R(" ", i) + "a:\n";
    return block + R(" ", n) + "1\n";
  };
  // Each made of n levels: 100,000 (2,000 for block maps, whose text grows with the square of the depth).
  const deep: Record<string, [(n: number) => string, number]> = {
    "flow sequences": [arrays, 100_000],
    "unclosed flow sequences": [(n) => R("[", n), 100_000],
    "flow maps": [(n) => R("{a: ", n) + "1" + R("}", n), 100_000],
    "anchored flow sequences": [(n) => R("&a [", n) + R("]", n), 100_000],
    "flow sequences over lines": [(n) => R("[\n", n) + R("]\n", n), 100_000],
    "flow sequences and maps": [(n) => R("[{a: ", n), 100_000],
    "compact block sequences (- - -)": [(n) => R("- ", n) + "1\n", 100_000],
    "explicit keys (? ? ?)": [(n) => R("? ", n) + "1\n", 100_000],
    "indented block maps (2,000 levels)": [blockMaps, 2000],
  };
  for (const [name, [make, levels]] of Object.entries(deep)) {
    test(`${name}: a parse error with a range, in linear work, without crashing`, () => {
      const { doc } = timed(make(levels), "yaml");
      assert.equal(doc.value, undefined);
      assert.equal(doc.parseErrors.length, 1);
      const [error] = doc.parseErrors;
      assert.equal(error.code, "NESTING_TOO_DEEP");
      assert.match(error.message, /400 levels/);
      assert.ok(error.range.end.line > error.range.start.line || error.range.end.character > error.range.start.character);
      // linear in the levels; block maps: in the size of their text, which grows with the square of the levels
      if (make === blockMaps) assertLinearParse(name, (k) => blockMaps(Math.round(Math.sqrt(k))), "yaml", 1_000_000, 20);
      else assertLinearParse(name, make, "yaml", levels / 4, 5000);
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
    const { doc } = timed(R("? ", 300) + "1\n", "yaml");
    assert.equal(doc.parseErrors[0]?.code, "KEY_NESTING_TOO_DEEP");
    assert.equal(doc.value, undefined);
    assertLinearParse("nested collection keys", (n) => R("? ", n) + "1\n", "yaml", 300);
  });

  test("aliases whose resolution would take the package too long are refused", () => {
    // an anchored list of empty lists: its expansion stays 0, so every use re-walks it (no budget applies)
    const aliases = (n: number) => "e: &e [" + Array(n).fill("[]").join(", ") + "]\nf: [" + Array(n).fill("*e").join(", ") + "]\n";
    const { doc } = timed(aliases(3000), "yaml");
    assert.equal(doc.parseErrors[0]?.code, "ALIAS_WORK");
    // The refusal's work is not linear in the uses (the package composes every alias before ours counts them;
    // 54 million characters read at 3,000 uses): a fixed budget of characters read stands for the time limit.
    const work = countStringWork(() => parseDocument(aliases(3000), "yaml"));
    assert.ok(work <= 80_000_000, `${work} characters read`);
    // a few hundred uses are fine
    const fine = parseDocument("e: &e [" + Array(300).fill("[]").join(", ") + "]\nf: [" + Array(300).fill("*e").join(", ") + "]\n", "yaml");
    assert.deepEqual(fine.parseErrors, []);
  });
});
