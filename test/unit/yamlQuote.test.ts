// document/yamlQuote.ts: the one rule for when a YAML scalar we write must be quoted, and how. Every
// writer uses it (snippets and completion, quick-fix edits, the diagnostics' suggested quoting, rename), so
// the cases below are the union of what each of them needs; the properties check that whatever we write
// reads back as the same string, in block and flow context, as a value and as a key, in YAML 1.2 and 1.1.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import {
  doubleQuotedInner, fitsSingleQuoted, isPlainSafe, quoteYaml, singleQuotedInner, yamlScalar,
} from "../../server/src/document/yamlQuote";

/** What `text` reads as in each place a scalar can be written, by a YAML 1.2 and a YAML 1.1 reader. */
function readBack(text: string): unknown[] {
  const docs = [`v: ${text}\n`, `- ${text}\n`, `v: [${text}, x]\n`, `{v: ${text}}\n`, `${text}: 1\n`, `{${text}: 1}\n`];
  const out: unknown[] = [];
  for (const version of ["1.2", "1.1"] as const) {
    for (const doc of docs) {
      const value = parse(doc, { version, uniqueKeys: false }) as unknown;
      if (Array.isArray(value)) out.push(value[0]);
      else if (value !== null && typeof value === "object") {
        const record = value as Record<string, unknown>;
        out.push("v" in record ? (Array.isArray(record.v) ? record.v[0] : record.v) : Object.keys(record)[0]);
      } else out.push(value);
    }
  }
  return out;
}

describe("plain or quoted", () => {
  test("plain: identifiers, dotted and slashed names, ids with dashes and digits", () => {
    for (const s of ["a", "fetch_data", "step-1", "d-1", "gpt-4o", "v1.2.3", "./path/to", "x@host", "f(x)", "a+b", "_", ".hidden", "1st"]) {
      assert.ok(isPlainSafe(s), s);
      assert.equal(yamlScalar(s), s);
      assert.deepEqual(new Set(readBack(s)), new Set([s]), s);
    }
  });

  test("quoted: the empty string, white space anywhere, anything beyond ASCII (conservative)", () => {
    for (const s of ["", " ", "x y", " a", "a ", "a\tb", "a\nb", "é", "a😀"]) assert.ok(!isPlainSafe(s), JSON.stringify(s));
  });

  test("quoted: values starting with {{ (YAML reads them as a flow mapping) or any other indicator", () => {
    for (const s of ["{{ input.x }}", "{{input.x}}", "{a}", "[a]", "-a", "- a", "?a", ":a", ",a", "#a", "&a", "*a", "!a", "|a", ">a", "'a", '"a', "%a", "@a", "`a", "(a)", "+a"]) {
      assert.ok(!isPlainSafe(s), s);
    }
  });

  test("quoted: `:` and `#` anywhere, and flow punctuation anywhere (one rule for block and flow)", () => {
    for (const s of ["a:b", "a: b", "a:", "a #b", "a#b", "a,b", "a[0]", "a{b}", "a]", "http://x"]) assert.ok(!isPlainSafe(s), s);
  });

  test("quoted: booleans and null of YAML 1.2 and 1.1, in any case, and 1.1's `=` and `<<`", () => {
    for (const s of ["true", "False", "TRUE", "null", "Null", "~", "yes", "No", "on", "OFF", "y", "N", "=", "<<"]) {
      assert.ok(!isPlainSafe(s), s);
      assert.equal(yamlScalar(s), JSON.stringify(s));
    }
  });

  test("quoted: numbers of YAML 1.2 and 1.1 (underscores, octal, hex, binary, floats, infinities) and 1.1 dates", () => {
    for (const s of ["0", "007", "42", "1_000", "1.5", "1.", ".5", "1e3", "1E-3", "0x1F", "0o17", "0b101", ".inf", ".NaN", ".", "1.2.3", "2024-01-31", "2024-1-2"]) {
      assert.ok(!isPlainSafe(s), s);
    }
    for (const s of ["v1.2.3", "1a", "0x", "1e", "2024-01", "./"]) assert.ok(isPlainSafe(s), `${s} is a string to every reader`);
  });
});

