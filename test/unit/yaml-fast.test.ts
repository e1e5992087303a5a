// The fast YAML reader (server/src/document/yaml-fast.ts) against the straightforward path (parseYaml, the
// `yaml` package): wherever the fast reader answers, it must give the same value, no parse problems, and the
// same ranges (locate, findingRange) and cursor paths (pathAt) as the full parse; where the text has any
// problem it must decline. Checked on generated workflows, the corpus, random one-character edits and
// random documents built from the constructs it reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { isDeepStrictEqual } from "node:util";
import { stringify } from "yaml";
import { parseYaml } from "../../server/src/document/yaml";
import { parseFastYamlDocument } from "../../server/src/document/yaml-fast";
import { parseDocument } from "../../server/src/document/document";
import type { PathSegment } from "../../server/src/lwir/types";
import { randomSource } from "../random";
import { CONFORMANCE, CORPUS, GENERATOR, REALWORLD, SYNTAX, corpusCases } from "../corpus";

const ROOT = process.cwd();

function generate(args: string[]): string {
  const r = spawnSync(process.execPath, [GENERATOR, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

function allPaths(v: unknown, p: PathSegment[] = [], out: PathSegment[][] = []): PathSegment[][] {
  out.push(p);
  if (Array.isArray(v)) v.forEach((x, i) => allPaths(x, [...p, i], out));
  else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) allPaths((v as Record<string, unknown>)[k], [...p, k], out);
  return out;
}

/** Returns whether the fast reader answered; fails when it answers differently from the full parse. */
function agrees(name: string, text: string, offsets = 400): boolean {
  const fast = parseFastYamlDocument(text);
  if (!fast) return false;
  const ref = parseYaml(text);
  assert.deepEqual(ref.parseErrors.map((e) => e.message), [], `${name}: the fast reader accepted text with parse errors`);
  assert.deepEqual(ref.parseWarnings.map((e) => e.message), [], `${name}: the fast reader accepted text with warnings`);
  assert.ok(isDeepStrictEqual(fast.value, ref.value), `${name}: values differ`);
  for (const p of allPaths(ref.value)) {
    assert.deepEqual(fast.locate(p), ref.locate(p), `${name}: locate ${JSON.stringify(p)}`);
    assert.deepEqual(fast.findingRange([...p, "absent"]), ref.findingRange([...p, "absent"]), `${name}: findingRange ${JSON.stringify(p)}`);
  }
  const step = Math.max(1, Math.floor(text.length / offsets));
  for (let o = -1; o <= text.length + 1; o += o % 5 === 0 ? 1 : step) {
    assert.deepEqual(fast.pathAt(o), ref.pathAt(o), `${name}: pathAt ${o} (${JSON.stringify(text.slice(Math.max(0, o - 15), o + 5))})`);
  }
  return true;
}

test("fast YAML reader agrees with the yaml package on generated workflows (and reads them)", () => {
  for (const seed of ["1", "2", "3", "4"]) {
    for (const steps of ["8", "60"]) {
      assert.ok(agrees(`seed ${seed} ${steps}`, generate(["--steps", steps, "--format", "yaml", "--seed", seed])), `seed ${seed}: not read fast`);
      agrees(`seed ${seed} ${steps} errors`, generate(["--steps", steps, "--format", "yaml", "--seed", seed, "--errors", "5"]));
    }
  }
});

test("fast YAML reader agrees with the yaml package on every corpus and example document it reads", () => {
  let read = 0;
  for (const dir of [CONFORMANCE, SYNTAX, REALWORLD, join(ROOT, "examples")]) {
    // the corpus folders must hold all their cases; examples/ is ours
    const names = dir.startsWith(CORPUS) ? corpusCases(dir).map((c) => c.name) : readdirSync(dir);
    for (const name of names) {
      if (!/\.ya?ml$/.test(name)) continue;
      if (agrees(name, readFileSync(join(dir, name), "utf8"), 2000)) read++;
    }
  }
  assert.ok(read > 3, `only ${read} documents read fast`);
});

test("fast YAML reader: random one-character edits of a workflow", () => {
  const base = generate(["--steps", "12", "--format", "yaml", "--seed", "7"]);
  const random = randomSource(42);
  const alphabet = ["a", " ", "\n", ":", "-", "#", '"', "'", "[", "]", "{", "|", ",", "0", ".", "&", "*", "!", "\\", "\t", "?", ">"];
  let read = 0;
  for (let i = 0; i < 300; i++) {
    const at = Math.floor(random() * base.length);
    const text = random() < 0.5
      ? base.slice(0, at) + alphabet[Math.floor(random() * alphabet.length)] + base.slice(at)
      : base.slice(0, at) + base.slice(at + 1);
    if (agrees(`edit ${i} at ${at}`, text, 60)) read++;
  }
  assert.ok(read > 100, `only ${read} edited documents read fast`);
});

test("fast YAML reader: random documents built from the constructs it reads", () => {
  const random = randomSource(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const keys = ["a", "id", "my key", "x.y", "k-1", "_u", "1a", "true", "null", "~", "0x1", "1e3", "\"q\"", "\"w x\"", "b#c", "ü"];
  const scalars = ["x", "hello world", "0", "-3", "+4", "0o17", "0x1F", "1.5", ".5", "1e3", "1E-2", ".inf", "-.Inf", ".nan", "true", "False", "NULL", "~", "null",
    "0.1.0", "a#b", "a # comment", "\"q\"", "\"a\\\"b\"", "\"tab\\tnew\\nline\"", "\"\\u00e9\"", "\"\\x41\"", "'it''s'", "'a'", "[]", "[a, b]", "[1, \"two\", 3.0]",
    "[ a, b ]", "[a , b]", "{a: b}", "&anchor x", "*alias", "!tag x", "-x", "http://x.y/z", "a: b", "\"unterminated", "x   ", "x\t"];
  const doc = (depth: number, indent: number, seq: boolean): string => {
    const pad = " ".repeat(indent);
    const n = 1 + Math.floor(random() * 4);
    let out = "";
    for (let i = 0; i < n; i++) {
      if (random() < 0.1) out += pick(["\n", `${pad}# note\n`, "   \n"]);
      const head = seq ? `${pad}- ` : "";
      const inner = seq ? indent + 2 : indent;
      const key = seq && random() < 0.5 ? "" : `${pick(keys)}:`;
      const r = random();
      if (!key) {
        out += head + pick(scalars) + "\n";
      } else if (r < 0.5 || depth > 3) {
        out += (seq ? head : pad) + key + " " + pick(scalars) + "\n";
      } else if (r < 0.65) {
        out += (seq ? head : pad) + key + " |" + pick(["", "-", "+", "2"]) + "\n" + `${" ".repeat(inner + 2)}line one\n${random() < 0.3 ? "\n" : ""}${" ".repeat(inner + 2)}  two\n`;
      } else if (r < 0.7) {
        out += (seq ? head : pad) + key + "\n";
      } else {
        out += (seq ? head : pad) + key + "\n" + doc(depth + 1, inner + pick([0, 2, 2, 4]), random() < 0.4);
      }
    }
    return out;
  };
  let read = 0;
  for (let i = 0; i < 1500; i++) {
    const text = doc(0, 0, random() < 0.2) + pick(["", "", "# end\n", "\n\n"]);
    const cut = random() < 0.2 ? text.slice(0, -1) : text;
    if (agrees(`random ${i}: ${JSON.stringify(cut)}`, cut, 200)) read++;
  }
  assert.ok(read > 150, `only ${read} random documents read fast`);
});

test("fast YAML reader: random documents with text folded over lines (plain, quoted, `>` and `|` blocks)", () => {
  const random = randomSource(11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const words = ["word", "two words", "{{ input.x }}", "a#b", "x:y", "0", "true", "-", "é", "\\n", "\\\"", "\\t", "\\u00e9", "it''s", "\\x41", "\\", "  spaced  ", "# c", "k: v", "[", "'", "\"",
    "{{ x }}", "[a]", "]", "- item", "-x", "? q", "?q", ":x", "!t", "&a", "*b", "|", ">", "%", "@", "`", ",", "}"];
  // the lines of a scalar's continuation: words, empty lines, lines more or less indented than `at`
  const lines = (at: number): string => {
    let out = "";
    const n = 1 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      const r = random();
      if (r < 0.15) out += "\n";
      else if (r < 0.2) out += " ".repeat(at + 1) + "\n";
      else out += " ".repeat(Math.max(0, at + pick([0, 0, 0, 0, 2, -1, -2]))) + pick(words) + pick(["", "", " ", " # note"]) + "\n";
    }
    return out;
  };
  const entry = (indent: number): string => {
    const pad = " ".repeat(indent);
    const key = pick(["a", "prompt", "system", "description"]);
    const r = random();
    if (r < 0.1) return `${pad}${key}:\n${" ".repeat(indent + pick([2, 2, 0]))}${pick(words)}\n${lines(indent + 2)}`;
    if (r < 0.15) return `${pad}${key}:\n${" ".repeat(indent + 2)}"${pick(words)}\n${lines(indent + 2).replace(/\n$/, "")}"\n`;
    if (r < 0.25) return `${pad}${key}: ${pick(words)}\n${lines(indent + 2)}`;
    if (r < 0.5) return `${pad}${key}: "${pick(words)}\n${lines(indent + 2).replace(/\n$/, "")}"\n`;
    if (r < 0.65) return `${pad}${key}: '${pick(words)}\n${lines(indent + 2).replace(/\n$/, "")}'\n`;
    return `${pad}${key}: ${pick([">", ">-", "|", "|-"])}\n${" ".repeat(indent + 2)}${pick(words)}\n${lines(indent + 2)}`;
  };
  // comments after the last entry: `yaml` stretches enclosing ranges over them
  for (const text of ["s0:\n  - id: x\n    a: q\n    # c\n", "s0:\n  - id: x\n    a: |-\n      q\n    # c\n",
    "s0:\n  - id: x\n    a: \"q\n      r\"\n    # c\n", "s0:\n  - id: x\n    a: >\n      q\n      r\n  # c\n", "a: |-\n  q\n# c\nb: 1\n"]) {
    agrees(JSON.stringify(text), text);
  }
  let read = 0;
  for (let i = 0; i < 2000; i++) {
    let text = "";
    const n = 1 + Math.floor(random() * 3);
    for (let j = 0; j < n; j++) {
      if (random() < 0.5) text += `s${j}:\n  - id: x\n${entry(4)}`;
      else text += `m${j}:\n${entry(2)}`;
    }
    if (agrees(`folded ${i}: ${JSON.stringify(text)}`, text, 100)) read++;
  }
  assert.ok(read > 400, `only ${read} random documents read fast`);
});

test("fast YAML reader reads workflows as YAML writers write them (long text folded) and agrees", () => {
  for (const seed of ["1", "2"]) {
    const value = JSON.parse(generate(["--steps", "60", "--format", "json", "--seed", seed]));
    for (const lineWidth of [80, 40, 0]) {
      const text = stringify(value, { lineWidth });
      assert.ok(agrees(`seed ${seed} lineWidth ${lineWidth}`, text, 600), `seed ${seed} lineWidth ${lineWidth}: not read fast`);
    }
  }
});

test("parseDocument uses the fast reader for ordinary YAML and the yaml package otherwise", () => {
  assert.equal(parseDocument("a: 1\nb: [x]\n", "yaml").constructor.name, "FastYamlDocument");
  assert.equal(parseDocument("a: &x 1\nb: *x\n", "yaml").constructor.name, "YamlDocument");
  assert.deepEqual(parseDocument("a: &x 1\nb: *x\n", "yaml").value, { a: 1, b: 1 });
});
