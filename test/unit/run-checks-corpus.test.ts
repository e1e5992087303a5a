// No noise: the checks that need no sample (server/src/run/checks) over every valid document of the corpora
// and examples/. Each notice they give there would be a real run-time failure of that document; the list
// is pinned, so a looser rule (or a lost one) fails here before it reaches users.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CONFORMANCE, REALWORLD, ROOT, SYNTAX, corpusCases } from "../corpus";
import { analyzeText } from "../../server/src/service/analysis";
import { runChecks } from "../../server/src/run/checks";

function noticesOfText(name: string, text: string, format: "json" | "yaml"): string[] {
  const analysis = analyzeText(text, format);
  if (!analysis.valid) return [];
  return runChecks(analysis.document.value).map((n) => `${name} ${n.code} ${n.segments.join(".")}`);
}

function noticesOf(dir: string): string[] {
  const out: string[] = [];
  for (const c of corpusCases(dir)) {
    if (!c.label.valid) continue;
    out.push(...noticesOfText(c.name, readFileSync(c.file, "utf8"), c.format));
  }
  return out;
}

describe("run-time checks on the corpora's valid documents and examples/: only real run-time failures", () => {
  test("conformance: the syntax-focused cases end in a text step under an object output.schema, and four loops read ahead", () => {
    const all = noticesOf(CONFORMANCE);
    // Written to test the validator, most cases declare output.schema {type: object} and end in a text or
    // choice step (or an array): every run of them fails before its first step (runtime semantics 10.4).
    const terminal = all.filter((n) => n.includes(" lwir.terminal_output_type "));
    assert.equal(terminal.length, 45);
    for (const n of terminal) {
      const c = corpusCases(CONFORMANCE).find((k) => n.startsWith(`${k.name} `))!;
      const value = analyzeText(readFileSync(c.file, "utf8"), c.format).document.value as { output: { schema: { type: string } } };
      assert.equal(value.output.schema.type, "object", n);
      assert.match(n, /steps\.\d+\.output\.mode$/, n);
    }
    assert.deepEqual(all.filter((n) => !terminal.includes(n)), [
      // the validator's own quirk case: a body with two final steps, every branch of which fails
      "quirk--parallel-body-two-terminals-ok.lwir.json lwir.body_terminal_ambiguous steps.0.steps",
      // the format documentation's loop: the first step's prompt reads the critique, which runs after it
      "valid--decision-loop-max-100.lwir.yaml lwir.loop_read_before_run steps.0.with.prompt",
      "valid--decision-loop.lwir.yaml lwir.loop_read_before_run steps.0.with.prompt",
      "valid--loop-allvisits-history.lwir.json lwir.loop_read_before_run steps.0.with.prompt",
      "yaml--loop-with-comments-valid.lwir.yaml lwir.loop_read_before_run steps.0.with.prompt",
    ]);
  });

  test("syntax cases: none", () => {
    assert.deepEqual(noticesOf(SYNTAX), []);
  });

  test("real-world: one loop that reads its review before the review ran, in both spellings", () => {
    // body [review needs worker, route needs review → end | worker, worker]: worker has no needs and is
    // not held back (route's needs are not met), so it runs first and its input reads review, which has not run
    assert.deepEqual(noticesOf(REALWORLD), [
      "test-decision-loop-fu4-multi-fix.lwir.json lwir.loop_read_before_run steps.1.steps.2.input.priorNote",
      "test-decision-loop-fu4-multi-fix.lwir.yaml lwir.loop_read_before_run steps.1.steps.2.input.priorNote",
    ]);
  });

  test("examples/: none", () => {
    const dir = join(ROOT, "examples");
    const files = readdirSync(dir).filter((f) => /\.lwir\.(json|ya?ml)$/.test(f)).sort();
    assert.ok(files.length >= 3, "the examples are there");
    const out = files.flatMap((f) => noticesOfText(f, readFileSync(join(dir, f), "utf8"), f.endsWith(".json") ? "json" : "yaml"));
    assert.deepEqual(out, []);
  });
});