describe("how to quote", () => {
  test("double quotes by default; single quotes when double ones would need escapes for `\"` or `\\`", () => {
    assert.equal(quoteYaml("{{ input.x }}"), '"{{ input.x }}"');
    assert.equal(quoteYaml('say "hi"'), `'say "hi"'`);
    assert.equal(quoteYaml("a\\b"), "'a\\b'");
    assert.equal(quoteYaml("it's"), `"it's"`);
    assert.equal(quoteYaml(`it's "x"`), `'it''s "x"'`);
  });

  test("the preferred style (a neighbour's) when it can hold the string", () => {
    assert.equal(quoteYaml("a b", "'"), "'a b'");
    assert.equal(quoteYaml("it's", "'"), "'it''s'");
    assert.equal(quoteYaml("line\nbreak", "'"), '"line\\nbreak"', "single quotes would fold the line break");
    assert.equal(yamlScalar("true", "'"), "'true'");
    assert.equal(yamlScalar("plain", "'"), "plain");
  });

  test("single quotes hold no line break, tab or non-printable character; double quotes escape them", () => {
    for (const c of ["\n", "\r", "\t", "\u0000", "\u001b", "\u007f", "\u0085", "\u2028", "\u2029", "\ufeff"]) {
      assert.ok(!fitsSingleQuoted(`a${c}b`), JSON.stringify(c));
      assert.match(quoteYaml(`a${c}b`), /^"a\\[a-z0-9]+b"$/, JSON.stringify(c));
    }
    assert.equal(doubleQuotedInner("a\u0085b\u2028"), "a\\u0085b\\u2028");
    assert.equal(doubleQuotedInner('"\\'), '\\"\\\\');
    assert.equal(singleQuotedInner("it's"), "it''s");
    assert.ok(fitsSingleQuoted("é😀 {{ x }} #: ,[]"));
  });

  test("a string with a quote inside reads back in either style", () => {
    for (const s of [`'`, `"`, `'"`, `\\'`, "''"]) {
      for (const quoted of [quoteYaml(s, "'"), quoteYaml(s, '"')]) assert.deepEqual(new Set(readBack(quoted)), new Set([s]), quoted);
    }
  });
});

describe("what we write reads back as the same string", () => {
  const char = fc.constantFrom(
    "a", "Z", "0", "7", " ", "\t", "\n", "\r", ".", "/", "_", "-", "+", "@", "(", ")", ":", "#", ",", "[", "]", "{", "}", "'", '"', "\\",
    "!", "&", "*", "?", "|", ">", "%", "`", "~", "=", "<", "e", "x", "é", "😀", "\u0085", "\u2028", "\ufeff", "\u0000",
  );
  const word = fc.constantFrom("true", "yes", "n", "null", "1_0", "0x1", "0b1", ".inf", "2024-01-02", "{{ x }}", "<<", "1.5");
  const strings = fc.oneof(fc.array(char, { maxLength: 8 }).map((cs) => cs.join("")), word, fc.tuple(word, char).map(([w, c]) => w + c));

  test("yamlScalar: plain or quoted, in every context and reader", () => {
    fc.assert(fc.property(strings, (s) => {
      for (const read of readBack(yamlScalar(s))) assert.equal(read, s, `${JSON.stringify(s)} written as ${yamlScalar(s)}`);
    }), { numRuns: 1000, seed: 12 });
  });

  test("quoteYaml in either preferred style", () => {
    fc.assert(fc.property(strings, fc.constantFrom<"'" | '"'>("'", '"'), (s, q) => {
      for (const read of readBack(quoteYaml(s, q))) assert.equal(read, s, `${JSON.stringify(s)} written as ${quoteYaml(s, q)}`);
    }), { numRuns: 1000, seed: 12 });
  });
});

describe("one rule", () => {
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith(".ts") ? [join(dir, n)] : []));
  }

  test("snippets, completion, edits, diagnostics and rename take it from document/yamlQuote.ts; no other file keeps a list of YAML's reserved words", () => {
    for (const name of ["snippets", "completion", "edits", "diagnostics", "rename"]) {
      assert.match(readFileSync(`server/src/service/${name}.ts`, "utf8"), /from "\.\.\/document\/yamlQuote"/, name);
    }
    const others = files("server/src").filter((f) => !f.endsWith("yamlQuote.ts") && /\byes\|no\b|\bno\|yes\b|\btrue\|false\|null\b/i.test(readFileSync(f, "utf8")));
    assert.deepEqual(others, []);
  });
});
